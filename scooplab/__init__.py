"""scooplab: a hand-history analytics lab for new poker variants."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("scooplab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
