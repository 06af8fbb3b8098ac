"""Exploring: every line of play of a scenario in each era of its game (contract:
docs/contract/explore.md). ``eras`` explores one scenario with its game's explorer,
``files`` explores files for `explore` and `dataset build --explore`, ``report`` says the
result in words, ``best_blocks`` answers `blocks --best`. Each game's own explorer lives
with its game (``comparator.games.<game>.explore``) and builds on
``comparator.games.exploration``. May import compare, scenarios, games, files and text;
nothing here touches the database."""
