"""Running and comparing: ``running`` runs a scenario in its game's eras (refusals
included), ``diffing`` finds where their outcomes diverge (deepdiff), ``report`` says it
as a table and the events that explain it, ``catalog`` describes the shipped scenarios.
Nothing here touches the database. May import scenarios, games, files and text."""
