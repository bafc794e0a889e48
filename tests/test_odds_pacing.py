"""Odds paced to a time limit (engine.odds.pacing, `scooplab odds --max-seconds`): the work said
before it starts, its time estimated from the rate of first batches (the first, which may
compile, left out), a sample cut to what fits or the work refused when asked for whole, and no
figure changed by the batches the runouts are settled in. The pacing is tested on a fake clock."""

import json

import pytest
from typer.testing import CliRunner

import engine.odds.pacing as pacing
import engine.odds.ranged as ranged
import engine.odds.situations as situations
from engine.odds.pacing import FIRST, Estimate, OverBudget, paced
from engine.odds.situations import OddsWork, odds, situation
from engine.rules.games import GAMES
from scooplab.cli import app

runner = CliRunner()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeWork:
    """Runouts settled at ``rate`` a second on ``clock``; the first batch also takes ``compile``
    seconds."""

    def __init__(self, total: int, exact: bool, rate: float, clock: Clock, compile: float = 0.0):
        self.total, self.exact, self.done, self.rate, self.clock = total, exact, 0, rate, clock
        self.compile, self.batches = compile, []

    def settle(self, n: int) -> int:
        n = min(n, self.total - self.done)
        self.clock.now += n / self.rate + (self.compile if not self.batches else 0.0)
        self.done += n
        self.batches.append(n)
        return n

    def cut(self, total: int) -> None:
        self.total = max(self.done, min(total, self.total))


def _paced(work: FakeWork, max_seconds: float | None, forced: bool = False):
    heard, progress, made = [], [], []

    def resample(k: int) -> FakeWork:
        made.append(FakeWork(k, False, work.rate, work.clock))
        return made[-1]

    done = paced(work, max_seconds, resample, forced=forced, on_estimate=heard.append,
                 progress=lambda d, t: progress.append((d, t)), clock=work.clock)  # fmt: skip
    return done, heard, progress, made


def test_a_sample_past_the_limit_is_cut_to_what_fits_after_saying_its_size():
    clock = Clock()
    done, heard, progress, _ = _paced(FakeWork(200_000, False, 128.0, clock, compile=240.0), 60)
    assert heard[0] == Estimate(False, 200_000, max_seconds=60)  # the size, before any runout
    cut = heard[1]
    assert cut.rate == 128.0  # the first batch's compile left out
    assert cut.cut and cut.asked_runouts == 200_000 and cut.runouts == done.total == done.done == 7_680
    assert cut.seconds == pytest.approx(60, abs=0.01) and 0.01 < cut.margin() < 0.012
    assert clock.now - 240.0 == pytest.approx(60)  # the whole work fits the limit
    assert progress[-1] == (7_680, 7_680) and len(progress) > 100  # a batch about every half second


def test_every_runout_past_the_limit_becomes_a_sample_or_is_refused_when_asked_for():
    done, heard, _, made = _paced(FakeWork(1_712_304, True, 10_000.0, Clock()), 60)
    assert [w.total for w in made] == [600_000] and done is made[0] and done.done == 600_000
    assert heard[-1].size() == "600,000 sampled runouts" and heard[-1].asked() == "every runout (1,712,304)"
    with pytest.raises(OverBudget) as refused:
        _paced(FakeWork(1_712_304, True, 10_000.0, Clock()), 60, forced=True)
    assert refused.value.fits == 600_000 and "every runout (1,712,304) would take" in str(refused.value)


def test_work_that_fits_is_settled_whole_and_short_work_is_not_estimated():
    done, heard, _, made = _paced(FakeWork(50_000, True, 10_000.0, Clock()), 60)
    assert not made and done.done == 50_000 and not heard[-1].cut and heard[-1].seconds == pytest.approx(5)
    short = FakeWork(FIRST + 10, False, 10.0, Clock())  # done by the first batches: nothing to estimate
    assert [e.rate for e in _paced(short, 60)[1]] == [None] and short.done == FIRST + 10
    whole = FakeWork(250_000, False, 1.0, Clock())
    assert _paced(whole, None)[0].batches == [100_000, 100_000, 50_000]  # no limit: nothing timed


def _figures(result) -> list[float]:
    """Every number of a result's JSON, in order (sums taken in other batches differ in the last bit)."""

    def numbers(value):
        if isinstance(value, dict):
            return [x for v in value.values() for x in numbers(v)]
        if isinstance(value, list | tuple):
            return [x for v in value for x in numbers(v)]
        return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []

    return [result.runouts, *numbers(result.as_json()["players"])]


@pytest.mark.parametrize(
    ("name", "hands", "options", "samples"),
    [
        ("holdem", ["AhKh", "random", "random"], {}, 2_600),
        ("holdem", ["TT+,AKs", "15%"], {}, 2_600),  # ranges: each chunk drawn whole
        ("deuce-to-seven-triple-draw", ["2c3d4h7sKc", "random"], {}, 2_600),  # draws seeded by chunk
    ],
)
def test_no_figure_depends_on_the_batches_and_a_cut_sample_is_the_smaller_sample(
    monkeypatch, name, hands, options, samples
):
    for module in (situations, ranged, pacing):
        monkeypatch.setattr(module, "CHUNK", 1_000)  # batches that cross chunks, and several chunks
    game = GAMES[name]
    spot = situation(game, hands, {}, "", options)
    work = OddsWork(game, spot, options, samples=samples, seed=3)
    sizes = iter([7, 1, 500, 999, 3, 1_200] * 10)
    while work.done < work.total:
        work.settle(next(sizes))
    whole = _figures(odds(game, spot, options, samples=samples, seed=3))
    assert _figures(work.result()) == pytest.approx(whole, rel=1e-12)
    short = OddsWork(game, spot, options, samples=samples, seed=3)
    short.settle(13)
    short.cut(1_500)
    while short.done < short.total:
        short.settle(333)
    smaller = _figures(odds(game, spot, options, samples=1_500, seed=3))
    assert _figures(short.result()) == pytest.approx(smaller, rel=1e-12)


def test_the_command_says_the_work_and_samples_down_past_the_limit():
    args = ["odds", "--variant", "deuce-to-seven-triple-draw", "--hand", "2c3d4h7sKc", "--hand", "random",
            "--rule", "draw_policy=sampled", "--max-seconds", "0.001", "--format", "json"]  # fmt: skip
    result = runner.invoke(app, args)  # the sampled policy: minutes for 200,000 runouts
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert not out["exact"] and out["runouts"] < 200_000
    said = result.stderr
    assert "odds: 200,000 sampled runouts\n" in said
    assert "odds: 200,000 sampled runouts would take about " in said and "past --max-seconds 0.001:" in said
    assert f"\n{out['runouts']:,} are sampled instead, each figure within ±" in said
    over_a_billion = ["--hand", "AhKh", "--hand", "QsQd", "--hand", "random", "--exact"]
    exact = runner.invoke(app, ["odds", *over_a_billion, "--max-seconds", "0.001"])
    last = exact.stderr.strip().splitlines()[-1]
    assert exact.exit_code == 2 and last.startswith("scooplab: error: every runout (1,")
    assert "past --max-seconds 0.001: give --max-seconds" in last and "or leave out --exact (" in last
    bad = runner.invoke(app, ["odds", "--hand", "AhKh", "--hand", "QsQd", "--max-seconds", "0"])
    assert bad.exit_code == 2 and "give a time limit above 0" in bad.output
