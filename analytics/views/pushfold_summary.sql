-- pushfold_summary: one row a stored push/fold solution (a game, rule set, stack, ante and plan;
-- solutions of an older scooplab, without a plan, are left out):
-- the share of starting hands the small blind pushes and the big blind calls, the small blind's
-- value, the exploitability (and for buckets the full game's, estimated on real hands), and the
-- best starting hand (the greatest all-in equity against a random hand) with its equity when
-- called.
SELECT
    variant,
    options,
    stack,
    ante,
    abstraction,
    plan,
    samples,
    seed,
    count(*) AS classes,
    sum(share * push) AS pushed,
    sum(share * call) AS called,
    any_value(value) AS value,
    any_value(exploitability) AS exploitability,
    any_value(full_exploitability_low) AS full_exploitability_low,
    any_value(full_exploitability_high) AS full_exploitability_high,
    arg_max_null(hand_group, equity) AS best_hand,
    arg_max_null(called_equity, equity) AS best_called_equity,
    any_value(method) AS method,
    max(created_at) AS created_at
FROM pushfold
WHERE plan IS NOT NULL
GROUP BY ALL
