-- rejects: hands that could not be replayed, with the one-line reason (error) and the kind of
-- reason (reason: the error's last part, quoted values as '…' and numbers as N), for counting.
SELECT
    *,
    trim(regexp_replace(regexp_replace(regexp_extract(error, '([^:]*)$', 1), '''[^'']*''', '''…''', 'g'),
                        '[0-9]+', 'N', 'g')) AS reason
FROM rejects_raw
