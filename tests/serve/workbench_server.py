"""The workbench's server, started as a user starts it (`rulesdiff serve FOLDER`, a real
uvicorn on a free port of 127.0.0.1), with a folder and a store of the test's own; and a
client that speaks to it over HTTP. (Not in conftest.py: each folder of tests has one,
and only one module of that name can be imported.)"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data" / "scenarios"
SIX_PUMPS = ROOT / "benchmarks" / "explore-six-pumps.yaml"  # about 10 s an era, unbounded


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    folder: Path
    db: Path
    process: subprocess.Popen

    def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None, timeout: float = 60
             ) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else
                                            json.dumps(body).encode())
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return r.status, _read(r.read(), r.headers.get("content-type", ""))
        except urllib.error.HTTPError as err:
            return err.code, _read(err.read(), err.headers.get("content-type", ""))

    def post(self, path: str, body: Any, **kw: Any) -> tuple[int, Any]:
        return self.call("POST", path, body, **kw)

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        return self.call("GET", path, **kw)


def _read(data: bytes, kind: str) -> Any:
    return json.loads(data) if "json" in kind else data.decode("utf-8", "replace")


def start_server(root: Path, *options: str) -> Server:
    folder = root / "folder"
    folder.mkdir(exist_ok=True)
    db = root / "store.db"
    port = free_port()
    log = (root / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "comparator", "serve", str(folder), "--db", str(db),
         "--port", str(port), *options], stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "NO_COLOR": "1"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/api/vocabulary", timeout=2):
                break
        except OSError:
            if process.poll() is not None:
                raise RuntimeError((root / "server.log").read_text()) from None
            time.sleep(0.1)
    else:
        process.kill()
        raise RuntimeError("the workbench did not start: " + (root / "server.log").read_text())
    return Server(url, folder, db, process)


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(20)
    except subprocess.TimeoutExpired:
        server.process.kill()
