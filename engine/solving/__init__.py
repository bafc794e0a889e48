"""Solving: heads-up push/fold equilibria (``pushfold``, planned by ``pushfold_plan``, over the
class matchups of ``matchups``) and buckets of starting hands for games of many hole cards
(``buckets``). The policy that plays a solved chart is a rule of play: ``engine.rules.pushfold_play``.
"""
