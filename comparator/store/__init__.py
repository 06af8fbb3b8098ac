"""The database (SQLite by default, PostgreSQL with the `postgres` extra): ``schema`` (tables,
views, row primitives), ``migrations`` (named, in order), ``packing`` (Zstandard against
frozen dictionaries in ``dictionaries/``, made by ``dictionary_training``), ``database``
(connecting, writing, the newest runs), ``reading`` (a stored row read back, rows
streamed). May import compare, scenarios, games, files and text."""
