"""Cards and hand rankings: decks and card ids (``cards``), the rankings a description can name
with their categories (``rankings``), how a strength is packed (``strengths``), the evaluators
(``evaluate``, a batch API over the compiled ``kernels`` and ``low_hands``, which share ``tables``)
and hands described in words (``describe``). The bottom layer: it knows no game.
"""
