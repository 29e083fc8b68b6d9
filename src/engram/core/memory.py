"""`Memory`: the facade every interface calls. It wires a store, an embedder and ranking.

    mem = Memory("memory.db")
    mem.remember("user:42", "Team uses Postgres 16 for all services.", source="chat 2026-11-02")
    mem.recall("user:42", "Which database do we use?", k=3)
    mem.forget("user:42", "postgres")
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
import uuid
import warnings
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from engram import validate
from engram.core import vectors as nearest
from engram.core import ranking
from engram.safety.access import grants, scoped, set_grant
from engram.config import Settings, load
from engram.embed.base import Embedder
from engram.core import collapse, conversations, earlier, embedding, episodic, extraction, forgetting, notes, restated
from engram.core import standing, successors
from engram.core.extraction_thread import Background
from engram.core import names as people
from engram.errors import EmbedderMismatch, InvalidInput, NotFound, WriteConflict
from engram.language import framing
from engram.core.accesses import AccessLog
from engram.core.admin import MOVED, Admin, ids_list
from engram.core.queries import QueryCache
from engram.core.screened import Screened
from engram.core.steps import UNTIMED, Steps
from engram.core.recall import search
from engram.core.reindex import EMBEDDER_SETTING, FILE_SETTING, check_fingerprint, coverage, embed_items, reembed, unfinished
from engram.store import Filter, Store, open_store
from engram.store.base import CacheReport, Leftovers, ScrubStatus
from engram.store.keyword import TOKENISER
from engram.core.supersede_lookup import Batch, Known
from engram.types import CONVERSATION, EMBEDDED, FACT, PASSAGE, VERBATIM_KINDS, Hit, Item, Saved, iso, TimeLike

if TYPE_CHECKING:
    from engram.llm.base import LLM

PUT_TRIES = 10  # a put without `expect` retries this often when other writers replace its key first


def _spec_of(embedder: Embedder) -> str:
    from engram.embed import spec_for

    return spec_for(embedder.identity)


def _entry(entry: Any, shared: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(text, options) for one remember_many entry: a text, or a mapping with text + options."""
    if isinstance(entry, Mapping):
        own = dict(entry)
        if "text" not in own:
            raise InvalidInput(f"a remember_many entry needs a 'text' field, got keys {sorted(own)}")
        return own.pop("text"), {**shared, **own}
    return entry, dict(shared)


def _store_or_path(db: str | os.PathLike[str] | Store | None) -> tuple[Store | None, str | os.PathLike[str] | None]:
    """(the store given, None) or (None, the path or URL given, or None for the configured one)."""
    if db is None or isinstance(db, (str, os.PathLike)):
        return None, db
    return db, None


def _windows(text: str, size: int = 1000, overlap: int = 200) -> list[str]:
    """The first MAX_INDEX_CHARS characters of `text` in windows of `size` that overlap by
    `overlap` (a phrase shorter than that is whole in one of them)."""
    head = text[: validate.MAX_INDEX_CHARS]
    return [head[i : i + size] for i in range(0, max(1, len(head) - overlap), size - overlap)]


class Memory:
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
        instruction_filter: bool | None = None,
        principal: str | None = None,
        auto_supersede: bool = True,
        read_only: bool | None = None,
        query_cache: int | None = None,
        access_counts: bool | None = None,
        extract_llm: LLM | None = None,
    ) -> None:
        """`read_only=True` opens the store for reading only (writes raise ReadOnlyStore, recall
        records no access counts); None (the default) does so when the SQLite file cannot be written.
        `query_cache` bounds the query embeddings kept for repeated queries (0: none; default 1024,
        ENGRAM_QUERY_CACHE). `access_counts=False` (ENGRAM_ACCESS_COUNTS=off) records no access
        counts: importance and pruning then see none, and a busy server skips their batched writes.
        With `extract_llm` (or ENGRAM_EXTRACT=on: the configured provider), the messages
        `add_messages` keeps are turned into facts on a thread (`Memory.extraction`,
        engram.core.extraction_thread); `close()` waits for it."""
        given, path = _store_or_path(db)
        self.settings: Settings = load(
            db=path,
            embedder=embedder if isinstance(embedder, str) else None,
            agent=agent,
            recency=recency,
            half_life_days=half_life_days,
            instruction_filter=instruction_filter,
            query_cache=query_cache,
            access_counts=access_counts,
        )
        self.store: Store = given if given is not None else open_store(self.settings.db, read_only=read_only)
        self.principal = principal
        if principal is not None:  # every read and write is checked against grants (engram.safety.access)
            self.store = scoped(self.store, principal)
        self.embedder: Embedder | None = self._make_embedder(embedder)
        self.secret_filter = secret_filter
        # Refuse text that addresses the assistant instead of describing the user (memory poisoning);
        # off with instruction_filter=False or ENGRAM_INSTRUCTION_FILTER=off (engram.safety.instructions).
        self.instruction_filter = self.settings.instruction_filter
        self.auto_supersede = auto_supersede
        self.weights = ranking.Weights(recency=self.settings.recency, half_life_days=self.settings.half_life_days)
        # Recall's access counts, written later in one transaction (engram.core.accesses).
        self._accesses = AccessLog(self.store)
        # Query embeddings for repeated queries (engram.core.queries; query_cache=0 turns it off).
        self.query_cache = QueryCache(self.settings.query_cache)
        self._steps: Steps = UNTIMED  # `engram bench latency --steps` sets a Steps to time one recall
        # After a forget: copies the store could not scrub yet (another connection is reading), or None.
        self.leftovers: Leftovers | None = None
        self._with_passages: set[str] = set()  # subjects recall has found passages in (engram.core.collapse)
        self._screened = Screened()  # labels that passed the write screens (engram.core.screened)
        self._known = Known()  # stored items' slots, for supersession (engram.core.supersede_lookup)
        #: The plumbing under the verbs: keyed writes, bookkeeping, vectors (engram.core.admin).
        self.admin = Admin(self)
        self._check_embedder()
        if extract_llm is None and self.settings.extract and not self.read_only:  # ENGRAM_EXTRACT=on
            extract_llm = extraction.provider(background=True)
        self.extraction: Background | None = Background(self, extract_llm) if extract_llm is not None else None

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
        """Never mix vectors of two models in one store. On a mismatch the Memory still opens:
        what needs no vectors (items, forget, export, audit, stats) works; what does raises
        EmbedderMismatch naming the store's model, the flag that selects it, and `engram reindex`."""
        self._mismatch: str | None = None
        self._fingerprint_checked = False
        if self.embedder is None:
            return
        stored = self.store.setting(EMBEDDER_SETTING)
        if stored is None:
            if not self.read_only:
                self.store.setting(EMBEDDER_SETTING, self.embedder.identity)
        elif stored != self.embedder.identity:
            from engram.embed import spec_for

            spec = spec_for(stored)
            command = f"engram --db {self.store.url} --embedder {_spec_of(self.embedder)} reindex"
            if unfinished(self.store) == self.embedder.identity:
                self._mismatch = (
                    f"{self.store.url}: a reindex to {self.embedder.identity} is unfinished (it was interrupted"
                    f" or is running): run `{command}` again to finish it; until then the store's model stays"
                    f" {stored} (pass `--embedder {spec}` to use it)"
                )
            else:
                self._mismatch = (
                    f"{self.store.url} holds vectors from {stored}, but this Memory uses {self.embedder.identity}:"
                    f" pass `--embedder {spec}` (Memory(..., embedder={spec!r})) to use the store's model,"
                    f" or run `{command}` to re-embed every memory with the new one"
                )
            self.embedder = None

    def _require_embedder(self) -> Embedder | None:
        """The embedder for an operation on vectors, checked (`Admin.require_embedder`)."""
        if self._mismatch is None and self.embedder is not None and not self._fingerprint_checked:
            self._mismatch = check_fingerprint(self.store, self.embedder)
            self._fingerprint_checked = self._mismatch is None
        if self._mismatch is not None:
            raise EmbedderMismatch(self._mismatch)
        return self.embedder

    @property
    def read_only(self) -> bool:
        """True when the store was opened for reading only: writes raise ReadOnlyStore."""
        return self.store.read_only

    def close(self) -> None:
        """Write buffered access counts, close the store (and scrub the SQLite write-ahead log),
        drop its in-memory ANN indexes. If the counts cannot be written the store is still
        closed, and the error is raised. Background extraction (`extract_llm`) is flushed first."""
        try:
            if self.extraction is not None:
                self.extraction.close()
            self._accesses.close()
        finally:
            nearest.forget_store(self.store)
            self.store.close()

    if not TYPE_CHECKING:  # the plumbing's names on Memory itself still work for now, with a warning
        def __getattr__(self, name: str) -> Any:
            if name in MOVED:
                warnings.warn(f"Memory.{name} is now Memory.admin.{name}", DeprecationWarning, stacklevel=2)
                return getattr(self.admin, name)
            raise AttributeError(f"'Memory' object has no attribute {name!r}")

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
        event_at: TimeLike = None,
        confidence: float = 1.0,
        importance: float = 0.5,
        metadata: Mapping[str, Any] | None = None,
        agent: str | None = None,
        supersedes: Sequence[str] | None = None,
        now: TimeLike = None,
    ) -> Saved:
        """Store one short memory. Returns Saved(saved, id, reason); a duplicate is not saved.

        `supersedes` names current items of the same subject that this one replaces: they get
        `valid_to` and `superseded_by` in the same transaction (history is kept).
        """
        item, reason = self._prepare(subject, text, source=source, kind=kind, key=key, category=category,
                                     session=session, event_at=event_at, confidence=confidence,
                                     importance=importance, metadata=metadata, agent=agent, now=now,
                                     instructions=False)
        if item is None:
            return Saved(False, None, reason)
        return self._write([item], self._explicit_supersede(item, supersedes), screen=True)[0]

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
        prepared = [self._prepare(subject, text, **opts, instructions=False)
                    for text, opts in (_entry(e, options) for e in texts)]
        items = [item for item, _ in prepared if item is not None]
        written = iter(self._write(items, screen=True)) if items else iter(())
        return [next(written) if item is not None else Saved(False, None, reason) for item, reason in prepared]

    def add_messages(self, subject: str, messages: Any, *, session: str | None = None, at: TimeLike = None,
                     source: str = "", agent: str | None = None, now: TimeLike = None) -> list[Saved]:
        """Keep a conversation: every message whole and verbatim, one Saved per message, in order.

        `messages` is a list (or a request) in the OpenAI Chat, OpenAI Responses or Anthropic
        Messages shape, or a `Conversation.to_dict()` (engram.core.conversations). A message's own
        time, else `at`, else now, is its `event_at`. A message is never refused for its length (up
        to 20 million characters), a secret (redacted in place: `Saved.redacted` names the kinds) or
        an instruction; a tool result is kept marked untrusted. Recall finds a long message by its
        passages and returns the message once, with the passage that matched (`Hit.passage`).
        """
        subject = validate.subject(subject)
        for name, value in (("session", session),):
            if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > 200):
                raise InvalidInput(f"{name} must be a non-empty string of at most 200 characters, not {value!r}")
        parsed = conversations.messages_of(messages)
        planned = conversations.plan(
            subject, parsed, session=session, at=validate.timestamp(at, "at") if at is not None else None,
            now=validate.timestamp(now), source=validate.clean_text(source, "source"),
            agent=self.settings.agent if agent is None else agent, redact=self.secret_filter,
            screen=self.instruction_filter)
        results: list[Saved] = []
        self._with_passages.add(subject)
        for batch in conversations.chunks(planned):
            written = self._write([it for p in batch for it in p.items])
            at_message = 0
            for p in batch:
                saved = written[at_message]
                results.append(dataclasses.replace(saved, redacted=p.redacted))
                at_message += len(p.items)
        if self.extraction is not None:  # queued, never waited for
            self.extraction.submit(subject, [s.id for s in results if s.saved and s.id])
        return results

    def extract(self, subject: str | None = None, *, session: str | None = None, llm: LLM | None = None,
                max_batches: int | None = None, now: TimeLike = None) -> extraction.Report:
        """Turn the messages of `subject` (None: every subject) not yet extracted into facts, in
        batches of one bounded LLM call each (engram.core.extraction). `llm` defaults to
        `extract_llm`, else the configured provider ($ENGRAM_LLM, engram.llm.get_llm); ConfigError
        when there is none. Each fact is remembered with source "extract" and its messages' ids."""
        if llm is None and self.extraction is not None:
            llm = self.extraction.llm
        return extraction.extract(self, llm, subject, session=session, max_batches=max_batches, now=now)

    def _put(self, subject: str, key: str, text: str, *, kind: str, index: str | None = None,
             session: str | None = None, source: str = "", metadata: Mapping[str, Any] | None = None,
             expect: str | None = None, now: TimeLike = None) -> Saved:
        """`Admin.put` (which documents it): the keyed verbatim write, on the write path."""
        if kind not in VERBATIM_KINDS:
            raise InvalidInput(f"put writes the verbatim kinds ({', '.join(sorted(VERBATIM_KINDS))}), not {kind!r};"
                               " use remember for facts and the other kinds")
        if expect is not None and not isinstance(expect, str):
            raise InvalidInput(f"expect must be the id of the version read ('' for none), not {expect!r}")
        meta = validate.metadata(metadata)
        if index is not None:
            meta[EMBEDDED] = validate.raw_text(index, "index")[: validate.MAX_INDEX_CHARS]
        item, reason = self._prepare(subject, text, kind=kind, key=key, session=session, source=source,
                                     metadata=meta, now=now, instructions=False)
        if item is None:
            return Saved(False, None, reason)
        # the screen runs beside the model
        vectors, reason = embedding.beside(self._require_embedder(), [item], lambda: self._screen(item))
        if reason is not None:
            return Saved(False, None, reason)
        tries = 0
        while True:
            try:
                return self._replace(item, vectors, expect)
            except WriteConflict:
                tries += 1
                if expect is not None or tries >= PUT_TRIES:
                    raise
                time.sleep(min(0.2, 0.002 * 2**tries) * random.random())  # let the other writers finish

    def _replace(self, item: Item, vectors: Mapping[str, np.ndarray], expect: str | None) -> Saved:
        """Insert `item` closing the current version of its key; the store's current-key index makes
        the check and the write one step (a writer that got there first: WriteConflict)."""
        assert item.key is not None  # put always writes a keyed item
        found = self.admin.current(item.subject, item.kind, item.key)
        if expect is not None and (found.id if found else "") != expect:
            raise WriteConflict(f"{item.subject}: the current {item.kind} {item.key!r} is "
                                f"{found.id if found else 'absent'}, not {expect or 'absent'} as read;"
                                " nothing was written: read it again and retry")
        closes = {found.id: item.id} if found else {}
        model = self.embedder.identity if self.embedder else None
        placement = self.store.put([item], vectors, supersede=closes, model=model)[0]
        return Saved(True, placement.id, None, superseded=tuple(closes))

    def _prepare(self, subject: str, text: Any, *, source: str = "", kind: str = FACT, key: str | None = None,
                 category: str | None = None, session: str | None = None, event_at: TimeLike = None,
                 confidence: float = 1.0, importance: float = 0.5, metadata: Mapping[str, Any] | None = None,
                 agent: str | None = None, now: TimeLike = None,
                 instructions: bool = True) -> tuple[Item | None, str | None]:
        """Validate and build an Item, or say why it is not stored. `instructions=False` leaves
        the instruction screen to the caller (`_write(..., screen=True)` runs it beside the model)."""
        subject = validate.subject(subject)
        kind = validate.kind(kind)
        # A verbatim kind (a saved conversation, a store item, a memory file) is kept byte for byte;
        # every other text is folded to one line.
        text = validate.raw_text(text) if kind in VERBATIM_KINDS else validate.clean_text(text)
        source = validate.clean_text(source, "source")
        for name, value in (("key", key), ("category", category), ("session", session)):
            if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > 200):
                raise InvalidInput(f"{name} must be a non-empty string of at most 200 characters, not {value!r}")
            if value is not None:
                validate.raw_text(value, name)
        for name, number in (("confidence", confidence), ("importance", importance)):
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0.0 <= number <= 1.0:
                raise InvalidInput(f"{name} must be a number from 0 to 1, not {number!r}")
        metadata = validate.metadata(metadata)
        problem = validate.length_problem(text, kind)
        if problem:
            return None, problem
        writer = self.settings.agent if agent is None else validate.clean_text(agent, "agent")
        reason = self._refusal(text, kind, source=source, key=key, category=category, session=session,
                               agent=writer, metadata=metadata, subject=subject, instructions=instructions)
        if reason is not None:
            return None, reason
        at = validate.timestamp(now)
        happened = validate.timestamp(event_at, "event_at") if event_at is not None else at
        return Item(
            id=uuid.uuid4().hex, subject=subject, text=text, kind=kind, source=source,
            agent=writer, key=key, category=category, session=session,
            created_at=at, event_at=happened, valid_from=at, confidence=float(confidence),
            importance=float(importance), content_hash=validate.content_hash(text),
            metadata=dict(metadata or {}),
        ), None

    def _refusal(self, text: str, kind: str, *, source: str = "", key: str | None = None,
                 category: str | None = None, session: str | None = None, agent: str = "",
                 metadata: Mapping[str, Any] | None = None, secrets: bool = True,
                 instructions: bool = True, subject: str = "") -> str | None:
        """Why a write must not be stored, or None: every stored string passes the secret filter and
        the instruction filter (engram.safety.screen). A saved conversation's JSON is kept as said.

        The instruction filter reads sentences, at a cost that grows faster than the length, so of a
        store item or memory file (any length) it reads the first MAX_INDEX_CHARS characters of the
        text and of its index text, in overlapping windows; the secret filter reads all of it.
        `secrets=False` / `instructions=False` skip a filter (a trusted restore: engram import).
        The subject's name is screened too; a message's metadata "role" (tool, ...) is its origin.
        Labels that passed the same screens before are not read again (engram.core.screened)."""
        from engram.safety.screen import refusal, strings

        role = (metadata or {}).get("role")
        origin = role if isinstance(role, str) else "user"
        secrets, instructions = self.secret_filter and secrets, self.instruction_filter and instructions
        labels: list[str | None] = [subject, source, key, category, session, agent, *strings(metadata)]
        read = None
        if kind in VERBATIM_KINDS and kind != CONVERSATION:
            index = (metadata or {}).get(EMBEDDED)
            others = [source, key, category, session, agent,
                      *strings({k: v for k, v in (metadata or {}).items() if k != EMBEDDED})]
            read = [*_windows(text), *(_windows(index) if isinstance(index, str) else []), *others]
            setting = None  # labels go through the two screens apart here: nothing is remembered
        else:
            setting = (secrets, instructions, origin)
            labels = list(self._screened.unseen(setting, labels))
        parts = labels if kind == CONVERSATION else [text, *labels]
        reason = refusal(parts, secrets=secrets, instructions=instructions, instruction_parts=read, origin=origin)
        if reason is None and setting is not None:
            self._screened.passed(setting, [p for p in labels if p is not None])
        return reason

    def _write(self, items: Sequence[Item], supersede: dict[str, str] | None = None, *,
               screen: bool = False) -> list[Saved]:
        """Embed and insert items in order; each closes what it would if written alone, after the
        earlier ones: a keyed item the current item with its key, an unkeyed fact the facts it
        updates ("moved to Porto" after "lives in Berlin": rules in engram.core.supersede).

        The model runs in this thread, and a helper thread meanwhile does what needs no vector
        (engram.core.embedding.beside): the look-up's store reads, then, with `screen`, the
        instruction screen (a refused item is Saved(False, None, reason) and is not written), then
        the keyword tokeniser's stems of the new words."""
        explicit = dict(supersede or {})
        embedder = self._require_embedder()
        self._accesses.flush_quietly()  # recorded access counts go with the next write
        checked = [it for it in items if it.id not in explicit.values()] if self.auto_supersede else []

        def checks() -> tuple[Batch, dict[str, str]]:
            batch = Batch(self.store, embedder, checked, known=self._known)
            refused = {it.id: reason for it in items if screen and (reason := self._screen(it)) is not None}
            TOKENISER.learn([it.text for it in items if it.id not in refused])  # the insert asks FTS5 nothing
            return batch, refused

        vectors, (batch, refused) = embedding.beside(embedder, items, checks)
        if len(refused) == len(items):
            return [Saved(False, None, refused[it.id]) for it in items]
        batch.place(vectors)
        written = iter(self._insert([it for it in items if it.id not in refused], vectors, explicit, batch))
        return [Saved(False, None, refused[it.id]) if it.id in refused else next(written) for it in items]

    def _screen(self, item: Item) -> str | None:
        """Why `item` fails the instruction screen (its text and labels), or None."""
        return self._refusal(item.text, item.kind, source=item.source, key=item.key, category=item.category,
                             session=item.session, agent=item.agent, metadata=item.metadata, subject=item.subject,
                             secrets=False)

    def _insert(self, items: Sequence[Item], vectors: Mapping[str, np.ndarray], explicit: Mapping[str, str],
                batch: Batch) -> list[Saved]:
        """Decide what each item closes, in order, then put them all in one transaction."""
        closes: dict[str, str] = {}
        for item in items:
            mine = [old for old, new in explicit.items() if new == item.id]
            if item.key is not None:
                old = batch.keyed(item)
                if old is not None and (old.content_hash != item.content_hash or item.kind in VERBATIM_KINDS):
                    mine.append(old.id)
            else:
                mine += batch.facts(item)
            batch.add(item, mine)
            closes.update(dict.fromkeys(mine, item.id))
        model = self.embedder.identity if self.embedder else None
        placements = self.store.put(items, vectors, supersede=closes, model=model) if items else []
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
        return embed_items(self.embedder, items) if self.embedder is not None else {}

    # -- reading --------------------------------------------------------------------------
    def recall(
        self,
        subject: str,
        query: str,
        k: int = 5,
        *,
        kinds: Sequence[str] | None = None,
        source: str | None = None,
        since: TimeLike = None,
        until: TimeLike = None,
        as_of: TimeLike = None,
        min_score: float | None = None,
        recency: float | None = None,
        half_life_days: float | None = None,
        diversity: float | None = None,
        explain: bool = False,
        now: TimeLike = None,
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
        steps = self._steps
        steps.lap("validate")
        min_score = None if min_score is None else validate.number(min_score, "min_score")
        # Messages are searched by their passages, one hit per message (engram.core.collapse). A
        # subject not yet seen with passages is searched for k hits first, exactly as without
        # conversations; only when passages come back is it searched again, wider.
        where = collapse.searched(where)
        # A question about the past searches every version (engram.core.earlier).
        past = bool(weights.newest) and earlier.asks_earlier(query, where)
        # A question about the present finds what replaced a fact it matches (engram.core.successors).
        present = bool(weights.newest) and not past and where.as_of is None and not where.include_superseded
        where, size = (earlier.widened(where), max(k, earlier.WINDOW)) if past or present else (where, k)
        wide = subject in self._with_passages
        hits = search(self.store, self._require_embedder(), subject, query, collapse.wide(size) if wide else size,
                      where, weights, at, min_score, queries=self.query_cache, steps=steps)
        if not wide and collapse.has_passages(hits):
            self._with_passages.add(subject)
            hits = search(self.store, self._require_embedder(), subject, query, collapse.wide(size), where, weights,
                          at, min_score, queries=self.query_cache, steps=steps)
        hits = collapse.collapse(self.store, hits, max(size, restated.WINDOW + 1), framing.speaker(query))
        if past:
            hits = earlier.replaced_first(hits)
        elif present:
            hits = successors.inherit(self.store, hits)
        hits = restated.newest_first(hits, query, at) if weights.newest else hits
        # The user's standing instruction the question falls under comes with it (engram.core.standing).
        hits = standing.place(self.store, self.embedder, subject, query, hits, k, where, self.query_cache, min_score) \
            if subject in self._with_passages else hits[:k]
        if not explain:
            hits = [dataclasses.replace(h, components={}) for h in hits]
        if hits and not self.read_only and self.settings.access_counts:  # read-only: no access counts
            self._accesses.record([h.id for h in hits], at)  # written later: no write on the read path
        steps.lap("hits")
        return hits

    def _filter(self, *, kinds: Sequence[str] | None = None, source: str | None = None, since: TimeLike = None,
                until: TimeLike = None, as_of: TimeLike = None, include_superseded: bool = False) -> Filter:
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
              include_superseded: bool = False, where: Filter | None = None,
              newest_first: bool = True) -> list[Item]:
        """The memories of a subject, newest first (`newest_first=False`: oldest first).

        `where` is a full `Filter` (category, session, key, metadata, ...) for callers inside the
        library; it replaces `kinds` and `include_superseded`, which must then be left out.
        """
        subject = validate.subject(subject)
        if limit is not None:
            validate.count(limit, "limit", 1, 1_000_000)
        if where is None:
            where = self._filter(kinds=kinds, include_superseded=include_superseded)
            if kinds is None:  # a message's passages are its index, listed with the message only
                where = dataclasses.replace(where, exclude_kinds=(*where.exclude_kinds, PASSAGE))
        elif kinds is not None or include_superseded:
            raise InvalidInput("give either where= or kinds=/include_superseded=, not both")
        return self.store.find(subject, where, limit, newest_first)

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

    # -- facts, episodes, preferences, conversations (engram.core.episodic) -----------------
    store_fact = episodic.store_fact
    get_fact = episodic.get_fact
    facts_by_category = episodic.facts_by_category
    log_episode = episodic.log_episode
    recent_episodes = episodic.recent_episodes
    set_preference = episodic.set_preference
    get_preference = episodic.get_preference
    preferences = episodic.preferences
    save_conversation = episodic.save_conversation
    conversation_state = episodic.conversation_state

    # -- research notes with provenance (engram.core.notes) -------------------------------------
    remember_note = notes.remember_note
    forget_source = notes.forget_source
    notes = notes.notes  # last: the name is the module's until here

    # -- forgetting -----------------------------------------------------------------------
    def matches(self, subject: str, contains: str) -> list[Item]:
        """Every memory (any kind, any version) whose text contains `contains`: what forget would delete."""
        subject = validate.subject(subject)
        needle = validate.clean_text(contains, "match")
        if not needle:
            raise InvalidInput("say what to forget (a word or phrase), or use forget_all(subject)")
        return self.store.find(subject, Filter(contains=needle, include_superseded=True))

    def forget_plan(self, subject: str, contains: str | None = None, *,
                    ids: Sequence[str] | None = None) -> forgetting.Plan:
        """What `forget(subject, contains)` (or `forget_ids(subject, ids)`) would delete, nothing deleted:
        the items asked for, the passages of their messages, the facts extracted from those messages
        and the session summaries covering them (`derived`, each with why), and the extracted facts
        kept because another kept message supports them (`kept`, with why). engram.core.forgetting."""
        subject = validate.subject(subject)
        if (contains is None) == (ids is None):
            raise InvalidInput("say what to forget: a word or phrase, or ids (not both)")
        asked = self.matches(subject, contains) if contains is not None else self.store.get(ids_list(ids))
        return forgetting.plan(self.store, subject, asked)

    def forget(self, subject: str, contains: str) -> int:
        """Delete every memory of `subject` containing `contains` (case-insensitive), everywhere,
        with what was derived from its messages (`forget_plan` lists it first)."""
        reach = self.forget_plan(subject, contains)
        return self._delete(reach.subject, reach.ids, looked_for=contains)

    def forget_ids(self, subject: str, ids: Sequence[str]) -> int:
        """Delete memories of `subject` by id, with what was derived from its messages (a message's
        passages, the facts extracted from it: `forget_plan`); ids of other subjects are left alone."""
        reach = self.forget_plan(subject, ids=ids)
        return self._delete(reach.subject, reach.ids)

    def forget_all(self, subject: str) -> int:
        """Delete every memory of a subject, in every kind and version."""
        subject = validate.subject(subject)
        ids = [it.id for it in self.store.find(subject, Filter(include_superseded=True))]
        return self._delete(subject, ids)

    def _delete(self, subject: str, ids: list[str], looked_for: str | None = None) -> int:
        """Delete from the store, then from this process's ANN indexes (engram.core.vectors).
        `self.leftovers` then says what the store could not scrub yet (a concurrent reader), or None:
        copies of `looked_for` (as `audit` counts them), else of the deleted texts."""
        self._accesses.flush_quietly()
        texts = ([looked_for] if looked_for else [it.text for it in self.store.get(ids)]
                 if isinstance(self.store, ScrubStatus) else [])
        count = self.store.delete(subject, ids)
        nearest.after_delete(self.store, subject)
        self.leftovers = (self.store.leftovers(texts)
                          if isinstance(self.store, ScrubStatus) and count else None)
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
        """Every subject in the store with its number of current items (history not counted)."""
        return {name: n["items"] for name, n in self.store.counts()["per_subject"].items()}

    def stats(self, subject: str | None = None) -> dict[str, Any]:
        """Figures for one subject or the whole store, counted by the store in SQL (no row is read).

        "items" are current items (what `list` shows, by kind in "by_kind"); "history" counts the
        superseded versions separately. `per_subject` gives both for each subject; sessions, the
        episode success rate, time span, access and importance figures cover the current items
        that recall can return (saved conversations are left out of them).
        """
        names = [validate.subject(subject)] if subject else None
        if len(self._accesses):
            self._accesses.flush_quietly()  # the access figures include every recall so far
        raw = self.store.counts(names)
        episodes = raw["episodes"]

        def rate(n: int, ok: int) -> dict[str, Any]:
            return {"n": n, "succeeded": ok, "success_rate": round(ok / n, 3) if n else None}

        live = raw["live"]
        return {
            "store": self.store.url,
            "subjects": len(names) if names else len(raw["per_subject"]),
            "items": sum(raw["by_kind"].values()),
            "history": raw["history"],
            "conversations": raw["conversations"],  # saved conversations, not counted as items
            "by_kind": raw["by_kind"],
            "per_subject": raw["per_subject"],
            "sessions": raw["sessions"],
            "sessions_summarised": raw["sessions_summarised"],
            "episodes": {**rate(sum(n for _, n, _ in episodes), sum(ok for _, _, ok in episodes)),
                         "by_category": {c: rate(n, ok) for c, n, ok in episodes}},
            "oldest": iso(raw["oldest"]) if raw["oldest"] is not None else None,
            "newest": iso(raw["newest"]) if raw["newest"] is not None else None,
            "never_recalled": raw["never_recalled"],
            "most_recalled": [{"id": i, "text": t, "access_count": n} for i, t, n in raw["most_recalled"]],
            "mean_importance": round(raw["importance_sum"] / live, 3) if live else None,
            "embedder": self.embedder.identity if self.embedder else self.store.setting(EMBEDDER_SETTING),
            # Current items with a vector of the store's model, of those that should have one.
            "vectors": coverage(self.store, self.store.setting(EMBEDDER_SETTING), names),
            "reindex_unfinished": unfinished(self.store),  # the model an interrupted reindex moves to
            "embedder_file": self.store.setting(FILE_SETTING),  # the model file's fingerprint, if it has one
            # The store's bounded caches (entries, bytes, bounds, hit rate), where it has them, and the name books'.
            "cache": {**(self.store.cache_stats() if isinstance(self.store, CacheReport) else {}),
                      "names": people.cache_stats(self.store)},
            # Query embeddings kept for repeated queries (engram.core.queries).
            "query_cache": self.query_cache.stats(),
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

        The store keeps its model until the new one covers every item (engram.core.reindex), so
        recall never loses vectors. `progress(done, total)` is called after each batch. If
        interrupted, run it again: it goes on where it stopped.
        """
        given, path = _store_or_path(db)
        store = given if given is not None else open_store(load(db=path).db)
        try:
            if isinstance(embedder, Embedder):
                model: Embedder | None = embedder
            else:
                spec = load(db=path, embedder=embedder).embedder
                from engram.embed import get_embedder

                model = None if spec in ("none", "off") else get_embedder(spec)
            if model is None:
                raise InvalidInput("reindex needs an embedder: pass one (e.g. embedder='minilm'), not 'none'")
            done = reembed(store, model, batch_size=batch_size, progress=progress)
            if progress is not None:
                progress(done, done)
            mem = cls(store, embedder=model, **options)
        except BaseException:
            if given is None:
                store.close()
            raise
        return mem
