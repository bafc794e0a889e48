-- rejects: hands that could not be replayed, with the one-line reason.
SELECT * FROM rejects_raw
