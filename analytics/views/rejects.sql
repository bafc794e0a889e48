-- rejects: hands that could not be replayed, with the one-line reason (error) and the kind of
-- reason (reason: the error's last part, quoted values as '…' and numbers as N), for counting.
-- A number inside a code of capitals (F7S, FO/8) is part of the code and stays.
SELECT
    *,
    trim(regexp_replace(regexp_replace(regexp_extract(error, '([^:]*)$', 1), '''[^'']*''', '''…''', 'g'),
                        '(^|[^A-Z0-9/.])[0-9]+(\.[0-9]+)?', '\1N', 'g')) AS reason
FROM rejects_raw
