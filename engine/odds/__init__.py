"""Odds and ranges: equity of known cards over every runout or a sample (``equity``), a
situation read from text and its odds (``situations``), ranges of two-card games (``ranges``,
``ranged``), starting-hand tables (``starting_hands``) and the intervals of sampled figures
(``intervals``).
"""
