"""The `rulesdiff` command line: ``main`` (the entry point) gathers the commands, one module
per group (``scenarios``: run, new, validate, verify, eras, diff, show, schema, catalog,
scenarios; ``explore``: explore, blocks; ``dataset``; ``rules``: rules and history;
``cards``; ``site``), on the one typer ``app``. A command parses its arguments, calls one
function of a package below and prints; ``output`` is how every command prints and fails,
``options`` the options several commands share, ``typer_help`` the few ways rulesdiff's
help differs from typer's. May import every package below it; nothing imports it."""
