"""``python -m scooplab.cli``: the ``scooplab`` command."""

from scooplab.cli import run

if __name__ == "__main__":  # pragma: no cover
    run()
