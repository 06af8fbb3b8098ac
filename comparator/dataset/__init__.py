"""The regression dataset: ``generate`` writes a folder of generated scenarios, ``build``
runs and stores files here (``runs``) or on a Dask cluster (``cluster``), ``check`` runs
every stored scenario again, ``export`` and ``parquet`` write the dataset out. May import
explore, store, compare, scenarios, games, files and text; not rules, site or cli."""
