"""Checking scenario files without storing anything: ``validation`` (`validate`: every
problem of every file) and ``verify`` (`verify`: a scenario's hand-written `expect:` held
to what the engine computes). May import explore, compare, scenarios, games, files, text."""
