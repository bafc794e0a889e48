-- Macros that decode the compact card codes of showdown-mode rows: a card is one character,
-- chr(48 + card id) ('0' is 2c, ... 'c' is As; Skœjarth: '0' is 1b, ... 'K' is Ks).
CREATE OR REPLACE MACRO card_text(code, skoejarth) AS
    substr(CASE WHEN skoejarth
        THEN '1b1c1o1s2b2c2o2s3b3c3o3s4b4c4o4s5b5c5o5s6b6c6o6sKbKcKoKs'
        ELSE '2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJdJhJsQcQdQhQsKcKdKhKsAcAdAhAs'
    END, 2 * (ascii(code) - 48) + 1, 2);
CREATE OR REPLACE MACRO cards_text(codes, skoejarth) AS
    array_to_string(list_transform(range(length(codes)), lambda j: card_text(substr(codes, j + 1, 1), skoejarth)), '');
-- Whether a run is among the chosen ones (none chosen: every run) and not left out (skip).
CREATE OR REPLACE MACRO chosen_run(run_id, runs, skip) AS
    (len(runs) = 0 OR list_contains(runs, run_id)) AND NOT list_contains(skip, run_id);
