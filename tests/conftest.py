import itertools
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for this test session (tests/postgres_server.py)."""
    import postgres_server as pg

    why = pg.unavailable()
    if why:
        if os.environ.get("RULESDIFF_REQUIRE_POSTGRES"):
            pytest.fail(f"PostgreSQL is required here: {why}")
        pytest.skip(why)
    server = pg.start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A new, empty database on the test server."""
    return postgres_server.create_database(f"t{os.getpid()}_{next(_databases)}")


@pytest.fixture(autouse=True)
def _user_cards_as_they_were():
    """`rulesdiff --cards FILE` puts the file in the environment (worker processes inherit
    it); a command run in-process by a test must not leave it there for the next test."""
    from comparator.games.mtg.cards import USER_CARDS

    saved = os.environ.get(USER_CARDS)
    yield
    if saved is None:
        os.environ.pop(USER_CARDS, None)
    else:
        os.environ[USER_CARDS] = saved


@pytest.fixture(autouse=True)
def _english_for_each_test():
    """A command run in-process with `--lang ja` speaks Japanese for the rest of the
    process (the language is the command's, set once): each test starts in English."""
    from comparator.text.language import use

    use("en")
    yield
    use("en")
