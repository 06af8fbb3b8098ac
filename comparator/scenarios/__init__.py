"""Scenario files of any game: ``loader`` reads one (guarded, YAML) and hands it to its
game's parser, ``shipped`` lists the shipped ones, ``scaffold`` writes a new one from the
template. May import games, files and text."""
