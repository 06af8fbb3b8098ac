"""rulesdiff's comparator: everything around the rules of ``versions``. Packages by job,
each one floor of a house whose floors import only those below them (the layers are
import-linter contracts in pyproject.toml; docs/architecture.md draws them):

    cli        the `rulesdiff` command line: parses, calls one package, prints
    site       the static website
    dataset    the regression dataset: generate, build (here or on a cluster), check, export
    checking   `validate` and `verify`: a scenario file's problems, its `expect:` held true
    rules      the rules' own texts: reading each kind, their store, history, quoting
    explore    every line of play in each era, its report, the best blocks
    store      the database: schema, named migrations, packing, writing, reading
    compare    running a scenario in its game's eras and diffing the outcomes
    scenarios  reading a scenario file of any game; the shipped ones; a new one
    games      each game's adapter and what every game builds on
    files      reading what users give (guarded, YAML, problems with their places)
    text       JSON encodings and hashes, text made safe for a terminal, narration

``versions`` (the rules) never imports anything here."""
