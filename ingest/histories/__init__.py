"""Hand histories in and out: PHH files, folders and archives read as a bounded stream
(``archives``, ``phh``), each hand replayed through the rules and checked (``replay``, in batches
by the compiled kernel: ``fast_replay``), its rows (``rows``), the ingest that stores the good ones
and rejects the rest (``pipeline``), and stored hands written back as PHH (``record``, ``export``).
"""
