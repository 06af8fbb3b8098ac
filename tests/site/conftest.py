"""The site of the shipped library, built once for every module of these tests (the
build runs and explores every scenario: minutes), and served over HTTP as a static host
serves it."""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app

GENERATED = 40  # the small dataset stored beside the library: the statistics count it


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """The site of the shipped library, built twice: into a store that holds only a small
    generated dataset, then again with everything stored. Also the store's path."""
    root = tmp_path_factory.mktemp("site")
    db = str(root / "store.db")
    runner = CliRunner()
    made = runner.invoke(app, ["dataset", "generate", str(root / "gen"), "--count",
                               str(GENERATED), "--jobs", "1"])
    assert made.exit_code == 0, made.output
    stored = runner.invoke(app, ["dataset", "build", str(root / "gen"), "--db", db,
                                 "--jobs", "1"])
    assert stored.exit_code == 0, stored.output
    first = runner.invoke(app, ["site", str(root / "one"), "--db", db, "--json",
                                "--jobs", "2"])
    assert first.exit_code == 0, first.output
    # Again in another process, with another hash seed: nothing may hang on set order.
    again = subprocess.run([sys.executable, "-m", "comparator", "site", str(root / "two"),
                            "--db", db, "--json"], capture_output=True, text=True,
                           timeout=600, env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert again.returncode == 0, again.stderr
    return root / "one", root / "two", json.loads(first.stdout), db


@pytest.fixture(scope="session")
def served(built):
    """The site over HTTP on localhost, as a static host serves it."""
    site = built[0]
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: ANN002 - HTTPServer's signature
        """Say nothing: the test's output stays the test's."""
