"""`rulesdiff site OUT/`: a static website of every era, rule change and scenario, for the
historian without a terminal. ``build`` does it all: ``gather`` runs and reads what the
pages show, ``pages`` writes them, ``board_svg`` and ``charts`` draw the pictures,
``search`` indexes them."""
