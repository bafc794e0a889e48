"""scooplab: a hand-history analytics lab for new poker variants."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata when first asked for."""
    if name != "__version__":
        raise AttributeError(f"module 'scooplab' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scooplab")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0+source"
