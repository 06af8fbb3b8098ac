"""Text rulesdiff writes, whatever the command: ``encoding`` (JSON as rulesdiff encodes
and hashes it), ``terminal`` (text made safe for a terminal, wrapped to its width),
``narrate`` (one era's outcome told step by step). The lowest floor, beside ``files``."""
