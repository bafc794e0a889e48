# scooplab: `make demo` and `make test` set everything up themselves (Python 3.11+ only).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup browser test test-fast soak demo bench lint format clean

setup: $(STAMP)

# (Re)install when the venv is missing or pyproject.toml changed since the last install.
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "scooplab needs Python 3.11 or newer; found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m scooplab.warm
	@touch $(STAMP)

# Debian's Chromium for the browser test (browsers cannot be downloaded here; root installs it)
browser:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	  || echo "scooplab: could not install Debian's chromium; the browser test will be skipped"

# the suite on two xdist workers (the machines have two cores): under 10 minutes
TEST_WORKERS ?= 2

test: setup browser
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

test-fast: setup
	$(BIN)/python -m pytest -m 'not slow and not soak'

# reliability at scale (docs/reliability.md): a real Dask cluster, kill -9 loops, a fuzzed corpus,
# the dashboard under load; CI runs it after `make test`
soak: setup browser
	$(BIN)/python -m pytest -m soak

DEMO_HANDS ?= 2000000
DEMO_BETTING_HANDS ?= 50000
# every built-in game the compiled core simulates (one description file each in engine/variants/;
# today all of them, stud and the draw games included)
SIMULATED_GAMES = from engine.rules.games import GAMES; print(*sorted(n for n, g in GAMES.items() if not g.compiled_gaps))
# and those it simulates in betting mode too
BETTING_GAMES = from engine.rules.games import GAMES; print(*sorted(n for n, g in GAMES.items() if not g.compiled_gaps and not g.betting_gaps))

demo: setup
	@betting=" $$($(BIN)/python -c "$(BETTING_GAMES)") "; \
	for game in $${DEMO_GAMES:-$$($(BIN)/python -c "$(SIMULATED_GAMES)")}; do \
	  $(BIN)/scooplab simulate --variant $$game --hands $(DEMO_HANDS) --seed 2026 --run-id demo-$$game || exit 1; \
	  case "$$betting" in *" $$game "*) \
	    $(BIN)/scooplab simulate --variant $$game --mode betting --hands $(DEMO_BETTING_HANDS) --seed 2026 \
	      --policy tag --policy random --policy station --run-id demo-betting-$$game-$(DEMO_BETTING_HANDS) \
	      || exit 1;; \
	  esac; \
	done
	@# a rule-option pair with one seed (the same deals), so Compare shows what the option does
	$(BIN)/scooplab simulate --variant scarney --hands $(DEMO_HANDS) --seed 2026 --rule must_use_hole_card=on \
	  --run-id demo-scarney-must-use
	$(BIN)/scooplab ingest tests/fixtures/examples tests/fixtures/phh
	@if [ -d ../shared/data/phh ]; then $(BIN)/scooplab ingest ../shared/data/phh; fi
	$(BIN)/scooplab rankings --game skoejarth --cards 7
	$(BIN)/scooplab stats --variant scarney --run demo-scarney --brief
	$(BIN)/scooplab dashboard

bench: setup
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/evaluators.py
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/against_kernel.py
	$(BIN)/python benchmarks/parquet_layouts.py
	$(BIN)/python benchmarks/analytics.py
	@if [ -d ../shared/data/phh ]; then $(BIN)/python benchmarks/ingest.py; fi
	@if [ -d ../shared/data/phh ]; then $(BIN)/python benchmarks/players.py --hands 200000; fi

# ruff, and the import rules of docs/architecture.md (pyproject.toml's [tool.importlinter])
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .import_linter_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
