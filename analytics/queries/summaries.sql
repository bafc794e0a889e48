-- summaries: the stored statistic counts of showdown-mode shards, added up.
SELECT query, key, "column", sum(value) AS value
FROM summaries_raw
WHERE variant = $variant AND (len($runs) = 0 OR list_contains($runs, run_id))
GROUP BY ALL
