-- pot_unit: the unit the pots query counts in (10^-decimals of the currency), and how many
-- currencies the chosen hands name, none (chips, or money of no named currency) counting as one:
-- pots of several are not added up.
SELECT coalesce(max(coalesce(amount_decimals, 0)), 0) AS decimals,
       count(DISTINCT coalesce(currency, '')) AS currencies, max(currency) AS currency
FROM hands_raw
WHERE variant = $variant AND chosen_run(run_id, $runs, $skip)
