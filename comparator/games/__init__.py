"""The games rulesdiff compares. Each registers, in its own package here (``mtg``,
``duel_masters``), what the comparator needs of it beyond its eras (which ``versions``
lists): how its scenario file is read and checked, its explorer, its board picture and the
words its reports use. ``registry`` holds the adapter every game fills in and finds a
game's by name; the rest is what every game builds on: ``exploration`` (the game tree's
shared pieces), ``board`` (a board as a picture), ``states`` (an outcome's state as eras
are compared on it), ``schema`` (the scenario format as JSON Schema).

A game's package is imported only when a scenario of its game is met, so that running a
Magic scenario never loads Duel Masters' code, nor the reverse; no game imports another.
May import files, text and ``versions``."""
