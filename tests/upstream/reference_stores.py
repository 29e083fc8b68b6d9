"""EngramStore and AsyncEngramStore with the constructors of LangGraph's SQLite and PostgreSQL
stores, for their suites (langgraph_sqlite/, langgraph_postgres/): `from_conn_string(conn, index=,
ttl=, ...)` opens an Engram Memory at the URL the fixture maps the connection string to (the same
database where the backends agree) and closes it on exit; `setup()` has nothing to do, as an
Engram store makes its schema when opened."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, ClassVar

from engram.core.memory import Memory
from engram.integrations.langgraph import AsyncEngramStore, EngramStore


def _index(index: Any) -> Any:
    """The reference's index config as EngramStore reads it: SqliteIndexConfig names the embedded
    fields `text_fields`, where LangGraph's IndexConfig (and EngramStore) says `fields`."""
    if index is None or "text_fields" not in index:
        return index
    return {**index, "fields": index.get("fields") or index["text_fields"]}


def _ttl(ttl: Any, refresh_on_read: bool) -> Any:
    """The reference's TTL config as EngramStore reads it: `refresh_on_read` made explicit, as the
    reference defaults it (SqliteStore refreshes on read only when its TTLConfig says so, where
    LangGraph's TTLConfig, PostgresStore and EngramStore default to refreshing)."""
    if ttl is None or "refresh_on_read" in ttl:
        return ttl
    return {**ttl, "refresh_on_read": refresh_on_read}


def _is_postgres(conn: str) -> bool:
    return conn.startswith(("postgres://", "postgresql://"))


def reference_stores(engram_url: Callable[[str], str], *, refresh_on_read: bool = True,
                     ) -> tuple[type[EngramStore], type[AsyncEngramStore]]:
    """A sync and an async EngramStore class taking the references' constructor; `refresh_on_read`:
    the reference's default when its TTLConfig leaves it unset."""

    class Opened:
        """The references' constructor: the Engram store the connection string names."""

        MIGRATIONS: ClassVar[list[str]] = []  # the references' schema steps: an Engram store has its own

        def __init__(self, conn: Any = ":memory:", *, index: Any = None, ttl: Any = None, **_options: Any) -> None:
            self.conn_string = str(conn)
            super().__init__(Memory(engram_url(self.conn_string), embedder="none"),  # type: ignore[call-arg]
                             index=_index(index), ttl=_ttl(ttl, refresh_on_read))

    class ReferenceStore(Opened, EngramStore):
        """EngramStore over the store a connection string names (SqliteStore, PostgresStore)."""

        @classmethod
        @contextmanager
        def from_conn_string(cls, conn_string: str, *, index: Any = None, ttl: Any = None,
                             **options: Any) -> Iterator[ReferenceStore]:
            """The store, closed on exit (connection options such as pipeline= and pool_config= are
            the reference's own: Engram's PostgreSQL store keeps its own pool)."""
            store = cls(conn_string, index=index, ttl=ttl, **options)
            try:
                yield store
            finally:
                store.stop_ttl_sweeper()
                store.memory.close()

        def setup(self) -> None:
            """Nothing to set up: the schema was made when the store was opened."""

        @contextmanager
        def _cursor(self) -> Iterator[Any]:
            """A cursor on the PostgreSQL database the connection string names (the suite's
            fixtures run their own setup SQL, such as dropping their migrations table, there)."""
            import psycopg

            assert _is_postgres(self.conn_string), "only the PostgreSQL suite opens a cursor"
            with psycopg.connect(self.conn_string, autocommit=True) as conn, conn.cursor() as cur:
                yield cur

    class AsyncReferenceStore(Opened, AsyncEngramStore):
        """AsyncEngramStore over the store a connection string names (AsyncSqliteStore, AsyncPostgresStore)."""

        @classmethod
        @asynccontextmanager
        async def from_conn_string(cls, conn_string: str, *, index: Any = None, ttl: Any = None,
                                   **options: Any) -> AsyncIterator[AsyncReferenceStore]:
            store = cls(conn_string, index=index, ttl=ttl, **options)
            try:
                yield store
            finally:
                await store.stop_ttl_sweeper()
                store.memory.close()

        async def setup(self) -> None:
            """Nothing to set up: the schema was made when the store was opened."""

        @asynccontextmanager
        async def _cursor(self) -> AsyncIterator[Any]:
            import psycopg

            assert _is_postgres(self.conn_string), "only the PostgreSQL suite opens a cursor"
            async with await psycopg.AsyncConnection.connect(self.conn_string, autocommit=True) as conn:
                async with conn.cursor() as cur:
                    yield cur

    return ReferenceStore, AsyncReferenceStore
