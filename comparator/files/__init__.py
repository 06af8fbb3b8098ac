"""Reading what users give, before any game knows it: ``guarded`` (a regular file of a
bounded size, UTF-8), ``documents`` (YAML with its guards), ``problems`` (each problem
with its file, line and field; the one error that carries them all), ``locations`` (where
the shipped data lives), ``file_sets`` (the files a command is given, generated folders by
their manifest). The lowest floor: imports only ``versions`` and libraries."""
