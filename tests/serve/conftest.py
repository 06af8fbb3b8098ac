"""The workbench tests' fixtures: one server for the session (workbench_server.py starts
it), the served folder emptied around a test that writes, the browser and a page of it
that fails the test on a script error or a request outside the server."""

from __future__ import annotations

import shutil

import pytest
from chromium import launched
from workbench_server import SHIPPED, start_server, stop_server


@pytest.fixture(scope="session")
def workbench(tmp_path_factory):
    """One server for the session's workbench tests: explores up to 10^8 lines allowed
    (the cancel test needs a long one), two at once."""
    root = tmp_path_factory.mktemp("workbench")
    server = start_server(root, "--limit", "100000000", "--explores", "2")
    yield server
    stop_server(server)


@pytest.fixture
def shipped_text():
    def text(name: str) -> str:
        return (SHIPPED / f"{name}.yaml").read_text(encoding="utf-8")
    return text


@pytest.fixture
def clean_folder(workbench):
    """The served folder emptied before and after a test that writes into it."""
    def empty() -> None:
        for p in workbench.folder.iterdir():
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
    empty()
    yield workbench.folder
    empty()


@pytest.fixture(scope="module")
def browser():
    """The machine's Chromium (tests/chromium.py), one a module, as the site's tests."""
    with launched() as b:
        yield b


@pytest.fixture
def page(browser, workbench):
    """A new page that fails the test on any script error or any request outside the
    server."""
    context = browser.new_context(bypass_csp=True)  # Playwright evaluates its waits as text
    p = context.new_page()
    errors: list[str] = []
    outside: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("request", lambda r: outside.append(r.url)
         if not r.url.startswith((workbench.url, "data:", "blob:")) else None)
    yield p
    context.close()
    assert not outside, outside
    assert not errors, errors
