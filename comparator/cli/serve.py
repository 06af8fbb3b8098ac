"""`rulesdiff serve`: the workbench, a local web application (``comparator.serve``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from comparator.cli.app import app
from comparator.cli.options import EXITS, DbOption, LangOption
from comparator.cli.output import echo_lines, fail, speak
from comparator.text.language import _


@app.command(epilog=EXITS["serve"])
def serve(
    folder: Annotated[Path | None, typer.Argument(
        help="a folder of scenario files: the workbench opens them and saves into it (and "
             "nowhere else)", metavar="[FOLDER]")] = None,
    db: DbOption = None,
    host: Annotated[str, typer.Option(
        "--host", help="the address to listen on (default 127.0.0.1: only this machine)",
        metavar="ADDRESS")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="the port to listen on", metavar="N",
                                      min=0, max=65535)] = 8000,
    limit: Annotated[int, typer.Option(
        "--limit", help="the most lines of play an explore may be asked (as explore's "
                        "--limit)", metavar="N", min=1, max=10**12)] = 1_000_000,
    explores: Annotated[int, typer.Option(
        "--explores", help="explores under way at once, at most", metavar="N", min=1,
        max=64)] = 2,
    explore_seconds: Annotated[float, typer.Option(
        "--explore-seconds", help="the wall time of one explore, at most", metavar="S",
        min=1, max=86_400)] = 300.0,
    seconds: Annotated[float, typer.Option(
        "--seconds", help="the wall time of a validate, run or diff, at most", metavar="S",
        min=0.01, max=3600)] = 30.0,
    max_body: Annotated[int, typer.Option(
        "--max-body", help="the largest request body read, in bytes", metavar="BYTES",
        min=1024, max=10_000_000)] = 256_000,
    lang: LangOption = None,
) -> None:
    """The workbench in your browser: open a scenario (shipped, stored, a file of FOLDER or
    a new one), change it in a form or its YAML, and see every era's outcome and board at
    once; explore it; share it as a link; save it into FOLDER. Also serves the site's pages,
    live from the store, and the JSON API of docs/serve.md. It is in Japanese at
    /ja/workbench; --lang is the language of what the command itself says."""
    import errno
    import socket
    from importlib.util import find_spec

    speak(lang)
    missing = [m for m in ("starlette", "uvicorn", "jinja2") if not find_spec(m)]
    if missing:
        fail(f"the workbench needs {', '.join(missing)}: pip install 'rulesdiff[serve]'")
    if folder is not None:
        if not folder.exists():
            fail(f"{folder}: no such folder")
        if not folder.is_dir():
            fail(f"{folder}: not a folder")
        folder = folder.resolve()
    try:  # the port, before anything starts: a second server says so in one line
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
            port = probe.getsockname()[1]  # --port 0: the free port the system chose
    except OSError as err:
        why = ("already in use" if err.errno == errno.EADDRINUSE
               else err.strerror or str(err))
        fail(f"--host {host} --port {port}: can't listen there: {why}")
    except (OverflowError, UnicodeError, ValueError) as err:
        fail(f"--host: {host!r} is not an address ({err})")

    import uvicorn

    from comparator.serve.app import Settings, create_app
    from comparator.serve.guard import LOOPBACK
    from comparator.serve.limits import Limits

    limits = Limits(body_bytes=max_body, explore_limit=limit, seconds=seconds,
                    explore_seconds=explore_seconds, explores=explores)
    application = create_app(Settings(folder=folder, db=db, host=host, limits=limits))
    shown = f"[{host}]" if ":" in host else host
    echo_lines(_("rulesdiff workbench: {url}/workbench (in Japanese: {url}/ja/workbench; "
                 "the site: {url}/site/)").format(url=f"http://{shown}:{port}"))
    if host in LOOPBACK:
        echo_lines(_("Listening on this machine only; --host 0.0.0.0 shares it with your "
                     "network. Ctrl-C stops it."))
    elif folder:
        echo_lines(_("Listening on {host}: anyone who can reach it can run scenarios and "
                     "save files into {folder}. Ctrl-C stops it.").format(host=host,
                                                                          folder=folder))
    else:
        echo_lines(_("Listening on {host}: anyone who can reach it can run scenarios. "
                     "Ctrl-C stops it.").format(host=host))
    if folder is not None:
        echo_lines(f"Opening and saving scenario files in {folder} only.")
    uvicorn.run(application, host=host, port=port, log_level="warning",
                access_log=False, server_header=False)
