"""Keyword search: BM25 over per-subject posting lists kept next to the items, one code for both backends.

- Tokens: SQLite FTS5's own `porter unicode61 remove_diacritics 2` tokenizer (stop words kept),
  run in a private in-memory database (`Tokeniser`); ASCII text is split in Python (unicode61's
  rule there is exactly "runs of letters and digits, lowercased") and each word's stem is asked of
  FTS5 once and remembered. Both backends index and query with it, so they agree with each other
  and with an FTS5 table token for token.
- Statistics per subject, every version of every item counted (history included, as FTS5 did):
  `keyword_subjects` holds the subject's item count and total token count; a term's document
  frequency is the length of its posting list. A tenant's scores never move with another's data.
- Postings: a write adds one row per (item, term) to `keyword_pending`; once a subject has
  PENDING_MAX of them they move into `keyword_postings`, a few segments per (subject, term), each
  a packed array of (item key, term frequency, item length) sorted by key. FANOUT segments of one
  level merge into one of the next (an LSM tree), so reading a term costs a handful of rows at
  any subject size and each posting is rewritten O(log n) times. `remove` deletes a removed
  item's pending rows and rewrites the segments holding it, so none of its terms survives.
- Scoring: FTS5's BM25 (k1 1.2, b 0.75, IDF log((N - n + 0.5) / (n + 0.5)), 1e-6 when not
  positive), summed over the query's terms, in NumPy over the posting arrays of those terms.
  The scan is vectorised (tens of ns a posting against ~4 µs a matching row in FTS5's bm25()),
  so every matching posting is scored exactly and the top-k needs no approximation.
  One query word that the tokenizer splits ("foo_bar") counts as its separate tokens, where
  FTS5 would have matched the phrase.

Backends run the statements below with their own placeholder (`Statements`) inside their own
transactions; nothing here opens a connection to the store.
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engram.errors import StoreUnavailable
from engram.store import spelling

TOKENIZE = "porter unicode61 remove_diacritics 2"
#: Bumped whenever what is indexed changes: a store indexed under another version is rebuilt on open.
VERSION = "1"
VERSION_SETTING = "keyword.index"
K1 = 1.2
B = 0.75
IDF_FLOOR = 1e-6  # FTS5's IDF for a term in more than half the items
FANOUT = 8  # segments of one level that merge into one of the next
POSTING = np.dtype([("key", "<i8"), ("tf", "<i4"), ("dl", "<i4")])
PENDING_MAX = 4096  # postings a subject collects in keyword_pending before they become segments
REBUILD_BATCH = 20_000
STEMS_MAX = 500_000  # ASCII words whose stem is remembered (about 60 MB at most)
_QUERY_CACHE = 8192  # query words whose tokens are remembered
ASCII_WORD = re.compile(r"[a-z0-9]+")
WORD = re.compile(r"\w+")  # how queries are cut into words (engram.core.ranking.keyword_terms)


class Executor(Protocol):
    """What both backends' connections offer: `execute(sql, params)` returning a cursor."""

    def execute(self, sql: Any, params: Any = ..., /) -> Any: ...

    def cursor(self) -> Any: ...


@dataclass(frozen=True)
class Document:
    """One text as indexed: its token count and each term's frequency."""

    length: int
    terms: Mapping[str, int]


class Tokeniser:
    """FTS5's tokenizer as a Python function: texts in, terms and counts out.

    One private in-memory SQLite database per thread (and per process after a fork) holds a
    contentless FTS5 table; a batch is inserted, read back through an `fts5vocab` table, cleared."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._words: dict[str, tuple[str, ...]] = {}
        self._stems: dict[str, str] = {}

    def _db(self) -> sqlite3.Connection:
        held = getattr(self._local, "held", None)
        if held is not None and held[0] == os.getpid():
            db: sqlite3.Connection = held[1]
            return db
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, content='', tokenize='{TOKENIZE}')")
            db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(
                f"this Python's SQLite {sqlite3.sqlite_version} has no FTS5 ({exc}), which Engram's keyword"
                " index uses to split text into words: use a Python built with FTS5 (python.org and"
                " most distributions' builds have it)") from exc
        self._local.held = (os.getpid(), db)
        return db

    def documents(self, texts: Sequence[str]) -> list[Document]:
        """Each text's token count and term frequencies, in order."""
        out: list[Document | None] = [None] * len(texts)
        split = {i: ASCII_WORD.findall(t.lower()) for i, t in enumerate(texts) if t.isascii()}
        self._learn(split.values())
        stems = self._stems
        for i, words in split.items():
            counts: dict[str, int] = {}
            for word in words:
                stem = stems.get(word) or self._fts5([word])[0].terms  # cleared meanwhile: ask again
                if isinstance(stem, str):
                    counts[stem] = counts.get(stem, 0) + 1
                else:
                    for term, n in stem.items():
                        counts[term] = counts.get(term, 0) + n
            out[i] = Document(len(words), counts)
        rest = [i for i in range(len(texts)) if out[i] is None]
        for i, doc in zip(rest, self._fts5([texts[i] for i in rest])):
            out[i] = doc
        return [d for d in out if d is not None]

    def learn(self, texts: Sequence[str]) -> None:
        """Find the stems of the words of `texts` not seen yet, so `documents` of them later asks
        FTS5 nothing (a write does this beside its model, before its transaction)."""
        self._learn(ASCII_WORD.findall(t.lower()) for t in texts if t.isascii())

    def _learn(self, split: Iterable[list[str]]) -> None:
        unknown = list({w for words in split for w in words if w not in self._stems})
        if unknown:
            if len(self._stems) + len(unknown) > STEMS_MAX:
                self._stems.clear()
            for word, doc in zip(unknown, self._fts5(unknown)):
                self._stems[word] = next(iter(doc.terms)) if doc.terms else ""

    def _fts5(self, texts: Sequence[str]) -> list[Document]:
        """Each text as FTS5 itself tokenises it."""
        counts: list[dict[str, int]] = [{} for _ in texts]
        if not texts:
            return []
        db = self._db()
        db.execute("BEGIN")
        try:
            db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", enumerate(texts))
            for doc, term, n in db.execute("SELECT doc, term, count(*) FROM v GROUP BY doc, term"):
                counts[doc][term] = n
            db.execute("INSERT INTO t(t) VALUES ('delete-all')")
        finally:
            db.execute("COMMIT")
        return [Document(sum(c.values()), c) for c in counts]

    def drop(self, texts: Sequence[str]) -> None:
        """Forget the words of `texts` from the process's caches (after those texts are deleted)."""
        for text in texts:
            for word in ASCII_WORD.findall(text.lower()):
                self._stems.pop(word, None)
            for word in WORD.findall(text):
                self._words.pop(word, None)
                self._words.pop(word.lower(), None)

    def words(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        """The distinct terms of each query word (most give one; punctuation alone gives none)."""
        missing = [w for w in dict.fromkeys(words) if w not in self._words]
        if missing:
            if len(self._words) + len(missing) > _QUERY_CACHE:
                self._words.clear()
            for word, doc in zip(missing, self.documents(missing)):
                self._words[word] = tuple(sorted(doc.terms))
        return [self._words[w] for w in words]


TOKENISER = Tokeniser()


def level_of(docs: int) -> int:
    """The level a segment of `docs` postings belongs to: 0 below FANOUT, then one per factor."""
    level = 0
    while docs >= FANOUT:
        docs //= FANOUT
        level += 1
    return level


def pack(postings: np.ndarray) -> bytes:
    """A segment's bytes: postings sorted by key, little-endian (key int64, tf int32, length int32)."""
    keys = postings["key"]
    if len(keys) > 1 and bool((keys[1:] < keys[:-1]).any()):
        postings = postings[np.argsort(keys, kind="stable")]
    return postings.astype(POSTING, copy=False).tobytes()


def unpack(data: bytes | memoryview) -> np.ndarray:
    return np.frombuffer(bytes(data), dtype=POSTING)


# The index's statements, written once for both backends: `?` is a parameter, `{terms}` a list of
# them, `{key}` the items' integer key column (`Statements` puts in a backend's own).
ADD_SUBJECT = ("INSERT INTO keyword_subjects (subject, docs, length, pending) VALUES (?, ?, ?, ?)"
               " ON CONFLICT (subject) DO UPDATE SET docs = keyword_subjects.docs + excluded.docs,"
               " length = keyword_subjects.length + excluded.length, pending = keyword_subjects.pending + excluded.pending")
SUBTRACT_SUBJECT = ("UPDATE keyword_subjects SET docs = docs - ?, length = length - ?, pending = pending - ?"
                    " WHERE subject = ?")
PENDING_COUNT = "SELECT pending FROM keyword_subjects WHERE subject = ?"
SUBJECT_SIZE = "SELECT docs, length FROM keyword_subjects WHERE subject = ?"
ADD_PENDING = "INSERT INTO keyword_pending (subject, term, key, tf, dl) VALUES (?, ?, ?, ?, ?)"
PENDING = "SELECT term, key, tf, dl FROM keyword_pending WHERE subject = ? AND term IN ({terms})"
ALL_PENDING = "SELECT term, key, tf, dl FROM keyword_pending WHERE subject = ?"
DROP_PENDING = "DELETE FROM keyword_pending WHERE subject = ? AND term = ? AND key = ?"
DROP_EMPTY_SUBJECT = "DELETE FROM keyword_subjects WHERE subject = ? AND docs <= 0"
SET_SETTING = "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
SEGMENTS = "SELECT term, segment, level, data FROM keyword_postings WHERE subject = ? AND term IN ({terms})"
# One statement (so one snapshot on either backend, without a transaction) for a query: the
# subject's statistics (term NULL: docs, length), its segments of the terms (data set) and its
# pending postings of the terms (key, tf, dl set).
LOOKUP = ("SELECT NULL, NULL, docs, length, 0 FROM keyword_subjects WHERE subject = ?"
          " UNION ALL SELECT term, data, NULL, NULL, NULL FROM keyword_postings WHERE subject = ? AND term IN ({terms})"
          " UNION ALL SELECT term, NULL, key, tf, dl FROM keyword_pending WHERE subject = ? AND term IN ({terms})")
LEVELS = "SELECT level, count(*) FROM keyword_postings WHERE subject = ? AND term = ? GROUP BY level ORDER BY level"
FULL_LEVELS = "SELECT term FROM keyword_postings WHERE subject = ? GROUP BY term, level HAVING count(*) >= ?"
AT_LEVEL = "SELECT segment, data FROM keyword_postings WHERE subject = ? AND term = ? AND level = ?"
INSERT = "INSERT INTO keyword_postings (subject, term, segment, level, docs, data) VALUES (?, ?, ?, ?, ?, ?)"
DELETE = "DELETE FROM keyword_postings WHERE subject = ? AND term = ? AND segment = ?"
ITEM_TEXTS = "SELECT {key}, text FROM items WHERE subject = ? ORDER BY {key}"
ITEM_IDS = "SELECT {key}, id, subject FROM items WHERE {key} IN ({terms})"
# A subject's vocabulary: each term with how many items hold it (segments, then pending postings).
VOCABULARY = ("SELECT term, sum(docs) FROM keyword_postings WHERE subject = ? GROUP BY term"
              " UNION ALL SELECT term, count(*) FROM keyword_pending WHERE subject = ? GROUP BY term")


@dataclass(frozen=True)
class Statements:
    """One backend's way of writing the statements above: its placeholder and key column."""

    ph: str
    key: str  # the items' integer key column: rowid (SQLite) or seq (PostgreSQL)

    def __call__(self, text: str, terms: int = 0) -> str:
        """`text` (one of the statements above) for this backend, with `terms` parameters in `{terms}`."""
        if "{" in text:
            text = text.format(key=self.key, terms=", ".join("?" * terms))
        return text if self.ph == "?" else text.replace("?", self.ph)

    #: FROM clause of `items i` rows named by a list of keys given as one parameter, each found by
    #: its key (SQLite: CROSS JOIN fixes the order; its planner would rather walk the subject index).
    by_keys: str = ""

    def accepted(self, clause: str) -> str:
        """Which of a list of item keys pass a filter clause (over `items i`), with their ids."""
        return f"SELECT i.{self.key}, i.id FROM {self.by_keys} WHERE {clause}"

    def keys_param(self, keys: list[int]) -> str:
        """The keys as one text parameter: a JSON array for SQLite's json_each, an array literal
        for PostgreSQL's `::bigint[]` (psycopg sends a Python list three times slower)."""
        return json.dumps(keys) if "json_each" in self.by_keys else int_array(keys)


def int_array(values: Iterable[int]) -> str:
    """PostgreSQL's text form of an integer array (`{1,2,3}`), for a `%s::bigint[]` parameter."""
    return "{" + ",".join(str(int(v)) for v in values) + "}"


# -- writes --------------------------------------------------------------------------------
def add(db: Executor, sql: Statements, rows: Sequence[tuple[int, str, str]],
        tokeniser: Tokeniser = TOKENISER) -> None:
    """Index new items, given as (key, subject, text), in the caller's transaction."""
    if not rows:
        return
    docs = tokeniser.documents([text for _, _, text in rows])
    totals: dict[str, list[int]] = {}
    postings: dict[str, list[tuple[str, str, int, int, int]]] = {}
    for (key, subject, _), doc in zip(rows, docs):
        total = totals.setdefault(subject, [0, 0])
        total[0] += 1
        total[1] += doc.length
        postings.setdefault(subject, []).extend(
            (subject, term, key, tf, doc.length) for term, tf in doc.terms.items())
    # The subject's row first, subjects in one order: on PostgreSQL its row lock serialises the
    # writers of one subject, so two flushes or merges of the same postings cannot interleave.
    for subject in sorted(totals):
        added = postings.get(subject, [])
        db.execute(sql(ADD_SUBJECT), (subject, totals[subject][0], totals[subject][1], len(added)))
        if int(db.execute(sql(PENDING_COUNT), (subject,)).fetchall()[0][0]) >= PENDING_MAX:
            flush(db, sql, subject, [(term, key, tf, dl) for _, term, key, tf, dl in added])
        else:
            db.cursor().executemany(sql(ADD_PENDING), added)


def flush(db: Executor, sql: Statements, subject: str, extra: Sequence[tuple[str, int, int, int]] = ()) -> None:
    """Move a subject's pending postings (and `extra` ones, never written as pending) into
    segments: one per term, then merge the levels that filled up."""
    rows = [*db.execute(sql(ALL_PENDING), (subject,)).fetchall(), *extra]
    db.execute(sql("DELETE FROM keyword_pending WHERE subject = ?"), (subject,))
    db.execute(sql("UPDATE keyword_subjects SET pending = 0 WHERE subject = ?"), (subject,))
    by_term: dict[str, list[tuple[int, int, int]]] = {}
    for term, key, tf, dl in rows:
        by_term.setdefault(term, []).append((key, tf, dl))
    _write_segments(db, sql, subject, by_term)
    for term in sorted({r[0] for r in db.execute(sql(FULL_LEVELS), (subject, FANOUT)).fetchall()}):
        _compact(db, sql, subject, term)


def _write_segments(db: Executor, sql: Statements, subject: str,
                    by_term: Mapping[str, list[tuple[int, int, int]]]) -> None:
    """One new segment per term, at the level its size puts it."""
    rows = []
    for term, entries in sorted(by_term.items()):
        data = pack(np.array(entries, dtype=POSTING))
        rows.append((subject, term, int(np.frombuffer(data[:8], dtype="<i8")[0]), level_of(len(entries)),
                     len(entries), data))
    db.cursor().executemany(sql(INSERT), rows)


def remove(db: Executor, sql: Statements, rows: Sequence[tuple[int, str, str]],
           tokeniser: Tokeniser = TOKENISER) -> None:
    """Take items, given as (key, subject, text), out of the index (before their rows are deleted):
    every segment holding one of them is rewritten without it, an emptied one is deleted."""
    if not rows:
        return
    docs = tokeniser.documents([text for _, _, text in rows])
    tokeniser.drop([text for _, _, text in rows])
    totals: dict[str, list[int]] = {}
    keys: dict[tuple[str, str], list[int]] = {}
    for (key, subject, _), doc in zip(rows, docs):
        total = totals.setdefault(subject, [0, 0])
        total[0] += 1
        total[1] += doc.length
        for term in doc.terms:
            keys.setdefault((subject, term), []).append(key)
    dropped: dict[str, int] = {}
    for (subject, term), gone in sorted(keys.items()):
        for key in gone:
            cur = db.execute(sql(DROP_PENDING), (subject, term, key))
            dropped[subject] = dropped.get(subject, 0) + max(0, cur.rowcount)
    for subject in sorted(totals):
        db.execute(sql(SUBTRACT_SUBJECT), (totals[subject][0], totals[subject][1], dropped.get(subject, 0), subject))
        db.execute(sql(DROP_EMPTY_SUBJECT), (subject,))
    for (subject, term), gone in sorted(keys.items()):
        wanted = np.array(gone, dtype=np.int64)
        for _, segment, level, data in db.execute(sql(SEGMENTS, 1), (subject, term)).fetchall():
            postings = unpack(data)
            hit = np.isin(postings["key"], wanted)
            if hit.any():
                db.execute(sql(DELETE), (subject, term, segment))
                if not hit.all():
                    _write_segment(db, sql, subject, term, postings[~hit], level)


def _write_segment(db: Executor, sql: Statements, subject: str, term: str, postings: np.ndarray,
                   level: int | None = None) -> None:
    data = pack(postings)
    first = int(unpack(data)["key"][0])  # keys are unique within a term: the smallest names the segment
    db.execute(sql(INSERT), (subject, term, first, level_of(len(postings)) if level is None else level,
                            len(postings), data))


def _compact(db: Executor, sql: Statements, subject: str, term: str) -> None:
    """Merge FANOUT segments of one level into one, level by level, until no level is full."""
    while True:
        full = [level for level, n in db.execute(sql(LEVELS), (subject, term)).fetchall() if n >= FANOUT]
        if not full:
            return
        level = int(full[0])
        parts = db.execute(sql(AT_LEVEL), (subject, term, level)).fetchall()
        merged = np.concatenate([unpack(data) for _, data in parts])
        for segment, _ in parts:
            db.execute(sql(DELETE), (subject, term, segment))
        _write_segment(db, sql, subject, term, merged, max(level + 1, level_of(len(merged))))


def rebuild(db: Executor, sql: Statements, subjects: Iterable[str] | None,
            tokeniser: Tokeniser = TOKENISER) -> None:
    """Index from the items table: every subject (None) or the given ones, one segment per term."""
    if subjects is None:
        db.execute("DELETE FROM keyword_postings")
        db.execute("DELETE FROM keyword_pending")
        db.execute("DELETE FROM keyword_subjects")
        subjects = [r[0] for r in db.execute("SELECT DISTINCT subject FROM items").fetchall()]
    for subject in subjects:
        for table in ("keyword_postings", "keyword_pending", "keyword_subjects"):
            db.execute(sql(f"DELETE FROM {table} WHERE subject = ?"), (subject,))
        rows = db.execute(sql(ITEM_TEXTS),
                          (subject,)).fetchall()
        if not rows:
            continue
        postings: dict[str, list[tuple[int, int, int]]] = {}
        length = 0
        for start in range(0, len(rows), REBUILD_BATCH):
            chunk = rows[start : start + REBUILD_BATCH]
            for (key, _), doc in zip(chunk, tokeniser.documents([text for _, text in chunk])):
                length += doc.length
                for term, tf in doc.terms.items():
                    postings.setdefault(term, []).append((key, tf, doc.length))
        db.execute(sql(ADD_SUBJECT), (subject, len(rows), length, 0))
        _write_segments(db, sql, subject, postings)


def stale_subjects(db: Executor, sql: Statements) -> list[str] | None:
    """Subjects whose index disagrees with the items table in item count; None when all must be
    rebuilt (no index yet under this VERSION). Costs two counts when nothing is stale."""
    version = db.execute(sql("SELECT value FROM settings WHERE key = ?"), (VERSION_SETTING,)).fetchall()
    if not version or version[0][0] != VERSION:
        return None
    indexed = int(db.execute("SELECT coalesce(sum(docs), 0) FROM keyword_subjects").fetchall()[0][0])
    items = int(db.execute("SELECT count(*) FROM items").fetchall()[0][0])
    if indexed == items:
        return []
    counts = {s: int(n) for s, n in db.execute("SELECT subject, count(*) FROM items GROUP BY subject").fetchall()}
    known = {s: int(n) for s, n in db.execute("SELECT subject, docs FROM keyword_subjects").fetchall()}
    return sorted(s for s in counts.keys() | known.keys() if counts.get(s) != known.get(s))


def ensure(db: Executor, sql: Statements) -> int:
    """Rebuild what is missing or stale; returns how many subjects were rebuilt (-1: all)."""
    stale = stale_subjects(db, sql)
    if stale == []:
        return 0
    rebuild(db, sql, stale)
    db.execute(sql(SET_SETTING), (VERSION_SETTING, VERSION))
    return -1 if stale is None else len(stale)


# -- reads ---------------------------------------------------------------------------------
def query_terms(words: Sequence[str], tokeniser: Tokeniser = TOKENISER) -> list[str]:
    """The terms a query scores, one per (word, token): a term two words share counts twice, as
    two FTS5 phrases would."""
    return [term for tokens in tokeniser.words(words) for term in tokens]


def score(db: Executor, sql: Statements, subject: str, words: Sequence[str],
          tokeniser: Tokeniser = TOKENISER,
          vocabularies: spelling.Vocabularies | None = None,
          known: Collection[str] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Every item of `subject` matching a word: keys and BM25 scores, best first (ties: lower key).

    With `vocabularies`, a word whose term the subject does not hold stands for the nearest
    spelling in the subject's vocabulary (engram.store.spelling), at `spelling.NEAR_WEIGHT`,
    unless the word (lower case) is in `known`: a word the embedding model knows is a word."""
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
    tokens = tokeniser.words(words)
    terms = [term for found in tokens for term in found]
    if not terms:
        return empty
    docs, length, postings = _lookup(db, sql, subject, sorted(set(terms)))
    if not docs:
        return empty
    weights = [1.0] * len(terms)
    if vocabularies is not None:
        missing = [(w, found[0]) for w, found in zip(words, tokens)
                   if len(found) == 1 and found[0] not in postings and w.lower() not in known]
        if any(spelling.eligible(w.lower()) for w, _ in missing):
            near = {t: m.term for t, m in _near(db, sql, subject, (docs, length), missing, tokeniser,
                                                 vocabularies).items()}
            postings.update(_lookup(db, sql, subject, sorted(set(near.values()) - postings.keys()))[2])
            spelt = [near.get(term, term) for term in terms]
            weights = [spelling.NEAR_WEIGHT if a != b else 1.0 for a, b in zip(spelt, terms)]
            terms = spelt
    return bm25(postings, terms, docs, length, weights)


def _lookup(db: Executor, sql: Statements, subject: str,
            distinct: Sequence[str]) -> tuple[int, int, dict[str, np.ndarray]]:
    """The subject's item count and token total, and the postings of `distinct` terms, in one statement."""
    if not distinct:
        return 0, 0, {}
    docs = length = 0
    parts: dict[str, list[np.ndarray]] = {}
    pending: dict[str, list[tuple[int, int, int]]] = {}
    params = (subject, subject, *distinct, subject, *distinct)
    for term, data, key, tf, dl in db.execute(sql(LOOKUP, len(distinct)), params).fetchall():
        if term is None:
            docs, length = int(key), int(tf)
        elif data is not None:
            parts.setdefault(term, []).append(unpack(data))
        else:
            pending.setdefault(term, []).append((key, tf, dl))
    for term, entries in pending.items():
        parts.setdefault(term, []).append(np.array(entries, dtype=POSTING))
    return docs, length, {term: np.concatenate(p) if len(p) > 1 else p[0] for term, p in parts.items()}


def _near(db: Executor, sql: Statements, subject: str, generation: tuple[int, int], missing: Sequence[tuple[str, str]],
          tokeniser: Tokeniser, vocabularies: spelling.Vocabularies) -> dict[str, spelling.Near]:
    """For each (word, term) whose term the subject lacks, the nearest term it holds, by term."""

    def read() -> dict[str, int]:
        counts: dict[str, int] = {}
        for term, n in db.execute(sql(VOCABULARY), (subject, subject)).fetchall():
            counts[term] = counts.get(term, 0) + int(n)
        return counts

    def stem(word: str) -> str | None:
        return _stem(word, tokeniser)

    def match(vocabulary: spelling.Vocabulary) -> dict[str, spelling.Near]:
        found = {}
        for word, term in missing:
            near = vocabulary.near(word, term, stem)
            if near is not None:
                found[term] = near
        return found

    near = match(vocabularies.get(subject, generation, read))
    matched = sorted({m.term for m in near.values()})
    if matched and len(_lookup(db, sql, subject, matched)[2]) < len(matched):
        # a term the held vocabulary still had is gone (an item was forgotten or rewritten and the
        # subject's size came back to what it was read at): read it again, so no forgotten word is
        # ever respelt into a query
        vocabularies.drop(subject)
        near = match(vocabularies.get(subject, generation, read))
    return near


def _stem(word: str, tokeniser: Tokeniser) -> str | None:
    """A word's single term (None when it has none or several)."""
    found = tokeniser.words([word])[0]
    return found[0] if len(found) == 1 else None


def spellings(db: Executor, sql: Statements, subject: str, words: Sequence[str],
              tokeniser: Tokeniser = TOKENISER,
              vocabularies: spelling.Vocabularies | None = None) -> dict[str, str]:
    """Each query word whose term `subject` does not hold, respelt as the nearest word that
    stems to a term it does hold (engram.store.spelling), when there is one: {word: respelt}."""
    if vocabularies is None:
        return {}
    tokens = tokeniser.words(words)
    missing = [(w, found[0]) for w, found in zip(words, tokens) if len(found) == 1 and spelling.eligible(w.lower())]
    if not missing:
        return {}
    row = db.execute(sql(SUBJECT_SIZE), (subject,)).fetchall()
    if not row:
        return {}
    near = _near(db, sql, subject, (int(row[0][0]), int(row[0][1])), missing, tokeniser, vocabularies)
    return {word: match.word for word, term in missing
            if (match := near.get(term)) is not None and match.word is not None}


def idf(docs: int, df: int) -> float:
    """FTS5's inverse document frequency."""
    value = math.log((docs - df + 0.5) / (df + 0.5))
    return value if value > 0 else IDF_FLOOR


def bm25(postings: Mapping[str, np.ndarray], terms: Sequence[str], docs: int,
         length: int, weights: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """BM25 of every posted item over `terms` (repeats count again), each term's part times its
    weight (1 without `weights`): keys and scores, best first."""
    avgdl = length / docs if docs else 1.0
    keys, scores = [], []
    for term, weight in zip(terms, weights or [1.0] * len(terms)):
        p = postings.get(term)
        if p is None or not len(p):
            continue
        tf = p["tf"].astype(np.float64)
        norm = K1 * (1.0 - B + B * p["dl"].astype(np.float64) / avgdl)
        keys.append(p["key"])
        scores.append(weight * idf(docs, len(p)) * (tf * (K1 + 1.0)) / (tf + norm))
    if not keys:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    total = np.bincount(inverse, weights=np.concatenate(scores), minlength=len(unique))
    order = np.lexsort((unique, -total))
    return unique[order], total[order]


def best(keys: np.ndarray, scores: np.ndarray, limit: int,
         accept: Callable[[list[int]], Mapping[int, str]]) -> list[tuple[str, float]]:
    """The first `limit` ranked items that `accept` passes (it maps passing keys to item ids),
    asked in growing chunks so a filter that rejects many still fills the list."""
    out: list[tuple[str, float]] = []
    start, chunk = 0, limit + 16
    while len(out) < limit and start < len(keys):
        batch = keys[start : start + chunk].tolist()
        passing = accept(batch)
        out += [(passing[k], s) for k, s in zip(batch, scores[start : start + chunk].tolist()) if k in passing]
        start += len(batch)
        chunk = min(4 * chunk, 4096)
    return out[:limit]


def entries(query: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]], sql: Statements, subject: str,
            text: str, tokeniser: Tokeniser = TOKENISER) -> dict[str, set[int]]:
    """For audit: the item keys each term of `text` is posted under in `subject`'s index
    (segments and pending rows), every term of the text present as a key, even if unposted."""
    terms = sorted(tokeniser.documents([text])[0].terms)
    found: dict[str, set[int]] = {term: set() for term in terms}
    if terms:
        for term, _, _, data in query(sql(SEGMENTS, len(terms)), (subject, *terms)):
            found[term].update(int(k) for k in unpack(data)["key"])
        for term, key, _, _ in query(sql(PENDING, len(terms)), (subject, *terms)):
            found[term].add(int(key))
    return found


def places(query: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]], sql: Statements, subject: str,
           text: str) -> list[str]:
    """For a store's `traces`: the index's entries still holding `text` in `subject`, read from the
    index alone — an entry whose item row is gone, and each item of the subject posted under
    every term of the text."""
    posted = entries(query, sql, subject, text)
    keys = sorted(set().union(*posted.values())) if posted else []
    rows: dict[int, tuple[str, str]] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        rows.update((int(r[0]), (r[1], r[2])) for r in query(sql(ITEM_IDS, len(chunk)), chunk))
    found = [f"keyword:{term} key {key} (entry without a row)"
             for term, keyed in sorted(posted.items()) for key in sorted(keyed) if key not in rows]
    every = set.intersection(*posted.values()) if posted else set()
    found += [f"keyword:{rows[key][0]}" for key in sorted(every) if key in rows and rows[key][1] == subject]
    return found
