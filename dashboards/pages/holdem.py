"""Hold'em, the reference game."""

from dashboards.pages._game import header

header("holdem")
