"""The rules, to read: every game as data (``games``: its description, read from
``engine/variants/``, and its showdown), side pots and odd chips (``pots``), bet sizes by structure
(``betting``), the dealer's automations (``dealer``), where each dealt card goes (``sim_layout``),
the reference state machine of one hand (``state``), a game's starting-hand classes
(``hand_classes``) and the built-in betting policies (``policies``, ``pushfold_play``). The same
rules, compiled for speed, are in ``engine.compiled``; tests hold the two equal hand by hand.
"""
