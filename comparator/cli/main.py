"""The entry point of `rulesdiff`: every command module registered on the one app, then run.
Heavy modules are imported inside the commands, so `rulesdiff --help` starts fast."""

from __future__ import annotations

import os
import sys

from comparator.cli import explore, scenarios, serve, site  # noqa: F401 - they register commands
from comparator.cli.app import app
from comparator.cli.cards import cards_app
from comparator.cli.dataset import dataset_app
from comparator.cli.options import EXITS
from comparator.cli.rules import history, rules_app

app.add_typer(cards_app, name="cards")
app.add_typer(rules_app, name="rules")
app.command("history", epilog=EXITS["history"])(history)
app.add_typer(dataset_app, name="dataset")


def main() -> None:
    # Pydantic looks for plugins (observers of validation) in every installed package's
    # metadata when the first model is built: 50 ms of start-up where many packages are
    # installed, for plugins that would only watch rulesdiff's own scenario models. A value
    # the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception:  # a bug: neither 1 (a divergence) nor 2 (bad input), so no script
        import traceback  # that accepts a divergence mistakes a crash for one

        traceback.print_exc()
        sys.exit(70)
