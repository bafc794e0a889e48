"""Hold'em, the reference game."""

from dashboards.screens._game import header

header("holdem")
