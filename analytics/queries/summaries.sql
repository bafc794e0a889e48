-- summaries: the stored statistic counts of the runs in $only (complete showdown-mode runs), added up.
SELECT query, key, "column", sum(value) AS value
FROM summaries_raw
WHERE variant = $variant AND list_contains($only, run_id)
GROUP BY ALL
