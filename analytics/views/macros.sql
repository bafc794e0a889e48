-- Macros that decode the compact card codes of showdown-mode rows: a card is one character,
-- chr(48 + card id), and deck_cards (from the variants table) lists the deck's card texts in id
-- order, two characters a card ('0' is 2c of the standard deck).
CREATE OR REPLACE MACRO card_text(code, deck_cards) AS
    substr(deck_cards, 2 * (ascii(code) - 48) + 1, 2);
CREATE OR REPLACE MACRO cards_text(codes, deck_cards) AS
    array_to_string(list_transform(range(length(codes)), lambda j: card_text(substr(codes, j + 1, 1), deck_cards)), '');
-- Whether a run is among the chosen ones (none chosen: every run) and not left out (skip).
CREATE OR REPLACE MACRO chosen_run(run_id, runs, skip) AS
    (len(runs) = 0 OR list_contains(runs, run_id)) AND NOT list_contains(skip, run_id);
