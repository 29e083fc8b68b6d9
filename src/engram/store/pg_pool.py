"""PostgreSQL connections for one store: options, the pool, retries, outages, error messages.

`Connections.run(work)` runs `work(conn)` on a pooled connection, in a transaction when asked,
and tries again when that is safe (engram.retry): a deadlock or serialization failure (the server
rolled it back), or a connection lost before COMMIT was sent. A lost connection marks the server
down: from then on each call first connects directly (ENGRAM_PG_CONNECT_TIMEOUT seconds at most)
and fails at once with one line naming host:port and the cause, until the server answers again;
then a fresh pool replaces the old one. psycopg_pool's own reconnect warnings for Engram's pools
are not logged (the error the caller gets says it once).
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from engram.errors import (
    ReadOnlyStore,
    StoreBusy,
    StoreError,
    StoreFull,
    StoreUnavailable,
    require,
)
from engram.retry import retry

psycopg = require("psycopg", "postgres")
psycopg_pool = require("psycopg_pool", "postgres")

T = TypeVar("T")
CONNECT_TIMEOUT_S = 5.0  # seconds to wait for the server to answer a new connection (ENGRAM_PG_CONNECT_TIMEOUT)
POOL_SIZE = 10  # connections per store (per process) unless ENGRAM_PG_POOL says otherwise
POOL_TIMEOUT_S = 30.0  # how long a caller waits for a free pooled connection before StoreBusy
RETRIES = 6  # deadlocks and serialization failures: the server rolled back, so trying again is safe
POOL_PREFIX = "engram-"  # the name of every pool Engram opens (its log lines are filtered)


class _Lost(Exception):
    """A connection died before COMMIT was sent: nothing was saved, so one more try is safe."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


class Connections:
    """The connection pool of one store, and what it does when the server goes away."""

    def __init__(self, dsn: str, url: str, *, read_only: bool, configure: Callable[[Any], None],
                 pool_size: int | None = None, pool_timeout: float = POOL_TIMEOUT_S) -> None:
        self.dsn, self.url, self.read_only = dsn, url, read_only
        self.pool_size = pool_size or pool_size_from_env()
        self.pool_timeout = pool_timeout
        self.connect_timeout = connect_timeout_from_env()
        self._configure = configure
        self._pool: Any = None
        self._down = False  # a connection was lost: probe the server before using the pool
        self._closed = False
        self._lock = threading.Lock()

    # -- connections ----------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """Autocommit, plus a connect timeout and application name unless the URL sets them."""
        options: dict[str, Any] = {"autocommit": True}
        try:
            given = psycopg.conninfo.conninfo_to_dict(self.dsn)
        except psycopg.Error as exc:
            raise StoreUnavailable(f"{self.url} is not a valid PostgreSQL URL ({first_line(exc)}):"
                                   " use postgresql://user:password@host:port/dbname") from exc
        if "connect_timeout" not in given:
            options["connect_timeout"] = max(1, round(self.connect_timeout))
        if "application_name" not in given:
            options["application_name"] = "engram"
        if self.read_only:
            options["options"] = (given.get("options", "") + " -c default_transaction_read_only=on").strip()
        return options

    def connect(self) -> Any:
        """A new autocommit connection outside the pool, or StoreUnavailable in one line saying why."""
        try:
            return psycopg.connect(self.dsn, **self.options())
        except psycopg.Error as exc:
            raise StoreUnavailable(connect_advice(self.url, self.dsn, exc)) from exc

    def start(self) -> None:
        """Open the pool: one connection now, up to `pool_size` on demand."""
        pool = psycopg_pool.ConnectionPool(
            self.dsn, kwargs=self.options(), min_size=1, max_size=self.pool_size, open=False,
            configure=self._configured, timeout=self.pool_timeout,
            name=f"{POOL_PREFIX}{id(self):x}", max_idle=300,
        )
        try:
            pool.open(wait=True, timeout=self.connect_timeout)
        except psycopg_pool.PoolTimeout as exc:
            pool.close()
            self.probe()  # names the cause when there is one
            raise StoreUnavailable(f"cannot connect to {server_of(self.dsn)} ({self.url}): no connection within"
                                   f" {self.connect_timeout:g} s; check that the server is running and accepts"
                                   " connections") from exc
        self._pool = pool

    def _configured(self, conn: Any) -> None:
        _OURS.add(conn)
        self._configure(conn)

    def probe(self) -> None:
        """Connect once, directly: StoreUnavailable naming host:port and the cause if the server does not answer."""
        self.connect().close()

    def _recover(self) -> Any:
        """After a lost connection: fail fast while the server is away, a fresh pool once it is back."""
        with self._lock:
            if self._down:
                self.probe()
                old, self._pool = self._pool, None
                if old is not None:
                    old.close(timeout=0)
                self.start()
                self._down = False
            return self._pool

    def close(self) -> None:
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # -- running work ---------------------------------------------------------------------
    def run(self, work: Callable[[Any], T], *, transaction: bool) -> T:
        """`work(conn)` on a pooled connection (in one transaction when asked), retried when safe."""
        if self._closed:
            raise StoreUnavailable(f"store {self.url} is closed")
        lost: list[BaseException] = []

        def again(exc: BaseException, attempt: int) -> bool:
            if isinstance(exc, _Lost):
                lost.append(exc)
                return len(lost) == 1  # once: a second loss in a row is an outage
            return isinstance(exc, (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure))

        try:
            return retry(lambda: self._once(work, transaction), tries=RETRIES, again=again,
                         wait=lambda exc: not isinstance(exc, _Lost))
        except _Lost as exc:
            self._down = True
            raise StoreUnavailable(connect_advice(self.url, self.dsn, exc.cause)) from exc.cause
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure) as exc:
            raise StoreBusy(f"{self.url}: still conflicting with other writers after {RETRIES} tries:"
                            f" {first_line(exc)}") from exc

    def _once(self, work: Callable[[Any], T], transaction: bool) -> T:
        pool = self._recover() if self._down else self._pool
        if pool is None or self._closed:
            raise StoreUnavailable(f"store {self.url} is closed")
        conn: Any = None
        stage = "work"
        try:
            with pool.connection() as conn:
                if not transaction:
                    return work(conn)
                with conn.transaction():
                    result = work(conn)
                    stage = "commit"
                return result
        except psycopg_pool.PoolTimeout as exc:
            self.probe()  # a server that went away is named as such, not as a busy pool
            raise StoreBusy(
                f"{self.url}: all {self.pool_size} pooled connections stayed busy for {self.pool_timeout:g} s:"
                " raise the pool size (ENGRAM_PG_POOL) or run fewer concurrent callers per process") from exc
        except psycopg_pool.PoolClosed as exc:
            raise StoreUnavailable(f"store {self.url} is closed") from exc
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            raise
        except psycopg.OperationalError as exc:
            if conn is not None and not (conn.closed or conn.broken):
                raise translate(exc, self.url, self.dsn) from exc
            self._down = True
            if stage == "commit":
                raise StoreUnavailable(
                    f"lost the connection to {server_of(self.dsn)} ({self.url}) while committing: the write may"
                    " or may not have been saved; check, then retry") from exc
            raise _Lost(exc) from exc
        except psycopg.Error as exc:
            raise translate(exc, self.url, self.dsn) from exc
        except UnicodeEncodeError as exc:  # a lone surrogate has no UTF-8 form: nothing was sent
            bad = exc.object[exc.start:exc.end]
            raise StoreError(f"{self.url}: text with an unpaired surrogate ({bad!r}) cannot be stored;"
                             " nothing was written") from exc


def check_writable(read_only: bool, url: str) -> None:
    if read_only:
        raise ReadOnlyStore(f"{url} is open read-only: nothing was written; reads work, writes need"
                            " a store opened without read_only")


# -- settings ---------------------------------------------------------------------------------
def pool_size_from_env() -> int:
    """ENGRAM_PG_POOL (connections per store), or POOL_SIZE."""
    return int(_from_env("ENGRAM_PG_POOL", int, POOL_SIZE, "a whole number of connections", 1, 10_000))


def connect_timeout_from_env() -> float:
    """ENGRAM_PG_CONNECT_TIMEOUT (seconds a new connection may take), or CONNECT_TIMEOUT_S."""
    return _from_env("ENGRAM_PG_CONNECT_TIMEOUT", float, CONNECT_TIMEOUT_S, "a number of seconds", 0.1, 3600)


def _from_env(name: str, parse: Callable[[str], float], default: float, what: str, low: float, high: float) -> float:
    raw = os.environ.get(name, "")
    try:
        value = parse(raw) if raw else default
    except ValueError as exc:
        raise StoreError(f"{name} must be {what}, not {raw!r}") from exc
    if not low <= value <= high:
        raise StoreError(f"{name} must be between {low:g} and {high:g}, not {raw}")
    return value


# -- messages ---------------------------------------------------------------------------------
def safe_url(url: str) -> str:
    """The URL with any password replaced by `***`, fit for messages and logs."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, host = netloc.rsplit("@", 1)
            if ":" in userinfo:
                userinfo = userinfo.split(":", 1)[0] + ":***"
            netloc = f"{userinfo}@{host}"
        query = urlencode([(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)], safe="/")
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return "postgresql://(unparseable URL)"


def server_of(dsn: str) -> str:
    """host:port the URL points at (libpq's defaults where it names none)."""
    try:
        given = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.Error:
        return "the server"
    return f"{given.get('host') or os.environ.get('PGHOST') or 'localhost'}:{given.get('port') or os.environ.get('PGPORT') or 5432}"


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def cause_of(exc: BaseException) -> str:
    """libpq's reason without its preamble: 'Connection refused', 'timeout expired', ..."""
    line = first_line(exc)
    return line.rsplit("failed: ", 1)[-1].strip() or line


def connect_advice(url: str, dsn: str, exc: BaseException) -> str:
    text = str(exc)
    if "password authentication failed" in text or "no password supplied" in text:
        hint = "check the user name and password in the URL"
    elif "does not exist" in text and "database" in text:
        hint = "create the database first (`createdb NAME` or CREATE DATABASE), or fix its name in the URL"
    elif "resolve host" in text or "could not translate host" in text:
        hint = "check the host name in the URL"
    else:
        hint = "check that the server is running and that host, port and database in the URL are right"
    return f"cannot connect to {server_of(dsn)} ({url}): {cause_of(exc)}; {hint} (set by --db or ENGRAM_DB)"


def translate(exc: BaseException, url: str, dsn: str) -> StoreError:
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, psycopg.errors.DiskFull):
        return StoreFull(f"{url}: the server's disk is full; nothing was written ({first_line(exc)})")
    if isinstance(exc, (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)):
        return StoreBusy(f"{url}: {first_line(exc)}")
    if isinstance(exc, psycopg.OperationalError):
        return StoreUnavailable(connect_advice(url, dsn, exc))
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return StoreUnavailable(f"{url}: {first_line(exc)}: the user in the URL must own the database"
                                " (or its schema), or be granted CREATE and the table privileges on it")
    return StoreError(f"{url}: {first_line(exc)}")


# -- quiet pools ------------------------------------------------------------------------------
_OURS: weakref.WeakSet[Any] = weakref.WeakSet()  # connections opened by Engram's pools


class _QuietPools(logging.Filter):
    """Drops psycopg_pool's warnings about Engram's own pools and connections (reconnect attempts,
    broken connections): during an outage they repeat every second; the caller's error says it once."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        return not any((isinstance(a, str) and a.startswith(POOL_PREFIX)) or _is_ours(a) for a in args)


def _is_ours(value: Any) -> bool:
    try:
        return value in _OURS
    except TypeError:
        return False


logging.getLogger("psycopg.pool").addFilter(_QuietPools())
