-- pushfold: stored heads-up push/fold equilibria (scooplab solve pushfold), one row a class and
-- stack, with whether the class is played at that stack (probability at least one half).
SELECT *, push >= 0.5 AS pushed, call >= 0.5 AS called
FROM pushfold_raw
