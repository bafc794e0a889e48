-- pushfold_chart: per class (or bucket) of a game, rule set, ante and plan, the largest stored
-- stack at which the small blind pushes it and the big blind calls it (probability at least
-- one half; 0 if at no stored stack), with the stacks the chart was read from.
SELECT
    variant,
    options,
    ante,
    abstraction,
    plan,
    samples,
    seed,
    hand_group,
    coalesce(max(stack) FILTER (WHERE pushed), 0) AS push_max,
    coalesce(max(stack) FILTER (WHERE called), 0) AS call_max,
    count(*) AS stacks,
    min(stack) AS stack_low,
    max(stack) AS stack_high
FROM pushfold
WHERE plan IS NOT NULL
GROUP BY ALL
