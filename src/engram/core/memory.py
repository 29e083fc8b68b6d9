"""`Memory`: the facade every interface calls. It wires a store, an embedder and ranking.

    mem = Memory("memory.db")
    mem.remember("user:42", "Team uses Postgres 16 for all services.", source="chat 2026-11-02")
    mem.recall("user:42", "Which database do we use?", k=3)
    mem.forget("user:42", "postgres")
"""

from __future__ import annotations

import dataclasses
import os
import uuid
from typing import Any, Mapping, Sequence

import numpy as np

from engram import validate
from engram.core import vectors as nearest
from engram.core import ranking
from engram.safety.access import ScopedStore, grants, set_grant
from engram.config import Settings, load
from engram.embed.base import Embedder
from engram.kinds.episodic import EpisodicVerbs
from engram.errors import EmbedderMismatch, InvalidInput, NotFound
from engram.core.recall import search
from engram.store import Filter, Store, open_store
from engram.core.supersede import Batch
from engram.types import CONVERSATION, FACT, Hit, Item, Saved

EMBEDDER_SETTING = "embedder"


def _entry(entry: Any, shared: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(text, options) for one remember_many entry: a text, or a mapping with text + options."""
    if isinstance(entry, Mapping):
        own = dict(entry)
        if "text" not in own:
            raise InvalidInput(f"a remember_many entry needs a 'text' field, got keys {sorted(own)}")
        return own.pop("text"), {**shared, **own}
    return entry, dict(shared)


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


class Memory(EpisodicVerbs):
    """Long-term memory for agents: remember, recall, forget; facts, episodes, preferences."""

    def __init__(
        self,
        db: str | os.PathLike[str] | Store | None = None,
        *,
        embedder: Embedder | str | None = None,
        agent: str | None = None,
        recency: float | None = None,
        half_life_days: float | None = None,
        secret_filter: bool = True,
        principal: str | None = None,
        auto_supersede: bool = True,
    ) -> None:
        store_given = not isinstance(db, (str, os.PathLike)) and db is not None
        self.settings: Settings = load(
            db=None if store_given else db,
            embedder=embedder if isinstance(embedder, str) else None,
            agent=agent,
            recency=recency,
            half_life_days=half_life_days,
        )
        self.store: Store = db if store_given else open_store(self.settings.db)  # type: ignore[assignment]
        self.principal = principal
        if principal is not None:  # every read and write is checked against grants (engram.safety.access)
            self.store = ScopedStore(self.store, principal)
        self.embedder: Embedder | None = self._make_embedder(embedder)
        self.secret_filter = secret_filter
        self.auto_supersede = auto_supersede
        self.weights = ranking.Weights(recency=self.settings.recency, half_life_days=self.settings.half_life_days)
        self._check_embedder()

    # -- set-up ---------------------------------------------------------------------------
    def _make_embedder(self, embedder: Embedder | str | None) -> Embedder | None:
        if isinstance(embedder, Embedder):
            return embedder
        spec = self.settings.embedder
        if spec in ("none", "off"):
            return None
        from engram.embed import get_embedder

        return get_embedder(spec)

    def _check_embedder(self) -> None:
        """Refuse to mix vectors of two models in one store."""
        if self.embedder is None:
            return
        stored = self.store.setting(EMBEDDER_SETTING)
        if stored is None:
            self.store.setting(EMBEDDER_SETTING, self.embedder.identity)
        elif stored != self.embedder.identity:
            raise EmbedderMismatch(
                f"{self.store.url} holds vectors from {stored}, but this Memory uses {self.embedder.identity}:"
                f" open it with the same embedder, or run `engram --db {self.store.url} reindex` to re-embed"
            )

    def close(self) -> None:
        """Close the store (and scrub the SQLite write-ahead log); drop its in-memory ANN indexes."""
        nearest.forget_store(self.store)
        self.store.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------
    def remember(
        self,
        subject: str,
        text: str,
        *,
        source: str = "",
        kind: str = FACT,
        key: str | None = None,
        category: str | None = None,
        session: str | None = None,
        event_at: Any = None,
        confidence: float = 1.0,
        importance: float = 0.5,
        metadata: Mapping[str, Any] | None = None,
        agent: str | None = None,
        supersedes: Sequence[str] | None = None,
        now: Any = None,
    ) -> Saved:
        """Store one short memory. Returns Saved(saved, id, reason); a duplicate is not saved.

        `supersedes` names current items of the same subject that this one replaces: they get
        `valid_to` and `superseded_by` in the same transaction (history is kept).
        """
        item, reason = self._prepare(subject, text, source=source, kind=kind, key=key, category=category,
                                     session=session, event_at=event_at, confidence=confidence,
                                     importance=importance, metadata=metadata, agent=agent, now=now)
        if item is None:
            return Saved(False, None, reason)
        return self._write([item], self._explicit_supersede(item, supersedes))[0]

    def _explicit_supersede(self, item: Item, old_ids: Sequence[str] | None) -> dict[str, str]:
        if not old_ids:
            return {}
        if isinstance(old_ids, str) or not all(isinstance(i, str) and i for i in old_ids):
            raise InvalidInput("supersedes must be a list of item ids")
        found = {it.id: it for it in self.store.get(list(old_ids))}
        for old_id in old_ids:
            old = found.get(old_id)
            if old is None or old.subject != item.subject:
                raise NotFound(f"no memory {old_id!r} in {item.subject} to supersede")
        return {old_id: item.id for old_id in old_ids if found[old_id].current}

    def remember_many(self, subject: str, texts: Sequence[str | Mapping[str, Any]], **options: Any) -> list[Saved]:
        """Store many memories of one subject, embedding them in batches; one result per entry.

        An entry is a text, or a mapping with `text` and its own options (e.g. `source`,
        `event_at`, `metadata`) that override the shared keyword options for that entry.
        """
        if isinstance(texts, str):
            raise InvalidInput("remember_many takes a list of texts; use remember for one")
        prepared = [self._prepare(subject, text, **opts) for text, opts in (_entry(e, options) for e in texts)]
        items = [item for item, _ in prepared if item is not None]
        written = iter(self._write(items)) if items else iter(())
        return [next(written) if item is not None else Saved(False, None, reason) for item, reason in prepared]

    def _prepare(self, subject: str, text: Any, *, source: str = "", kind: str = FACT, key: str | None = None,
                 category: str | None = None, session: str | None = None, event_at: Any = None,
                 confidence: float = 1.0, importance: float = 0.5, metadata: Mapping[str, Any] | None = None,
                 agent: str | None = None, now: Any = None) -> tuple[Item | None, str | None]:
        """Validate and build an Item, or say why it is not stored."""
        subject = validate.subject(subject)
        kind = validate.kind(kind)
        # A saved conversation is JSON kept byte for byte; every other text is folded to one line.
        text = validate.raw_text(text) if kind == CONVERSATION else validate.clean_text(text)
        source = validate.clean_text(source, "source")
        for name, value in (("key", key), ("category", category), ("session", session)):
            if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > 200):
                raise InvalidInput(f"{name} must be a non-empty string of at most 200 characters, not {value!r}")
            if value is not None:
                validate.raw_text(value, name)
        for name, value in (("confidence", confidence), ("importance", importance)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise InvalidInput(f"{name} must be a number from 0 to 1, not {value!r}")
        metadata = validate.metadata(metadata)
        problem = validate.length_problem(text, kind)
        if problem:
            return None, problem
        if self.secret_filter and kind != CONVERSATION:
            from engram.safety.secrets import check_text

            # Metadata is stored and shown too (an episode's context, a fact's value): check it all.
            for part in filter(None, (text, source, *_strings(metadata))):
                finding = check_text(part)
                if finding is not None:
                    return None, f"looks like a secret ({finding.kind})"
        at = validate.timestamp(now)
        happened = validate.timestamp(event_at, "event_at") if event_at is not None else at
        return Item(
            id=uuid.uuid4().hex, subject=subject, text=text, kind=kind, source=source,
            agent=self.settings.agent if agent is None else agent, key=key, category=category, session=session,
            created_at=at, event_at=happened, valid_from=at, confidence=float(confidence),
            importance=float(importance), content_hash=validate.content_hash(text),
            metadata=dict(metadata or {}),
        ), None

    def _write(self, items: Sequence[Item], supersede: dict[str, str] | None = None) -> list[Saved]:
        """Embed and insert items in order; each closes what it would if written alone, after the
        earlier ones: a keyed item the current item with its key, an unkeyed fact the facts it
        updates ("moved to Porto" after "lives in Berlin": rules in engram.core.supersede)."""
        explicit = dict(supersede or {})
        vectors = self._vectors_for(items)
        checked = [it for it in items if it.id not in explicit.values()] if self.auto_supersede else []
        batch = Batch(self, checked, vectors)
        closes: dict[str, str] = {}
        for item in items:
            mine = [old for old, new in explicit.items() if new == item.id]
            if item.key is not None:
                old = batch.keyed(item)
                if old is not None and (old.content_hash != item.content_hash or item.kind == CONVERSATION):
                    mine.append(old.id)
            else:
                mine += batch.facts(item)
            batch.add(item, mine)
            closes.update(dict.fromkeys(mine, item.id))
        model = self.embedder.identity if self.embedder else None
        placements = self.store.put(items, vectors, supersede=closes, model=model)
        results = []
        for item, placement in zip(items, placements):
            if placement.created:
                replaced = tuple(old for old, new in closes.items() if new == item.id)
                results.append(Saved(True, placement.id, None, superseded=replaced))
            else:
                results.append(Saved(False, placement.id, "duplicate"))
        return results

    def _vectors_for(self, items: Sequence[Item]) -> dict[str, np.ndarray]:
        """One vector per item that recall searches, each distinct text embedded once."""
        if self.embedder is None:
            return {}
        wanted = [it for it in items if it.kind != CONVERSATION]
        texts = list(dict.fromkeys(it.text for it in wanted))
        if not texts:
            return {}
        matrix = self.embedder.embed(texts)
        by_text = dict(zip(texts, matrix))
        return {it.id: by_text[it.text] for it in wanted}

    # -- reading --------------------------------------------------------------------------
    def recall(
        self,
        subject: str,
        query: str,
        k: int = 5,
        *,
        kinds: Sequence[str] | None = None,
        source: str | None = None,
        since: Any = None,
        until: Any = None,
        as_of: Any = None,
        min_score: float | None = None,
        recency: float | None = None,
        half_life_days: float | None = None,
        diversity: float | None = None,
        explain: bool = False,
        now: Any = None,
    ) -> list[Hit]:
        """The k memories of `subject` most relevant to `query`, best first (see engram.core.ranking)."""
        subject = validate.subject(subject)
        query = validate.query(query)
        k = validate.count(k)
        at = validate.timestamp(now)
        where = self._filter(kinds=kinds, source=source, since=since, until=until, as_of=as_of)
        weights = dataclasses.replace(
            self.weights,
            recency=self.weights.recency if recency is None else validate.weight(recency, "recency"),
            half_life_days=(self.weights.half_life_days if half_life_days is None
                            else validate.weight(half_life_days, "half_life_days")),
            diversity=self.weights.diversity if diversity is None else validate.weight(diversity, "diversity"),
        )
        hits = search(self.store, self.embedder, subject, query, k, where, weights, at, min_score)
        if not explain:
            hits = [Hit(h.item, h.score) for h in hits]
        if hits:
            self.store.touch([h.id for h in hits], at)
        return hits

    def _filter(self, *, kinds: Sequence[str] | None = None, source: str | None = None, since: Any = None,
                until: Any = None, as_of: Any = None, include_superseded: bool = False) -> Filter:
        if isinstance(kinds, str):
            kinds = (kinds,)
        if kinds is not None and not isinstance(kinds, (list, tuple, set, frozenset)):
            raise InvalidInput(f"kinds must be a list of kinds such as ['fact'], not {kinds!r}")
        return Filter(
            kinds=tuple(validate.kind(k) for k in kinds) if kinds is not None else None,
            exclude_kinds=(CONVERSATION,) if kinds is None else (),
            source=source,
            since=validate.timestamp(since, "since") if since is not None else None,
            until=validate.timestamp(until, "until") if until is not None else None,
            as_of=validate.timestamp(as_of, "as_of") if as_of is not None else None,
            include_superseded=include_superseded,
        )

    def items(self, subject: str, *, kinds: Sequence[str] | None = None, limit: int | None = None,
              include_superseded: bool = False) -> list[Item]:
        """The memories of a subject, newest first."""
        subject = validate.subject(subject)
        if limit is not None:
            validate.count(limit, "limit", 1, 1_000_000)
        return self.store.find(subject, self._filter(kinds=kinds, include_superseded=include_superseded), limit)

    def get(self, item_id: str) -> Item:
        """One memory by id (NotFound if there is none)."""
        if not isinstance(item_id, str) or not item_id:
            raise InvalidInput(f"id must be a non-empty string, not {item_id!r}")
        found = self.store.get([item_id])
        if not found:
            raise NotFound(f"no memory with id {item_id!r}")
        return found[0]

    def history(self, item_id: str) -> list[Item]:
        """An item and the versions it replaced, oldest first."""
        item = self.get(item_id)
        older = self.store.find(item.subject, Filter(include_superseded=True), newest_first=False)
        by_successor = {it.superseded_by: it for it in older if it.superseded_by}
        chain = [item]
        while chain[0].id in by_successor:
            chain.insert(0, by_successor[chain[0].id])
        return chain

    # -- forgetting -----------------------------------------------------------------------
    def matches(self, subject: str, contains: str) -> list[Item]:
        """Every memory (any kind, any version) whose text contains `contains`: what forget would delete."""
        subject = validate.subject(subject)
        needle = validate.clean_text(contains, "match")
        if not needle:
            raise InvalidInput("say what to forget (a word or phrase), or use forget_all(subject)")
        return self.store.find(subject, Filter(contains=needle, include_superseded=True))

    def forget(self, subject: str, contains: str) -> int:
        """Delete every memory of `subject` containing `contains` (case-insensitive), everywhere."""
        subject = validate.subject(subject)
        return self._delete(subject, [it.id for it in self.matches(subject, contains)])

    def forget_ids(self, subject: str, ids: Sequence[str]) -> int:
        """Delete memories of `subject` by id; ids of other subjects are left alone."""
        subject = validate.subject(subject)
        if not isinstance(ids, (list, tuple, set, frozenset)) or not all(isinstance(i, str) and i for i in ids):
            raise InvalidInput("ids must be a list of item ids")
        return self._delete(subject, list(ids))

    def forget_all(self, subject: str) -> int:
        """Delete every memory of a subject, in every kind and version."""
        subject = validate.subject(subject)
        ids = [it.id for it in self.store.find(subject, Filter(include_superseded=True))]
        return self._delete(subject, ids)

    def _delete(self, subject: str, ids: list[str]) -> int:
        """Delete from the store, then from this process's ANN indexes (engram.core.vectors)."""
        count = self.store.delete(subject, ids)
        nearest.after_delete(self.store, subject)
        return count

    # -- sharing --------------------------------------------------------------------------
    def grant(self, subject: str, grantee: str, mode: str = "read") -> None:
        """Let `grantee` (another subject or agent) read or write `subject`."""
        set_grant(self.store, subject, grantee, mode)

    def revoke(self, subject: str, grantee: str) -> None:
        """Take back a grant."""
        set_grant(self.store, subject, grantee, None)

    def grants(self, subject: str) -> dict[str, str]:
        """Who else may read or write `subject`."""
        return grants(self.store, subject)

    # -- overview -------------------------------------------------------------------------
    def subjects(self) -> dict[str, int]:
        """Every subject in the store with its number of items."""
        return self.store.subjects()

    def stats(self, subject: str | None = None) -> dict[str, Any]:
        """Counts by kind (current and superseded) for one subject or the whole store."""
        subjects = [validate.subject(subject)] if subject else list(self.store.subjects())
        by_kind: dict[str, int] = {}
        superseded = 0
        for name in subjects:
            for item in self.store.find(name, Filter(include_superseded=True)):
                if item.current:
                    by_kind[item.kind] = by_kind.get(item.kind, 0) + 1
                else:
                    superseded += 1
        return {
            "store": self.store.url,
            "subjects": len(subjects),
            "items": sum(by_kind.values()),
            "by_kind": dict(sorted(by_kind.items())),
            "superseded": superseded,
            "embedder": self.embedder.identity if self.embedder else None,
            # The store's bounded vector cache (entries, bytes, bounds, hit rate), where it has one.
            "cache": getattr(self.store, "cache_stats", dict)(),
        }

    # -- re-embedding (engram reindex) ----------------------------------------------------
    @classmethod
    def reindex(
        cls,
        db: str | os.PathLike[str] | Store | None = None,
        *,
        embedder: Embedder | str | None = None,
        batch_size: int = 256,
        progress: Any = None,
        **options: Any,
    ) -> "Memory":
        """Re-embed every item of a store with `embedder` and make it the store's model; returns the Memory.

        `progress(done, total)` is called after each batch. If interrupted, run it again.
        """
        store: Store = db if (db is not None and not isinstance(db, (str, os.PathLike))) else open_store(
            load(db=db).db)  # type: ignore[assignment]
        previous = store.setting(EMBEDDER_SETTING)
        store.setting(EMBEDDER_SETTING, delete=True)  # so the new model may open the store
        try:
            mem = cls(store, embedder=embedder, **options)
            if mem.embedder is None:
                raise InvalidInput("reindex needs an embedder: pass one (e.g. embedder='minilm'), not 'none'")
            wanted = Filter(include_superseded=True, exclude_kinds=(CONVERSATION,))
            items = [it for name in store.subjects() for it in store.find(name, wanted, newest_first=False)]
            for start in range(0, len(items), max(1, int(batch_size))):
                chunk = items[start : start + max(1, int(batch_size))]
                store.set_vectors(mem._vectors_for(chunk), mem.embedder.identity)  # type: ignore[attr-defined]
                if progress is not None:
                    progress(start + len(chunk), len(items))
        except BaseException:
            if previous is not None:
                store.setting(EMBEDDER_SETTING, previous)
            raise
        return mem
