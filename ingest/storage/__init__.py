"""The Parquet warehouse: one folder per table, partitioned by game and run (``warehouse``), the
tables' schemas, a runs row and how to read its settings back (``schema``, documented in
docs/warehouse.md), and the rows built column by column from the compiled kernels' arrays
(``array_rows``, ``sim_rows``), written on a second thread while the next batch is made
(``background``). The bottom layer of ``ingest``: it reads no hand history and
generates nothing.
"""
