"""The compiled rules core (numba) and its Python entry points: the rules as codes and arrays, and
pot division (``core``: ``compile_rules`` gives the ``Rules`` every kernel takes), one hand in play
and its betting moves (``hand_state``, ``betting_moves``, shared by betting mode and replay),
showdown-mode simulation (``sim_kernels``, set up by ``simulate``), betting-mode play
(``betting_kernel``, ``betting_showdown``), PHH replay (``replay_kernel``) and runouts of partly
known deals (``runouts``). Kernels never see a game object: they read the named structures a
description compiles to, each phase of a hand a function of its own. Above ``engine.rules`` and
``engine.hands``, below odds and solving.
"""
