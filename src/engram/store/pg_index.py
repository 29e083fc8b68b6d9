"""The pgvector index policy: when a model's vectors get an HNSW index, and searching through it.

Up to EXACT_MAX_ROWS vectors a subject is searched by an exact scan in the server; the write
that takes a subject past it builds the model's HNSW index (one per embedder identity, partial on
`model`), and recall then asks the index for the nearest and a fixed random sample for the
cosine statistics. (The in-process ANN for SQLite is engram.core.ann.)
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from engram.errors import StoreError, require

psycopg = require("psycopg", "postgres")
require("psycopg.sql", "postgres")

#: Subjects with more vectors than this are searched through the model's HNSW index (pgvector);
#: up to it, by an exact scan in the server. The write that takes a subject past it builds the index.
EXACT_MAX_ROWS = 10_000
#: Vectors sampled (by their stored random draw) for the cosine statistics past the crossover.
SAMPLE = 4096
#: HNSW search breadth: at least this, and at least the number of neighbours asked for.
EF_SEARCH = 200
HNSW_MAX_DIM = 2000  # pgvector indexes `vector` columns of at most 2,000 dimensions


def index_name(model: str) -> str:
    """The HNSW index of one embedder identity (a hash: identities hold any characters)."""
    return "vectors_hnsw_" + hashlib.sha256(model.encode("utf-8")).hexdigest()[:16]


class HnswIndexes:
    """The HNSW index of each model, as far as this store object has seen them."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[str, int]] = {}  # model -> its HNSW index (name, dimension)
        self.refused: set[str] = set()  # models whose index this user may not build

    def may_build(self, model: str) -> bool:
        """False once the model's index is known to exist, or to be refused to this user."""
        return model not in self.known and model not in self.refused

    def find(self, conn: Any, model: str) -> tuple[str, int] | None:
        """(name, dimension) of the model's HNSW index, if it exists (remembered once seen)."""
        known = self.known.get(model)
        if known is not None:
            return known
        row = conn.execute(
            "SELECT c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c"
            " WHERE c.relkind = 'i' AND c.relname = %s", (index_name(model),)).fetchone()
        if row is None or not (row[1] or "").isdigit():
            return None
        self.known[model] = (row[0], int(row[1]))
        return self.known[model]

    def build(self, conn: Any, model: str, lock: int) -> bool:
        """Build the model's index in the caller's transaction, under the advisory `lock`; False
        when its vectors differ in dimension or have more than HNSW_MAX_DIM."""
        if self.find(conn, model) is not None:
            return True
        row = conn.execute("SELECT min(vector_dims(vec)), max(vector_dims(vec)) FROM vectors WHERE model = %s",
                           (model,)).fetchone()
        if row[0] is None or row[0] != row[1] or row[0] > HNSW_MAX_DIM:
            return False
        name, dim, literal = index_name(model), int(row[0]), psycopg.sql.Literal(model).as_string(conn)
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock,))
        conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw ((vec::vector({dim}))"
                     f" vector_cosine_ops) WHERE model = {literal}")
        conn.execute(f"COMMENT ON INDEX {name} IS '{dim}'")  # the dimension, read back by find
        return True


def indexed_top(conn: Any, url: str, subject: str, model: str, query: np.ndarray, n: int,
                index: tuple[str, int]) -> tuple[tuple[float, float, float], list[str]]:
    """Top n through the model's HNSW index; statistics from the subject's fixed random sample."""
    _, dim = index
    if len(query) != dim:
        raise StoreError(f"{url}: a {len(query)}-dimension query against {model}'s {dim}-dimension"
                         " vectors: run `engram reindex`")
    # enable_sort off: the only plan left that yields rows by distance is the HNSW index scan
    # (without it the planner may sort the subject's rows, an exact scan of a large subject).
    conn.execute("SELECT set_config('hnsw.ef_search', %s, true),"
                 " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                 " set_config('enable_sort', 'off', true)", (str(max(EF_SEARCH, n)),))
    literal = psycopg.sql.Literal(model).as_string(conn).replace("%", "%%")  # a % would read as a placeholder
    typed = f"(vec::vector({dim}))"
    rows = conn.execute(
        f"SELECT item_id, {typed} <=> %s::vector({dim}) AS d FROM vectors"
        f" WHERE model = {literal} AND subject = %s ORDER BY {typed} <=> %s::vector({dim}) LIMIT %s",
        (query, subject, query, int(n)),
    ).fetchall()
    rows.sort(key=lambda r: r[1])  # relaxed order: the index may return near-ties slightly out of order
    conn.execute("SELECT set_config('enable_sort', 'on', true)")
    stats = conn.execute(
        "SELECT avg(cos), stddev_pop(cos), min(cos) FROM (SELECT 1 - (vec <=> %s) AS cos FROM vectors"
        " WHERE subject = %s AND model = %s ORDER BY draw LIMIT %s) s",
        (query, subject, model, SAMPLE),
    ).fetchone()
    return (float(stats[0]), float(stats[1] or 0.0), float(stats[2])), [r[0] for r in rows]
