"""The exact nearest-neighbour search of one subject in the server, in one statement.

Up to the crossover (engram.store.pg_index.EXACT_MAX_ROWS), or with a restrictive filter, a
recall's vector half is one scan of the subject's vectors. `exact_answer` asks for all of it in
one round trip: the subject-wide cosine statistics, the n nearest (among items passing the
filter, when one is given), and the cosine and write-order neighbours (lag/lead over `item_seq`)
of every nearest or asked-for id, plus the cosines of those neighbours. Rows come back only for
the ids asked about and their neighbours, never the vectors. A subject with at most
ALL_ROWS_PER_NEAREST vectors per nearest asked for (without a filter) sends its cosines in write
order instead (one short row each, fewer than the pool and its neighbours would be): the same
answer is read from them in Python, and the server runs a plain scan, no window or joins.

It replaces three statements (the subject's version read for its id list, the scan, the
cosines by key): the neighbours come from the same snapshot as the scan, so the answer needs no
cached write order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from engram.store.base import Filter, NearestAnswer
from engram.store.sql import POSTGRES, where_clause

#: The cosine statistics, summed in write order: the same figures from either statement,
#: whatever order the rows lie in on disk.
STATISTICS = "avg(cos ORDER BY item_seq), stddev_pop(cos ORDER BY item_seq), min(cos)"
#: Row kinds of the answer: the statistics row; a nearest or asked-for id with its cosine, row
#: key, whether it is among the nearest, and its neighbours; a neighbour's cosine.
STATS, ASKED, SIDE = 0, 1, 2


def exact_sql(filtered: str | None) -> str:
    """The statement; `filtered` is the filter's WHERE clause over `items i` (None: no filter).

    Parameters, in order: query vector, subject, model, the filter's values (when filtered),
    n, the asked-for ids (text[])."""
    joined = "JOIN items i ON i.seq = s.item_seq" if filtered is not None else ""
    return (
        # The cosines first (OFFSET 0 keeps the subquery apart), so the window's sort carries
        # short rows, not the vectors.
        "WITH s AS MATERIALIZED (SELECT item_seq, item_id, cos, lag(item_id) OVER w AS prev,"
        " lead(item_id) OVER w AS next FROM (SELECT item_seq, item_id, 1 - (vec <=> %s) AS cos FROM vectors"
        " WHERE subject = %s AND model = %s OFFSET 0) v WINDOW w AS (ORDER BY item_seq)),"
        " top AS (SELECT s.item_id FROM s"
        f" {joined} WHERE {filtered or 'true'} ORDER BY s.cos DESC, s.item_seq LIMIT %s),"
        " asked AS (SELECT s.item_id, s.cos, s.prev, s.next, s.item_seq,"
        " CASE WHEN s.item_id IN (SELECT item_id FROM top) THEN 1.0 END AS near FROM s WHERE s.item_id IN"
        " (SELECT item_id FROM top UNION SELECT unnest(%s::text[])))"
        f" SELECT {STATS}, NULL, count(*)::float8, {STATISTICS}, NULL, NULL FROM s"
        f" UNION ALL SELECT {ASKED}, item_id, cos, item_seq::float8, near, NULL, prev, next FROM asked"
        f" UNION ALL SELECT {SIDE}, s.item_id, s.cos, NULL, NULL, NULL, NULL, NULL FROM s WHERE s.item_id IN"
        " (SELECT prev FROM asked UNION SELECT next FROM asked) AND s.item_id NOT IN (SELECT item_id FROM asked)"
    )


#: Every cosine of the subject in write order, after one row of statistics: for a subject so
#: small that its nearest and their neighbours are most of it (`ALL_ROWS_PER_NEAREST`).
ALL_ROWS = (f"WITH s AS MATERIALIZED (SELECT item_seq, item_id, 1 - (vec <=> %s) AS cos FROM vectors"
            " WHERE subject = %s AND model = %s)"
            f" SELECT NULL, count(*)::float8, {STATISTICS} FROM s"
            " UNION ALL (SELECT item_id, item_seq, cos, NULL, NULL FROM s ORDER BY item_seq)")
#: Up to this many vectors per nearest asked for (2: n = 200 of a 400-vector subject), the answer
#: is built from all the subject's cosines (`ALL_ROWS`: one short row each, no window or joins in
#: the server); past it, the server picks the rows (`exact_sql`).
ALL_ROWS_PER_NEAREST = 2


def exact_answer(conn: Any, subject: str, model: str, query: np.ndarray, n: int, also: Sequence[str],
                 where: Filter | None, size: int | None = None) -> NearestAnswer:
    """The subject's exact answer (see the module docstring) from one statement on `conn`;
    `size` is the subject's vector count as last seen (None: unknown), which picks the statement."""
    if where is None and size is not None and size <= ALL_ROWS_PER_NEAREST * n:
        return _from_all_rows(conn.execute(ALL_ROWS, (query, subject, model)).fetchall(), n, also)
    clause, params = where_clause(subject, where, POSTGRES) if where is not None else (None, [])
    rows = conn.execute(exact_sql(clause), (query, subject, model, *params, int(n), text_array(also))).fetchall()
    count, mean, std, minimum = 0, 0.0, 0.0, 0.0
    cosines: dict[str, float] = {}
    around: dict[str, tuple[str | None, str | None]] = {}
    ranked: list[tuple[float, float, str]] = []
    for kind, item_id, cos, first, second, third, prev, following in rows:
        if kind == STATS:
            count = int(cos)
            if count:
                mean, std, minimum = float(first), float(second or 0.0), float(third)
            continue
        cosines[item_id] = float(cos)
        if kind == ASKED:
            around[item_id] = (prev, following)
            if second is not None:  # among the nearest: ranked as the scan ordered them
                ranked.append((-float(cos), float(first), item_id))
    if not count:
        return NearestAnswer(0, 0.0, 0.0, 0.0, (), {}, {})
    return NearestAnswer(count, mean, std, minimum, nearest=tuple(i for *_, i in sorted(ranked)), cosines=cosines,
                         around=around)


def _from_all_rows(rows: Sequence[tuple[Any, ...]], n: int, also: Sequence[str]) -> NearestAnswer:
    """The answer `exact_sql` gives, from the statistics row and every (id, key, cosine) in write
    order: the same nearest (cosine descending, then key, as the server orders them; NaN first,
    as PostgreSQL sorts it), cosines and neighbours."""
    stats, ordered = rows[0], rows[1:]
    count = int(stats[1])
    if not count:
        return NearestAnswer(0, 0.0, 0.0, 0.0, (), {}, {})
    ids = [r[0] for r in ordered]
    cos = [float(r[2]) for r in ordered]
    row_of = {item_id: row for row, item_id in enumerate(ids)}
    best = sorted(range(len(ids)), key=lambda row: (1, -cos[row], ordered[row][1]) if not math.isnan(cos[row])
                  else (0, 0.0, ordered[row][1]))[:n]
    nearest = tuple(ids[row] for row in best)
    last = len(ids) - 1
    around: dict[str, tuple[str | None, str | None]] = {}
    cosines: dict[str, float] = {}
    for row in dict.fromkeys([*best, *(row_of[i] for i in also if i in row_of)]):
        around[ids[row]] = (ids[row - 1] if row > 0 else None), (ids[row + 1] if row < last else None)
        for side in (row - 1, row, row + 1):
            if 0 <= side <= last:
                cosines[ids[side]] = cos[side]
    return NearestAnswer(count, float(stats[2]), float(stats[3] or 0.0), float(stats[4]), nearest=nearest,
                         cosines=cosines, around=around)


def text_array(values: Sequence[str]) -> str:
    """PostgreSQL's text form of a text array, every element quoted, for a `%s::text[]` parameter
    (psycopg sends a Python list several times slower; engram.store.keyword.int_array likewise)."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"
