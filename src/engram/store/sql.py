"""SQL shared by the relational backends: columns, row mapping and the filter as a WHERE clause.

Pure functions: they build SQL text and parameters; backends run them.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from engram import validate
from engram.errors import StoreError
from engram.store.base import Filter
from engram.store.conditions import SEARCHED_COLUMNS, folded_copy
from engram.types import CONVERSATION, EMBEDDED, VERBATIM_KINDS, Item, dedupe_key, dumps

COLUMNS = (
    "id", "subject", "kind", "text", "source", "agent", "key", "category", "session",
    "created_at", "event_at", "valid_from", "valid_to", "superseded_by", "confidence",
    "importance", "access_count", "last_accessed", "content_hash", "metadata",
)  # fmt: skip
SELECT_ITEMS = "SELECT " + ", ".join(f"i.{c}" for c in COLUMNS) + " FROM items i"
#: A connection's `execute(sql, params)` (both drivers return a cursor from it).
Execute = Callable[..., Any]
#: `put`'s items cut into runs: (the ids each run's first item supersedes, the run).
Runs = list[tuple[list[str], list[Item]]]
UPDATABLE = frozenset(
    {"valid_to", "superseded_by", "confidence", "importance", "access_count", "last_accessed",
     "metadata", "category", "event_at", "valid_from"}
)  # fmt: skip


@dataclass(frozen=True)
class Dialect:
    """What differs between SQLite and PostgreSQL in the statements (the filter's conditions
    in engram.store.conditions ask it for the placeholder, a `contains` test and a metadata test)."""

    ph: str
    row_order: str
    haystack: str  # the SQL of an item's folded searched fields (conditions.folded_copy)
    metadata_equals: Callable[[str, Any], tuple[str, list[Any]]]
    by_hash: str = ""  # how to make the planner use the content-hash index (SQLite has no statistics)
    succeeded: str = "1"  # 1 for an episode whose metadata says success (missing counts as success), else 0
    position: str = "instr"  # the SQL function (haystack, needle) -> 1-based position or 0
    vector_item: str = "item_rowid"  # the vectors table's column naming its item (= row_order's column)
    vector_columns: str = "item_rowid, subject, model, vec"  # the columns of vectors and staged_vectors
    index_text: str = ""  # true when a verbatim item's metadata holds a non-blank index text

    def contains(self, ph: str) -> str:
        return f"{self.position}({self.haystack}, {ph}) > 0"


def _sqlite_metadata_equals(key: str, value: Any) -> tuple[str, list[Any]]:
    # json_type tells true/false from 1/0, which json_extract cannot (it returns both as 1/0).
    path = "$." + json.dumps(key)
    if value is None:
        return "coalesce(json_type(i.metadata, ?), 'null') = 'null'", [path]
    if isinstance(value, bool):
        return "json_type(i.metadata, ?) = ?", [path, "true" if value else "false"]
    types = "('integer', 'real')" if isinstance(value, (int, float)) else "('text')"
    return f"(json_type(i.metadata, ?) IN {types} AND json_extract(i.metadata, ?) = ?)", [path, path, value]


def _postgres_metadata_equals(key: str, value: Any) -> tuple[str, list[Any]]:
    # jsonb equality is the rule itself (numbers by value, true is not 1); a missing key equals null.
    return "coalesce(i.metadata -> %s::text, 'null'::jsonb) = %s::jsonb", [key, dumps(value)]


SQLITE = Dialect(
    ph="?",
    row_order="i.rowid",
    haystack="engram_folded(" + ", ".join(f"i.{c}" for c in SEARCHED_COLUMNS) + ")",
    metadata_equals=_sqlite_metadata_equals,
    by_hash=" INDEXED BY items_hash",
    succeeded="CASE WHEN json_extract(i.metadata, '$.success') = 0 THEN 0 ELSE 1 END",
    index_text=f"(json_type(i.metadata, '$.{EMBEDDED}') = 'text'"
               f" AND trim(json_extract(i.metadata, '$.{EMBEDDED}')) <> '')",
)

POSTGRES = Dialect(
    ph="%s",
    row_order="i.seq",
    haystack="i.folded",  # the folded copy kept in its own column
    metadata_equals=_postgres_metadata_equals,
    succeeded="CASE WHEN i.metadata -> 'success' = 'false'::jsonb THEN 0 ELSE 1 END",
    position="strpos",
    vector_item="item_seq",
    vector_columns="item_seq, item_id, subject, model, vec",
    index_text=f"(jsonb_typeof(i.metadata -> '{EMBEDDED}') = 'string' AND btrim(i.metadata ->> '{EMBEDDED}') <> '')",
)


def sqlite_folded(*fields: Any) -> str:
    """SQL `engram_folded(text, metadata, source, key, category, session)` for SQLite: the same
    folded copy Python reads (PostgreSQL keeps it in a column)."""
    return folded_copy(dict(zip(SEARCHED_COLUMNS, fields)))


def where_clause(subject: str | None, f: Filter, d: Dialect) -> tuple[str, list[Any]]:
    """The WHERE clause (without the keyword) and its parameters for one subject and filter."""
    parts: list[str] = []
    params: list[Any] = []
    if subject is not None:
        parts.append(f"i.subject = {d.ph}")
        params.append(subject)
    for condition in f.conditions:
        sql, values = condition.sql(d)
        parts.append(sql)
        params.extend(values)
    return (" AND ".join(parts) or "1 = 1"), params


def find_query(subject: str, f: Filter, d: Dialect, limit: int | None,
               newest_first: bool) -> tuple[str, list[Any]]:
    """SELECT of one subject's items passing the filter, by event time then insertion order."""
    clause, params = where_clause(subject, f, d)
    order = "DESC" if newest_first else "ASC"
    # A lookup by content hash is selective, but without statistics SQLite would rather walk a
    # (subject, ...) index: name the hash index.
    source = SELECT_ITEMS + (d.by_hash if f.content_hash is not None else "")
    sql = f"{source} WHERE {clause} ORDER BY i.event_at {order}, {d.row_order} {order}"
    if limit is not None:
        sql += f" LIMIT {d.ph}"
        params.append(int(limit))
    return sql, params


def _in(column: str, values: Sequence[Any], d: Dialect) -> str:
    return f"{column} IN ({', '.join([d.ph] * len(values))})"


def supersede_runs(items: Sequence[Item], supersede: Mapping[str, str] | None) -> Runs:
    """`put`'s order: items cut before each one that supersedes something, as (its old ids, the
    run of items it starts). Closing just before inserting lets an item close an earlier one of
    the same call, and lets it take the text or key of the item it closes."""
    olds: dict[str, list[str]] = {}
    for old_id, new_id in (supersede or {}).items():
        olds.setdefault(new_id, []).append(old_id)
    missing = set(olds) - {item.id for item in items}
    if missing:
        raise StoreError(f"supersede names new ids that are not among the items put: {sorted(missing)}")
    runs: Runs = []
    for item in items:
        if item.id in olds or not runs:
            runs.append((olds.get(item.id, []), []))
        runs[-1][1].append(item)
    return runs


def close_superseded(execute: Execute, old_ids: Sequence[str], new: Item, d: Dialect) -> None:
    """Inside `put`'s transaction: the current ones of `old_ids` end where `new` begins, replaced by it."""
    for old_id in old_ids:
        execute(f"UPDATE items SET valid_to = {d.ph}, superseded_by = {d.ph} WHERE id = {d.ph} AND valid_to IS NULL",
                (new.valid_from, new.id, old_id))


def item_row(item: Item) -> tuple[Any, ...]:
    """An Item as a row in COLUMNS order plus its dedupe key."""
    values = [getattr(item, c) for c in COLUMNS]
    values[COLUMNS.index("metadata")] = dumps(dict(item.metadata))
    return (*values, dedupe_key(item.kind, item.content_hash))


_FIELDS = tuple(f.name for f in dataclasses.fields(Item))
_AT = tuple(COLUMNS.index(name) for name in _FIELDS)  # where each Item field sits in a row
_META = _FIELDS.index("metadata")


def row_item(row: Sequence[Any]) -> Item:
    """A row in COLUMNS order as an Item.

    Built as the dataclass's own __init__ would (every field, in field order) but without its
    per-field frozen-attribute calls: recall builds ~100 Items per call, and this is a third of
    the time per row. The Item is equal, field for field, to `Item(**fields)`."""
    values = [row[at] for at in _AT]
    meta = values[_META]
    values[_META] = {} if meta == "{}" else json.loads(meta) if isinstance(meta, str) else dict(meta or {})
    item: Item = object.__new__(Item)
    item.__dict__.update(zip(_FIELDS, values))
    return item


HASH_RULE_SETTING = "content_hash.rule"


def rehash(execute: Execute, d: Dialect) -> int:
    """Bring every row's content hash (and dedupe key) to the current rule, inside the caller's
    transaction; once per store and rule. Only rows whose hash the previous rule made from their
    text change. Two current items that now hash alike both stay: the later one loses its dedupe
    key (a true fact is never dropped by a new rule). Returns how many rows changed."""
    found = execute(f"SELECT value FROM settings WHERE key = {d.ph}", (HASH_RULE_SETTING,)).fetchone()
    if found is not None and found[0] == validate.HASH_RULE:
        return 0
    rows = execute(f"SELECT {d.row_order}, i.subject, i.kind, i.text, i.content_hash, i.valid_to FROM items i"
                   f" ORDER BY {d.row_order}").fetchall()
    taken = {(s, k, h) for _, s, k, _, h, v in rows if v is None and dedupe_key(k, h) is not None}
    changes = []
    for key, subject, kind, text, old, valid_to in rows:
        new = validate.content_hash(text)
        if new == old or old != validate.legacy_content_hash(text):
            continue
        dedupe = dedupe_key(kind, new)
        if valid_to is None and dedupe is not None:
            if (subject, kind, new) in taken:
                dedupe = None  # another current item already holds this text: keep both
            taken.add((subject, kind, new))
        changes.append((new, dedupe, key))
    column = d.row_order.removeprefix("i.")
    for _, _, key in changes:  # cleared first: a new key may be another row's old one
        execute(f"UPDATE items SET dedupe = NULL WHERE {column} = {d.ph}", (key,))
    for new, dedupe, key in changes:
        execute(f"UPDATE items SET content_hash = {d.ph}, dedupe = {d.ph} WHERE {column} = {d.ph}", (new, dedupe, key))
    write_settings(execute, {HASH_RULE_SETTING: validate.HASH_RULE}, d)
    return len(changes)


def write_settings(execute: Execute, settings: Mapping[str, str | None], d: Dialect) -> None:
    """Write settings inside the caller's transaction (a None value removes the setting)."""
    for key, value in settings.items():
        if value is None:
            execute(f"DELETE FROM settings WHERE key = {d.ph}", (key,))
        else:
            execute(f"INSERT INTO settings (key, value) VALUES ({d.ph}, {d.ph})"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))


def promote_staged(execute: Execute, model: str, settings: Mapping[str, str | None], d: Dialect) -> int:
    """VectorAdmin.promote_staged inside the caller's transaction; returns how many vectors moved."""
    key, columns = d.vector_item, d.vector_columns
    execute(f"DELETE FROM vectors WHERE {key} IN (SELECT {key} FROM staged_vectors WHERE model = {d.ph})", (model,))
    moved = execute(f"INSERT INTO vectors ({columns}) SELECT {columns} FROM staged_vectors WHERE model = {d.ph}",
                    (model,)).rowcount
    execute(f"DELETE FROM vectors WHERE model <> {d.ph}", (model,))
    execute("DELETE FROM staged_vectors")
    write_settings(execute, settings, d)
    return int(moved)


def coverage_query(model: str, subjects: Sequence[str] | None, d: Dialect) -> tuple[str, list[Any]]:
    """SELECT (current items that should have a vector, those with one of `model`): see
    VectorAdmin.vector_coverage. Which items have a vector is engram.types.embedded_text's rule."""
    verbatim = sorted(VERBATIM_KINDS - {CONVERSATION})
    needs = (f"i.valid_to IS NULL AND i.kind <> '{CONVERSATION}'"
             f" AND (i.kind NOT IN ({', '.join(repr(k) for k in verbatim)}) OR {d.index_text})")
    params: list[Any] = [model]
    if subjects is not None:
        needs += " AND " + (_in("i.subject", subjects, d) if subjects else "1 = 0")
        params.extend(subjects)
    row = d.row_order
    return (f"SELECT count(*), count(v.model) FROM items i LEFT JOIN vectors v"
            f" ON v.{d.vector_item} = {row} AND v.model = {d.ph} WHERE {needs}"), params


# -- counts (Memory.stats): aggregates in the database, no row is read into Python ------------
Run = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]


def counts(run: Run, subjects: Sequence[str] | None, d: Dialect) -> dict[str, Any]:
    """Aggregate figures of the given subjects (None: every subject) with COUNT/SUM queries.

    "items" are current items (`valid_to` IS NULL); "history" the superseded or expired versions;
    saved conversations are in neither but in "conversations" (what `list` shows is what is counted).
    """
    if subjects is not None and not subjects:
        return _counts_of(run, "1 = 0", [], d)
    if subjects is None:
        return _counts_of(run, "1 = 1", [], d)
    return _counts_of(run, _in("i.subject", subjects, d), list(subjects), d)


def _counts_of(run: Run, scope: str, params: list[Any], d: Dialect) -> dict[str, Any]:
    current = "i.valid_to IS NULL"
    # Memories are what `list` and `Memory.items` show: every kind but saved conversations, which
    # are counted on their own ("conversations"). Every surface counts by this one rule.
    memory = f"i.kind <> '{CONVERSATION}'"
    live = f"{current} AND {memory}"  # what recall and the prompt can see
    per_subject = {
        str(s): {"items": int(n or 0), "history": int(h or 0)}
        for s, n, h in run(
            f"SELECT i.subject, sum(CASE WHEN {live} THEN 1 ELSE 0 END),"
            f" sum(CASE WHEN {current} OR NOT ({memory}) THEN 0 ELSE 1 END) FROM items i WHERE {scope}"
            " GROUP BY i.subject ORDER BY i.subject", params)
    }
    by_kind = {str(k): int(n) for k, n in run(
        f"SELECT i.kind, count(*) FROM items i WHERE {scope} AND {live} GROUP BY i.kind ORDER BY i.kind",
        params)}
    conversations = run(f"SELECT count(*) FROM items i WHERE {scope} AND {current} AND NOT ({memory})",
                        params)[0][0]
    live_row = run(
        f"SELECT count(*), sum(CASE WHEN i.access_count = 0 THEN 1 ELSE 0 END), sum(i.importance),"
        f" min(i.event_at), max(i.event_at) FROM items i WHERE {scope} AND {live}", params)[0]
    sessions = run(
        f"SELECT count(DISTINCT i.session) FROM items i WHERE {scope} AND i.session IS NOT NULL", params)[0][0]
    summarised = run(
        f"SELECT count(DISTINCT i.session) FROM items i WHERE {scope} AND i.session IS NOT NULL"
        f" AND i.kind = 'summary' AND {current}", params)[0][0]
    episodes = [(str(c), int(n), int(ok or 0)) for c, n, ok in run(
        f"SELECT coalesce(i.category, '(none)'), count(*), sum({d.succeeded}) FROM items i"
        f" WHERE {scope} AND {current} AND i.kind = 'episode' GROUP BY coalesce(i.category, '(none)')"
        " ORDER BY 1", params)]
    most = run(
        f"SELECT i.id, i.text, i.access_count FROM items i WHERE {scope} AND {live} AND i.access_count > 0"
        f" ORDER BY i.access_count DESC, {d.row_order} LIMIT 3", params)
    n_live = int(live_row[0] or 0)
    return {
        "per_subject": per_subject,
        "by_kind": by_kind,
        "history": sum(v["history"] for v in per_subject.values()),
        "conversations": int(conversations or 0),
        "live": n_live,
        "never_recalled": int(live_row[1] or 0),
        "importance_sum": float(live_row[2] or 0.0),
        "oldest": float(live_row[3]) if live_row[3] is not None else None,
        "newest": float(live_row[4]) if live_row[4] is not None else None,
        "sessions": int(sessions or 0),
        "sessions_summarised": int(summarised or 0),
        "episodes": episodes,
        "most_recalled": [(str(i), str(t), int(n)) for i, t, n in most],
    }
