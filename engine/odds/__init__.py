"""Odds and ranges: equity of known cards over every runout or a sample (``equity``), a
situation read from text and its odds (``situations``), settled in batches paced to a time limit
(``pacing``), ranges of two-card games (``ranges``, ``ranged``), starting-hand tables
(``starting_hands``) and the intervals of sampled figures (``intervals``).
"""
