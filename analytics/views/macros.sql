-- Whether a run is among the chosen ones (none chosen: every run) and not left out (skip).
CREATE OR REPLACE MACRO chosen_run(run_id, runs, skip) AS
    (len(runs) = 0 OR list_contains(runs, run_id)) AND NOT list_contains(skip, run_id);
-- The cards of a card text (two characters a card) at the positions a list of hole-card fates
-- marks with one value: 0 the cards kept, a street number the cards forced out on that street.
CREATE OR REPLACE MACRO cards_with_fate(dealt, fates, fate) AS
    array_to_string(list_transform(list_filter(range(len(fates)), lambda j: fates[j + 1] = fate),
                                   lambda j: substr(dealt, 2 * j + 1, 2)), '');
-- The category of a packed hand strength (engine.hands.strengths: CATEGORY_SHIFT and CATEGORY_MASK):
-- its index in the ranking's category order.
CREATE OR REPLACE MACRO strength_category(strength) AS (strength >> 20) & 15;
