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
-- An amount of whole units of 10^-decimals of a currency (a money hand's amounts: docs/warehouse.md)
-- as an exact decimal of the currency, six places, so amounts of hands of different units add up.
CREATE OR REPLACE MACRO in_currency(units, decimals) AS
    CAST(CAST(units AS DECIMAL(38, 0)) * CASE coalesce(decimals, 0)
        WHEN 0 THEN 1.000000 WHEN 1 THEN 0.100000 WHEN 2 THEN 0.010000 WHEN 3 THEN 0.001000
        WHEN 4 THEN 0.000100 WHEN 5 THEN 0.000010 ELSE 0.000001 END AS DECIMAL(38, 6));
-- A seat's position at a table of n seats (seat 0 first left of the button, the button last):
-- button, small blind, big blind (heads-up the button posts the small blind), then the seats
-- between the big blind and the button in three groups, late first: late takes a third (rounded
-- up), early half of the rest (rounded up), middle the others; 6 seats: early, middle, late.
CREATE OR REPLACE MACRO seat_position(seat, n) AS
    CASE
        WHEN seat = n - 1 THEN 'button'
        WHEN n = 2 THEN 'big blind'
        WHEN seat = 0 THEN 'small blind'
        WHEN seat = 1 THEN 'big blind'
        WHEN seat >= n - 1 - ceil((n - 3) / 3) THEN 'late'
        WHEN seat < 2 + ceil(((n - 3) - ceil((n - 3) / 3)) / 2) THEN 'early'
        ELSE 'middle'
    END;
