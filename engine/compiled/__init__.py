"""The compiled rules core (numba) and its Python entry points: the rules as codes and arrays
(``core.compile_rules``), showdown-mode simulation (``sim_kernels``, set up by ``simulate``),
betting-mode play (``betting_kernel``, ``betting_showdown``), PHH replay (``replay_kernel``) and
runouts of partly known deals (``runouts``). Kernels never see a game object: they read the arrays
a description compiles to. Above ``engine.rules`` and ``engine.hands``, below odds and solving.
"""
