"""A throwaway PostgreSQL server for the tests and the bench: `initdb` in a temporary
folder, `pg_ctl start` on a free port and a Unix socket in that folder, stopped and
deleted at the end. Run as root, the server runs as `nobody` (PostgreSQL refuses root).

    with ThrowawayPostgres() as server:
        url = server.create_database("game1")   # postgresql://... of a new database
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

UNPRIVILEGED = "nobody"


def find_bin() -> Path | None:
    """The folder of `initdb` and `pg_ctl` (PATH, or Debian's /usr/lib/postgresql/N/bin)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: (
            int(Path(path).parent.parent.name) if Path(path).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ThrowawayPostgres:
    def __init__(self, *, durable: bool = False) -> None:
        """`durable`: keep fsync on (the bench measures what a real server does); the
        tests turn it off for speed."""
        found = find_bin()
        if found is None:
            raise FileNotFoundError(
                "PostgreSQL is not installed (no initdb): apt-get install postgresql"
            )
        self.bin = found
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="montana-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._count = 0
        self._started = False

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", UNPRIVILEGED, "--", *command]
        subprocess.run(
            command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/"
        )

    def start(self) -> ThrowawayPostgres:
        if os.geteuid() == 0:
            shutil.chown(self.folder, UNPRIVILEGED)
        os.chmod(self.folder, 0o755)
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
            "--no-sync", "--locale=C",
        )  # fmt: skip
        options = [
            f"-p {self.port}",
            f"-k {self.folder}",
            "-c listen_addresses=127.0.0.1",
            "-c max_connections=200",
            "-c shared_buffers=64MB",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run(
            "pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.folder / "log"),
            "-o", " ".join(options),
        )  # fmt: skip
        self._started = True
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """A new, empty database; its URL."""
        self._count += 1
        name = name or f"test{self._count}"

        subprocess.run(
            [
                str(self.bin / "psql"), "-q", "-h", str(self.folder), "-p", str(self.port),
                "-U", "postgres", "-d", "postgres", "-c", f'CREATE DATABASE "{name}"',
            ],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        return self.url(name)

    def stop(self) -> None:
        if self._started:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
            self._started = False
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
