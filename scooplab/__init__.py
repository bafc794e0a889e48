"""scooplab: a hand-history analytics lab for new poker variants."""

from __future__ import annotations

__all__ = ["Lab"]  # and ``open``, left out of ``import *``: it would hide the built-in


def __dir__() -> list[str]:
    return sorted([*globals(), "Lab", "open", "__version__"])


def __getattr__(name: str):
    """``open`` and ``Lab`` (the Python API, ``scooplab.lab``), and ``__version__`` (from the
    installed package's metadata), loaded when first asked for: the command starts without them."""
    if name in ("open", "Lab"):
        from scooplab import lab

        return getattr(lab, name)
    if name != "__version__":
        raise AttributeError(f"module 'scooplab' has no attribute {name!r}")
    from ingest.storage.schema import scooplab_version

    return scooplab_version()
