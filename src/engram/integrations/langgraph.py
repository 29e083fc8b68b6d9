"""`EngramStore`: a LangGraph `BaseStore` kept in an Engram store (`pip install 'engramdb[langgraph]'`).

    from langgraph.graph import StateGraph
    store = EngramStore("memory.db", index={"fields": ["text"]})
    graph = builder.compile(store=store)

How LangGraph's model maps onto Engram's (docs/langgraph.md lists every behaviour the tests check):
- a namespace is a subject: ("users", "42") is `langgraph:users/42` (`subject_for`); each label
  is kept, characters a subject may not hold escaped as ~XX (UTF-8 bytes);
- an item is one `store_item` kept verbatim by `Memory.admin.put`: its value as JSON exactly as given
  (any length, newlines kept), its key the item's key; a put replaces the key, the old version
  stays as history (`keep_history=False` forgets it), dedupe and fact supersession never apply;
- the secret and instruction filters do: a refused put raises InvalidInput naming the reason;
- the index fields (`index={"fields": [...]}` or `put(..., index=[...])`) are embedded with
  `index["embed"]` when given (LangChain Embeddings or a function of texts, as LangGraph takes it),
  else with the Memory's embedder; their vectors are kept with the item; `search(query=...)` scores
  each item as LangGraph does: the best similarity of the query to one of its fields under
  `index["distance_type"]` (cosine, the default; inner_product: the dot product; l2: minus the
  distance), so scores are comparable across namespaces; items without vectors follow unscored;
  each result is an `EngramSearchItem`, whose `relevance` is Engram's calibrated relevance (0..1)
  for the query beside LangGraph's `score`;
- without `index`, `search(query=...)` ranks by Engram's recall (keywords over the whole value)
  and reports its calibrated relevance; `filter` is LangGraph's operators over the value (a dotted
  key such as "info.city" reaches into nested objects);
- a delete forgets every version of the key (engram.core.audit can prove it);
- TTL (minutes) is kept in the item's metadata: expired items are never returned, refreshed on
  read when asked, and deleted by `sweep_ttl()` (or the sweeper thread).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.errors import InvalidInput, require
from engram.integrations import as_memory
from engram.store import Filter
from engram.types import STORE_ITEM, Item as EngramItem
from engram.core.async_memory import off_loop

require("langgraph.store.base", "langgraph")

from langgraph.store.base.embed import ensure_embeddings  # noqa: E402
from langgraph.store.base import (  # noqa: E402 (after the check that names the extra to install)
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

if TYPE_CHECKING:
    from engram.core.memory import Memory

__all__ = ["AsyncEngramStore", "EngramSearchItem", "EngramStore", "namespace_of", "subject_for"]
VECTORS = "vectors"  # the item metadata holding its index fields' vectors

SUBJECT_KIND = "langgraph"
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@:+=-")
MAX_RANKED = 1000  # recall ranks at most this many items per namespace; the rest follow unscored
_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: _number(a) > _number(b),
    "$gte": lambda a, b: _number(a) >= _number(b),
    "$lt": lambda a, b: _number(a) < _number(b),
    "$lte": lambda a, b: _number(a) <= _number(b),
}


# -- namespaces <-> subjects ---------------------------------------------------------------------
def _escape(label: str) -> str:
    return "".join(ch if ch in _SAFE else "".join(f"~{b:02X}" for b in ch.encode("utf-8")) for ch in label)


def _unescape(part: str) -> str:
    out, i = bytearray(), 0
    while i < len(part):
        if part[i] == "~":
            out.append(int(part[i + 1 : i + 3], 16))
            i += 3
        else:
            out += part[i].encode("ascii")
            i += 1
    return out.decode("utf-8")


def subject_for(namespace: Sequence[str], kind: str = SUBJECT_KIND) -> str:
    """The Engram subject that holds a namespace: ("users", "42") -> "langgraph:users/42"."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    subject = f"{kind}:{'/'.join(_escape(label) for label in namespace)}"
    if not validate.SUBJECT.fullmatch(subject):
        raise InvalidNamespaceError(
            f"namespace {tuple(namespace)!r} is too long for an Engram subject ({len(subject)} characters"
            " once escaped; the part after the kind holds at most 256): use shorter labels")
    return subject


def namespace_of(subject: str, kind: str = SUBJECT_KIND) -> tuple[str, ...] | None:
    """The namespace a subject holds, or None when it is not one of this store's subjects."""
    prefix = f"{kind}:"
    if not subject.startswith(prefix):
        return None
    return tuple(_unescape(part) for part in subject[len(prefix) :].split("/"))


# -- values ------------------------------------------------------------------------------------
def _json_value(value: Any, where: str) -> Any:
    """`value` checked to be JSON (string keys, finite numbers); tuples become lists, as in JSON."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(f"{where} is {value!r}: JSON has no NaN or infinity")
        return value
    if isinstance(value, Mapping):
        bad = next((k for k in value if not isinstance(k, str)), None)
        if bad is not None:
            raise InvalidInput(f"{where} has the key {bad!r}: JSON object keys are strings")
        return {k: _json_value(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise InvalidInput(f"{where} is a {type(value).__name__}, which is not JSON: store strings, numbers,"
                       " booleans, null, lists and objects")


def _number(value: Any) -> float:
    return float(value)


def _matches(value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics: exact match, nested objects, and the $eq/$ne/$gt/... operators."""
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            for op, operand in wanted.items():
                if op not in _OPERATORS:
                    raise InvalidInput(f"unknown filter operator {op!r}: use one of {', '.join(_OPERATORS)}")
                try:
                    if not _OPERATORS[op](value, operand):
                        return False
                except (TypeError, ValueError):
                    return False
            return True
        return isinstance(value, Mapping) and all(_matches(_field(value, k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (isinstance(value, (list, tuple)) and len(value) == len(wanted)
                and all(_matches(a, b) for a, b in zip(value, wanted)))
    return bool(value == wanted)


def _field(value: Mapping[str, Any], key: str) -> Any:
    """value[key], or for a dotted key missing as such ("info.city") the nested field it names."""
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def _similarities(query: Any, vectors: Any, distance: str) -> list[float]:
    """The query's similarity to each vector under LangGraph's distance types."""
    import numpy as np

    q, m = np.asarray(query, dtype=np.float64), np.asarray(vectors, dtype=np.float64)
    if distance == "l2":
        return [float(-x) for x in np.linalg.norm(m - q, axis=1)]
    if distance == "inner_product":
        return [float(x) for x in m @ q]
    norms = np.linalg.norm(m, axis=1) * np.linalg.norm(q)
    dots = m @ q
    return [float(d / n) if n else 0.0 for d, n in zip(dots, norms)]


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part))


class EngramSearchItem(SearchItem):
    """LangGraph's SearchItem with Engram's calibrated relevance beside its score: `score` is what
    LangGraph defines (with `index`: the similarity under its distance type; without: Engram's
    relevance), `relevance` the chance, 0..1, that the item is on-topic for the query as Engram's
    ranking calibrates it (`Hit.score`; None without a query, or when recall finds no evidence:
    no word in common, no vector of the Memory's embedder near it). `dict()` includes it."""

    __slots__ = ("relevance",)

    def __init__(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], created_at: datetime,
                 updated_at: datetime, score: float | None = None, relevance: float | None = None) -> None:
        super().__init__(namespace=namespace, key=key, value=value, created_at=created_at, updated_at=updated_at,
                         score=score)
        self.relevance = relevance

    def dict(self) -> dict[str, Any]:
        return {**super().dict(), "relevance": self.relevance}


@dataclass(frozen=True)
class _Found:
    """One current item of the store, read back: the Engram item and the LangGraph value."""

    namespace: tuple[str, ...]
    item: EngramItem
    value: dict[str, Any]

    def created(self) -> datetime:
        return _datetime(float(self.item.metadata.get("created_at", self.item.created_at)))

    def updated(self) -> datetime:
        return _datetime(self.item.created_at)


def _datetime(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


class EngramStore(BaseStore):
    """A LangGraph `BaseStore` over an Engram Memory (or a database path or URL); sync and async."""

    supports_ttl = True

    def __init__(self, memory: "Memory | str | os.PathLike[str]", *, index: IndexConfig | None = None,
                 ttl: TTLConfig | None = None, keep_history: bool = True, subject_kind: str = SUBJECT_KIND,
                 clock: Callable[[], float] = time.time) -> None:
        """`index={"fields": [...]}` embeds those fields of every value (LangGraph's path syntax;
        "$" is the whole value) with the Memory's own embedder; without it nothing is embedded and
        `search(query=...)` ranks by keywords alone. `ttl` is LangGraph's TTLConfig (minutes)."""
        self.memory = as_memory(memory)
        self.kind = validate.subject(f"{subject_kind}:ns").split(":")[0]  # the kind part of a subject
        self._embed: Callable[[list[str]], list[list[float]]] | None = None
        self._embed_query: Callable[[str], list[float]] | None = None
        self.index_config = self._index(index)
        self.ttl_config = ttl
        self.keep_history = keep_history
        self.clock = clock
        self._sweeper: threading.Thread | None = None
        self._stop = threading.Event()

    def _index(self, index: IndexConfig | None) -> IndexConfig | None:
        if index is None:
            return None
        distance = index.get("distance_type", "cosine")
        if distance not in ("cosine", "l2", "inner_product"):
            raise InvalidInput(f"index['distance_type'] is {distance!r}: use cosine, l2 or inner_product")
        if index.get("embed") is not None:
            if isinstance(index["embed"], str):
                raise InvalidInput("index['embed'] names a provider model, which would be fetched over the"
                                   " network: pass the Embeddings object (or a function of texts) instead")
            embeddings = ensure_embeddings(index["embed"])
            self._embed, self._embed_query = embeddings.embed_documents, embeddings.embed_query
            return {**index, "fields": list(index.get("fields") or ["$"])}
        embedder = self.memory.admin.require_embedder()
        if embedder is None:
            raise InvalidInput("index= needs a Memory with an embedder (this one has embedder='none')")
        if index.get("dims") not in (None, embedder.dim):
            raise InvalidInput(f"index['dims'] is {index.get('dims')}, but the Memory's embedder"
                               f" {embedder.identity} makes {embedder.dim} dimensions")
        self._embed = lambda texts: [[float(x) for x in row] for row in embedder.embed(texts)]
        self._embed_query = lambda text: [float(x) for x in embedder.embed_one(text)]
        return {**index, "dims": embedder.dim, "fields": list(index.get("fields") or ["$"])}

    # -- BaseStore -------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations in order; one result per operation (None for a put or delete)."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` on a worker thread, so the event loop keeps running while the store works."""
        return await off_loop(self.memory).run(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        if isinstance(op, PutOp):
            if op.value is None:
                self._delete(op.namespace, op.key)
            else:
                self._put(op)
            return None
        raise InvalidInput(f"unknown store operation {type(op).__name__}")

    # -- reading ---------------------------------------------------------------------------
    def _read(self, namespace: tuple[str, ...], item: EngramItem) -> _Found | None:
        """The item as LangGraph sees it, or None once its TTL has passed."""
        expires = item.metadata.get("expires_at")
        if isinstance(expires, (int, float)) and expires <= self.clock():
            return None
        return _Found(namespace, item, json.loads(item.text))

    def _refresh(self, found: Sequence[_Found], refresh: bool) -> None:
        """Push back the expiry of items read, as LangGraph's refresh_ttl asks."""
        if not refresh:
            return
        for f in found:
            minutes = f.item.metadata.get("ttl")
            if isinstance(minutes, (int, float)):
                meta = {**f.item.metadata, "expires_at": self.clock() + 60.0 * minutes}
                self.memory.admin.update([f.item.id], metadata=meta)

    def _get(self, op: GetOp) -> Item | None:
        subject = subject_for(op.namespace, self.kind)
        current = self.memory.admin.current(subject, STORE_ITEM, validate.raw_text(op.key, "key"))
        found = self._read(tuple(op.namespace), current) if current is not None else None
        if found is None:
            return None
        self._refresh([found], op.refresh_ttl)
        return Item(value=found.value, key=found.item.key or "", namespace=found.namespace,
                    created_at=found.created(), updated_at=found.updated())

    def _subjects(self) -> dict[str, tuple[str, ...]]:
        """Every subject of this store that holds items, with its namespace."""
        out = {}
        for subject in self.memory.subjects():
            namespace = namespace_of(subject, self.kind)
            if namespace is not None:
                out[subject] = namespace
        return out

    def _items(self, subject: str, namespace: tuple[str, ...], limit: int | None = None) -> list[_Found]:
        """The current, unexpired items of one namespace, newest update first."""
        items = self.memory.items(subject, kinds=[STORE_ITEM], limit=limit)
        return [f for f in (self._read(namespace, it) for it in items) if f is not None]

    def _search(self, op: SearchOp) -> list[SearchItem]:
        validate.count(op.limit, "limit", 0, 1_000_000)
        validate.count(op.offset, "offset", 0, 1_000_000)
        if op.filter is not None and not isinstance(op.filter, Mapping):
            raise InvalidInput(f"filter must be a mapping of value fields, not {type(op.filter).__name__}")
        prefix = tuple(op.namespace_prefix)
        scopes = [(s, ns) for s, ns in self._subjects().items() if ns[: len(prefix)] == prefix]
        wanted = op.offset + op.limit
        scored: list[tuple[float | None, _Found]] = []
        sizes: dict[tuple[str, ...], int] = {}  # the items of each namespace that the search covers
        for subject, namespace in scopes:
            # Without a filter or a query, the newest `offset + limit` of each namespace suffice.
            cap = wanted if not op.filter and not op.query else None
            found = self._items(subject, namespace, limit=max(1, cap) if cap is not None else None)
            if op.filter:
                found = [f for f in found if _matches(f.value, op.filter)]
            sizes[namespace] = len(found)
            if op.query and self.index_config is not None:
                scored += [(None, f) for f in found]
            else:
                scored += self._ranked(subject, op.query, found) if op.query else [(None, f) for f in found]
        if op.query and self.index_config is not None:
            scored = self._similar(op.query, [f for _, f in scored])
        elif op.query:
            scored.sort(key=lambda pair: -pair[0] if pair[0] is not None else math.inf)
        else:
            scored.sort(key=lambda pair: -pair[1].item.created_at)
        page = scored[op.offset : wanted]
        if not op.query:
            relevance: dict[str, float] = {}
        elif self.index_config is None:
            relevance = {f.item.id: score for score, f in page if score is not None}
        else:
            relevance = self._relevance(op.query, [f for _, f in page], sizes)
        # Refreshed last, so the new expiry counts from when the results are handed back (the
        # relevance recall above can take a while on a busy machine).
        self._refresh([f for _, f in page], op.refresh_ttl)
        return [EngramSearchItem(namespace=f.namespace, key=f.item.key or "", value=f.value, created_at=f.created(),
                                 updated_at=f.updated(), score=score, relevance=relevance.get(f.item.id))
                for score, f in page]

    def _relevance(self, query: str, page: list[_Found], sizes: Mapping[tuple[str, ...], int]) -> dict[str, float]:
        """Engram's calibrated relevance (`Hit.score`) of each item of `page` for `query`, by item id:
        one recall in each namespace on the page (items recall does not reach have none)."""
        out: dict[str, float] = {}
        for namespace in {f.namespace for f in page}:
            k = min(MAX_RANKED, max(1, sizes.get(namespace, 1)))
            hits = self.memory.recall(subject_for(namespace, self.kind), query, k=k, kinds=[STORE_ITEM])
            out.update((h.id, h.score) for h in hits)
        return out

    def _similar(self, query: str, found: list[_Found]) -> list[tuple[float | None, _Found]]:
        """`found` by the query's best similarity to one of each item's vectors (LangGraph's score);
        items without vectors follow, unscored, newest first."""
        assert self._embed_query is not None and self.index_config is not None
        with_vectors = [f for f in found if f.item.metadata.get(VECTORS)]
        if not with_vectors:
            return [(None, f) for f in sorted(found, key=lambda f: -f.item.created_at)]
        q = self._embed_query(query)
        distance = str(self.index_config.get("distance_type", "cosine"))
        scored: list[tuple[float | None, _Found]] = [
            (max(_similarities(q, f.item.metadata[VECTORS], distance)), f) for f in with_vectors]
        scored.sort(key=lambda pair: -(pair[0] or 0.0))
        rest = sorted((f for f in found if not f.item.metadata.get(VECTORS)), key=lambda f: -f.item.created_at)
        return scored + [(None, f) for f in rest]

    def _ranked(self, subject: str, query: str, found: list[_Found]) -> list[tuple[float | None, _Found]]:
        """`found` in recall's order for `query` (scores from Engram's ranking); items recall does
        not reach (no vector, no keyword in common, or past MAX_RANKED) follow without a score."""
        if not found:
            return []
        hits = self.memory.recall(subject, query, k=min(MAX_RANKED, len(found)), kinds=[STORE_ITEM])
        by_id = {f.item.id: f for f in found}
        ranked = [(h.score, by_id[h.id]) for h in hits if h.id in by_id]
        reached = {f.item.id for _, f in ranked}
        return ranked + [(None, f) for f in found if f.item.id not in reached]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces: Iterable[tuple[str, ...]] = [ns for s, ns in self._subjects().items() if self._items(s, ns)]
        conditions = op.match_conditions or ()
        namespaces = [ns for ns in namespaces if all(_namespace_matches(c, ns) for c in conditions)]
        if op.max_depth is not None:
            namespaces = [ns[: op.max_depth] for ns in namespaces]
        return sorted(set(namespaces))[op.offset : op.offset + op.limit]

    # -- writing ---------------------------------------------------------------------------
    def _put(self, op: PutOp) -> None:
        subject = subject_for(op.namespace, self.kind)
        if not isinstance(op.value, Mapping):
            raise InvalidInput(f"a store value must be a mapping (a JSON object), not {type(op.value).__name__}")
        value = _json_value(op.value, "value")
        key = validate.raw_text(op.key, "key")
        now = self.clock()
        old = self.memory.admin.current(subject, STORE_ITEM, key)
        meta: dict[str, Any] = {"created_at": float(old.metadata.get("created_at", old.created_at)) if old else now}
        if op.ttl is not None:
            minutes = validate.weight(op.ttl, "ttl")
            meta.update(ttl=minutes, expires_at=now + 60.0 * minutes)
        texts = self._index_texts(value, op.index)
        if texts and self._embed is not None:
            meta[VECTORS] = self._embed(texts)
        saved = self.memory.admin.put(subject, key, json.dumps(value, ensure_ascii=False), kind=STORE_ITEM,
                                index="\n".join(texts) or None, metadata=meta, now=now)
        if not saved.saved:
            raise InvalidInput(f"put {tuple(op.namespace)!r} {key!r} was refused: {saved.reason}; nothing was stored")
        if not self.keep_history and saved.superseded:
            self.memory.forget_ids(subject, list(saved.superseded))

    def _index_texts(self, value: dict[str, Any], index: Any) -> list[str]:
        """The texts embedded for a value: one per index field found (none: not embedded)."""
        if self.index_config is None or index is False:
            return []
        paths = (self.index_config.get("fields") or ["$"]) if index is None else index
        if isinstance(paths, str) or not all(isinstance(p, str) for p in paths):
            raise InvalidInput(f"index must be False or a list of field paths such as ['text'], not {index!r}")
        return [t for p in paths for t in get_text_at_path(value, p if p == "$" else tokenize_path(p)) if t]

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        subject = subject_for(namespace, self.kind)
        every = self.memory.items(subject, where=Filter(kinds=(STORE_ITEM,), key=str(key), include_superseded=True))
        if every:
            self.memory.forget_ids(subject, [it.id for it in every])

    # -- TTL -------------------------------------------------------------------------------
    def sweep_ttl(self) -> int:
        """Forget every item whose TTL has passed (all its versions); returns how many items went."""
        now, gone = self.clock(), 0
        for subject, namespace in self._subjects().items():
            expired = [it for it in self.memory.items(subject, kinds=[STORE_ITEM])
                       if isinstance(it.metadata.get("expires_at"), (int, float)) and it.metadata["expires_at"] <= now]
            for it in expired:
                self._delete(namespace, it.key or "")
            gone += len(expired)
        return gone

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> threading.Thread:
        """Sweep expired items every `sweep_interval_minutes` (default: the TTLConfig's, else 5) on a
        daemon thread until `stop_ttl_sweeper()`."""
        if self._sweeper is not None:
            return self._sweeper
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5
        interval = 60.0 * validate.weight(minutes, "sweep_interval_minutes")
        self._stop.clear()

        def loop() -> None:
            while not self._stop.wait(interval):
                self.sweep_ttl()

        self._sweeper = threading.Thread(target=loop, name="engram-ttl-sweeper", daemon=True)
        self._sweeper.start()
        return self._sweeper

    def stop_ttl_sweeper(self) -> None:
        """Stop the sweeper thread (if one runs) and wait for it."""
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.join()
            self._sweeper = None


if TYPE_CHECKING:  # mypy checks the store against LangGraph's interface
    def _conforms(store: EngramStore) -> BaseStore:
        return store


def _merged(ops: Sequence[Op]) -> tuple[list[Op], list[int]]:
    """Operations made together, merged as LangGraph's async stores merge them: the puts of one key
    become the last of them (in the place of the first), equal reads are run once. Returns the
    operations to run and, for each one given, the index of the result it takes."""
    run: list[Op] = []
    taken: list[int] = []
    puts: dict[tuple[tuple[str, ...], str], int] = {}
    reads: dict[Op, int] = {}
    for op in ops:
        if isinstance(op, PutOp):
            at = puts.setdefault((tuple(op.namespace), op.key), len(run))
            run[at : at + 1] = [op]
        else:
            try:
                at = reads.setdefault(op, len(run))
            except TypeError:  # a read holding a dict (a filter) is not hashable: run it as it is
                at = len(run)
            if at == len(run):
                run.append(op)
        taken.append(at)
    return run, taken


class AsyncEngramStore(EngramStore):
    """EngramStore whose TTL methods are coroutines, as LangGraph's async stores have them
    (`await store.sweep_ttl()`, `await store.start_ttl_sweeper()`, `await store.stop_ttl_sweeper()`);
    the sweep runs on a worker thread. As in LangGraph's async stores, the single operations awaited
    in one turn of the event loop (aget, aput, asearch, adelete, alist_namespaces, or abatch of one
    operation) run together as one batch on a worker thread, merged (`_merged`: concurrent puts of
    one key keep the last), each failing alone; a sync call (get, put, search, batch, ...) on a
    thread running an event loop raises asyncio.InvalidStateError rather than block the loop; from
    any other thread it runs as in EngramStore."""

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """EngramStore.batch, refused on a thread whose event loop it would block."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return super().batch(ops)
        raise asyncio.InvalidStateError(
            "a synchronous AsyncEngramStore call inside a running event loop would block it: await the"
            " async method (aget, aput, asearch, adelete, alist_namespaces, abatch), or call from another thread")

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """The operations in order on a worker thread; a single one waits for the others awaited in
        the same turn of the loop and runs with them."""
        ops = list(ops)
        if len(ops) != 1:
            return await super().abatch(ops)
        validate_op_namespace(ops[0])  # before it joins the others: a bad label fails its own call only
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Result] = loop.create_future()
        waiting = self._waiting.get(loop)
        if waiting is None:
            waiting = self._waiting[loop] = []
            loop.call_soon(self._run_waiting, loop)  # after the other calls of this turn have joined
        waiting.append((future, ops[0]))
        return [await future]

    def _run_waiting(self, loop: asyncio.AbstractEventLoop) -> None:
        task = loop.create_task(self._run_together(self._waiting.pop(loop)))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run_together(self, waiting: list[tuple[asyncio.Future[Result], Op]]) -> None:
        run, taken = _merged([op for _, op in waiting])
        results: list[Result | BaseException]
        try:
            results = list(await off_loop(self.memory).run(self._each, run))
        except asyncio.CancelledError:
            for future, _ in waiting:
                future.cancel()
            raise
        except Exception as exc:  # noqa: BLE001 (the worker itself failed: every caller is told)
            results = [exc] * len(run)
        for (future, _), at in zip(waiting, taken):
            if not future.done():
                result = results[at]
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    def _each(self, ops: list[Op]) -> list[Result | Exception]:
        """Each operation's result, or the error it raised (which fails only the calls that made it)."""
        out: list[Result | Exception] = []
        for op in ops:
            try:
                out.append(self._run(op))
            except Exception as exc:  # noqa: BLE001 (handed to the caller of this operation)
                out.append(exc)
        return out

    async def sweep_ttl(self) -> int:  # type: ignore[override]
        """Forget every item whose TTL has passed; returns how many went."""
        return await off_loop(self.memory).run(EngramStore.sweep_ttl, self)

    async def start_ttl_sweeper(  # type: ignore[override]
            self, sweep_interval_minutes: float | None = None) -> "asyncio.Task[None]":
        """Sweep every `sweep_interval_minutes` (default: the TTLConfig's, else 5) in a task until
        `stop_ttl_sweeper()`."""
        if self._task is not None and not self._task.done():
            return self._task
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5
        interval = 60.0 * validate.weight(minutes, "sweep_interval_minutes")
        self._stop_async = asyncio.Event()

        async def loop() -> None:
            while True:
                try:
                    await asyncio.wait_for(self._stop_async.wait(), interval)
                    return
                except asyncio.TimeoutError:
                    await self.sweep_ttl()

        self._task = asyncio.create_task(loop())
        return self._task

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:  # type: ignore[override]
        """Stop the sweeper task; True when it stopped within `timeout` seconds (or none ran)."""
        if self._task is None:
            return True
        self._stop_async.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except asyncio.TimeoutError:
            return False
        self._task = None
        return True

    _task: "asyncio.Task[None] | None" = None
    _stop_async: asyncio.Event
    _waiting_by_loop: "dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Result], Op]]] | None" = None
    _running: "set[asyncio.Task[None]]"

    @property
    def _waiting(self) -> "dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Result], Op]]]":
        """The single operations waiting to run together, by event loop (made on first use)."""
        if self._waiting_by_loop is None:
            self._waiting_by_loop, self._running = {}, set()
        return self._waiting_by_loop
