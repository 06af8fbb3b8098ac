"""A real PostgreSQL server for the tests, started and stopped by them: initdb into a
temporary folder, listening only on a Unix socket there, trust authentication.

The server binaries come from the machine (Debian's `postgresql` package, which `.ci/run`
installs if they are missing). Without them the PostgreSQL tests are skipped, unless
RULESDIFF_REQUIRE_POSTGRES is set (as `.ci/run` does): then their absence is a failure.
PostgreSQL refuses to run as root, so under root the server runs as the `postgres` user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

PORT = 54329  # only names the socket file: the server listens on no TCP address


def _binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def unavailable() -> str | None:
    """Why no server can be started here, or None."""
    if _binaries() is None:
        return "no PostgreSQL server binaries (pg_ctl, initdb): install Debian's postgresql"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


@dataclass
class Server:
    folder: Path
    bin: Path
    user_prefix: list[str]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.user_prefix, *args], check=True, capture_output=True,
                       timeout=120)

    def url(self, database: str) -> str:
        return (f"postgresql+psycopg://rulesdiff@/{database}"
                f"?host={self.folder}&port={PORT}")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(host=str(self.folder), port=PORT, user="rulesdiff",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self.user_prefix, str(self.bin / "pg_ctl"), "-D",
                        str(self.folder / "data"), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Server:
    binaries = _binaries()
    assert binaries is not None
    # Short path: a Unix socket's path must fit in about 100 bytes.
    folder = Path(tempfile.mkdtemp(prefix="rdpg", dir="/tmp"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    server = Server(folder, binaries, prefix)
    server._run(str(binaries / "initdb"), "-D", str(folder / "data"), "-A", "trust",
                "-U", "rulesdiff", "-E", "UTF8", "--no-sync")
    server._run(str(binaries / "pg_ctl"), "-D", str(folder / "data"), "-l",
                str(folder / "log"), "-w", "-o",
                f"-k {folder} -p {PORT} -c listen_addresses='' -c fsync=off "
                f"-c max_connections=100", "start")
    return server
