"""The exact nearest-neighbour search of one subject in the server, in one statement.

Up to the crossover (engram.store.pg_index.EXACT_MAX_ROWS), or with a restrictive filter, a
recall's vector half is one scan of the subject's vectors. `exact_answer` asks for all of it in
one round trip: the subject-wide cosine statistics, the n nearest (among items passing the
filter, when one is given), and the cosine and write-order neighbours (lag/lead over `item_seq`)
of every nearest or asked-for id, plus the cosines of those neighbours. Rows come back only for
the ids asked about and their neighbours, never the vectors.

It replaces three statements (the subject's version read for its id list, the scan, the
cosines by key): the neighbours come from the same snapshot as the scan, so the answer needs no
cached write order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engram.store.base import Filter, NearestAnswer
from engram.store.sql import POSTGRES, where_clause

#: Row kinds of the answer: the statistics row; a nearest or asked-for id with its cosine, row
#: key, whether it is among the nearest, and its neighbours; a neighbour's cosine.
STATS, ASKED, SIDE = 0, 1, 2


def exact_sql(filtered: str | None) -> str:
    """The statement; `filtered` is the filter's WHERE clause over `items i` (None: no filter).

    Parameters, in order: query vector, subject, model, the filter's values (when filtered),
    n, the asked-for ids (text[])."""
    joined = "JOIN items i ON i.seq = s.item_seq" if filtered is not None else ""
    return (
        "WITH s AS MATERIALIZED (SELECT item_seq, item_id, 1 - (vec <=> %s) AS cos,"
        " lag(item_id) OVER w AS prev, lead(item_id) OVER w AS next FROM vectors"
        " WHERE subject = %s AND model = %s WINDOW w AS (ORDER BY item_seq)),"
        " top AS (SELECT s.item_id FROM s"
        f" {joined} WHERE {filtered or 'true'} ORDER BY s.cos DESC, s.item_seq LIMIT %s),"
        " asked AS (SELECT s.item_id, s.cos, s.prev, s.next, s.item_seq,"
        " CASE WHEN s.item_id IN (SELECT item_id FROM top) THEN 1.0 END AS near FROM s WHERE s.item_id IN"
        " (SELECT item_id FROM top UNION SELECT unnest(%s::text[])))"
        f" SELECT {STATS}, NULL, count(*)::float8, avg(cos), stddev_pop(cos), min(cos), NULL, NULL FROM s"
        f" UNION ALL SELECT {ASKED}, item_id, cos, item_seq::float8, near, NULL, prev, next FROM asked"
        f" UNION ALL SELECT {SIDE}, s.item_id, s.cos, NULL, NULL, NULL, NULL, NULL FROM s WHERE s.item_id IN"
        " (SELECT prev FROM asked UNION SELECT next FROM asked) AND s.item_id NOT IN (SELECT item_id FROM asked)"
    )


def exact_answer(conn: Any, subject: str, model: str, query: np.ndarray, n: int, also: Sequence[str],
                 where: Filter | None) -> NearestAnswer:
    """The subject's exact answer (see the module docstring) from one statement on `conn`."""
    clause, params = where_clause(subject, where, POSTGRES) if where is not None else (None, [])
    rows = conn.execute(exact_sql(clause), (query, subject, model, *params, int(n), list(also))).fetchall()
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
    return NearestAnswer(count, mean, std, minimum, nearest=tuple(i for *_, i in sorted(ranked)), cosines=cosines, around=around)
