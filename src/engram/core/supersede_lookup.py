"""Which stored facts a new fact is checked against, read from the store once per write (`Batch`).

The rule itself is `engram.core.supersede.detect`; this module finds its candidates cheaply: the
NEIGHBOURS nearest current facts by vector plus the top keyword hits on the fact's probe terms.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from engram.core import ann
from engram.core import vectors as nearest
from engram.core.frames import CATEGORIES, category_of, content_words, read
from engram.core.recall import positions
from engram.core.supersede import detect
from engram.embed.base import Embedder
from engram.store.base import Filter, SearchesVectors, Store
from engram.types import FACT, Item, dedupe_key

#: How many nearest current facts (by vector) are checked on each write, besides keyword hits.
NEIGHBOURS = 20
#: Stored items whose slots `Known` remembers (then it starts over): about 150 bytes each.
KNOWN_MAX = 50_000


class Known:
    """What never changes about a stored item, as far as supersession cares: whether it is an
    unkeyed fact, and then the slots its frames fill (its kind, key and text are fixed for its id).

    A candidate that is not an unkeyed fact, or (for a new fact without a negation) shares none
    of the new fact's slots, can never be superseded by it (`engram.core.supersede.detect` skips
    it), so it is not fetched; only whether the rest are still current is read from the store.
    One per Memory, filled by what it writes and fetches."""

    def __init__(self, limit: int = KNOWN_MAX) -> None:
        self._limit = limit
        self._slots: dict[str, tuple[str, ...] | None] = {}

    def note(self, item: Item) -> None:
        """Remember `item` (written or fetched)."""
        if len(self._slots) >= self._limit:
            self._slots.clear()
        self._slots[item.id] = slots_of(item.text) if item.kind == FACT and item.key is None else None

    def may_close(self, old_id: str, slots: frozenset[str] | None) -> bool:
        """False when the stored item `old_id` can never be superseded by a new fact with these
        slots (None: the new fact negates something, and any unkeyed fact may be closed)."""
        if old_id not in self._slots:
            return True  # not known yet: fetched, then known
        found = self._slots[old_id]
        return found is not None and (slots is None or not slots.isdisjoint(found))


def slots_of(text: str) -> tuple[str, ...]:
    """The slots a fact's frames fill."""
    return tuple(dict.fromkeys(f.slot for f in read(text) if f.slot))


def _new_slots(text: str) -> frozenset[str] | None:
    """What an old fact must share to be superseded by `text`: one of its slots, or (None) any
    fact at all when it negates something (`engram.core.supersede.detect`)."""
    frames = read(text)
    return None if any(f.negates for f in frames) else frozenset(f.slot for f in frames if f.slot)


class Batch:
    """Supersession for items written together, decided as if each were written in turn.

    Only a fact with a frame or a negation is checked. Its candidates: the NEIGHBOURS nearest
    facts from recall's vector search (`engram.core.vectors.scores`; below the ANN crossover a
    batch shares one product per 64 facts), plus the top 50 keyword hits on its probe terms (a
    named holder's whole name; for the user's own facts the slot's words and negated values,
    which similarity alone misses: "Lives in Berlin" and "Moved to Porto" are far apart for
    MiniLM), plus every fact written earlier in the batch; only current, unkeyed facts. So the
    work per write is bounded by those counts, not by the subject's size. The store is read
    once, before the batch changes it: one vector search per fact, one keyword search per
    distinct set of probe terms, one fetch of every candidate. A fact closed earlier in the batch is no longer
    current for later ones, and a duplicate is not written, so it closes nothing. Where this can
    differ from `remember` one by one is the cut-off of the top hits: an earlier fact of the batch
    that shares a slot is always a candidate, where a sequential write sees it only if it ranks in
    the top NEIGHBOURS / top 50 keyword hits, and the store's hits are taken without the batch's
    own facts competing (on 1,000 synthetic bench facts, 2 outcomes of 1,000 differed in an empty
    subject and 9 in a subject of 10,000; the batch closed 2-3 facts more).

    Use: `Batch(store, embedder, items)` reads what needs no vector (the keyword hits and their
    facts), `place(vectors)` the rest; then for each
    item in order, `facts(item)` (or `keyed(item)`), then `add(item, closed ids)`.
    """

    def __init__(self, store: Store, embedder: Embedder | None, check: Sequence[Item],
                 vectors: Mapping[str, np.ndarray] | None = None, known: Known | None = None) -> None:
        self.store = store
        self._embedder = embedder
        self._known = known if known is not None else Known()
        self._vectors: dict[str, np.ndarray] = {}
        self._written: list[Item] = []
        self._position: dict[str, int] = {}
        self._facts: dict[str, list[int]] = {}  # subject -> positions of its unkeyed facts
        self._by_slot: dict[tuple[str, str], list[int]] = {}  # (subject, slot) -> positions of those facts
        self._closed: dict[str, int] = {}  # old id -> position of the batch item that closed it
        self._duplicate: dict[str, bool] = {}
        self._found: dict[str, list[tuple[Item, float]]] = {}
        self._fetched: dict[str, Item | None] = {}  # stored id -> the current unkeyed fact it is, or None
        checked = [it for it in check if it.kind == FACT and it.key is None and read(it.text)]
        self._checked = {subject: [it for it in checked if it.subject == subject]
                         for subject in dict.fromkeys(it.subject for it in checked)}
        self._slots = {it.id: _new_slots(it.text) for it in checked}
        # What needs no vector is read now: the keyword hits and the facts they name.
        self._hits = {subject: self._keyword_hits(subject, items) for subject, items in self._checked.items()}
        self._fetch([i for items in self._checked.values() for it in items for i in self._hits[it.subject][it.id]
                     if self._known.may_close(i, self._slots[it.id])])
        self._placed = False
        if vectors is not None:
            self.place(vectors)

    def place(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Given the new items' vectors, read the rest: each new fact's nearest stored facts and
        the cosines of all its candidates. Called once, before `facts`."""
        assert not self._placed, "place() is called once"
        self._placed = True
        self._vectors.update(vectors)
        for subject, items in self._checked.items():
            self._look_up(subject, items)

    # -- reading the store once -----------------------------------------------------------
    def _look_up(self, subject: str, items: list[Item]) -> None:
        """Each new fact's candidates in the store as it is before the batch, with cosines."""
        if self._embedder is not None and isinstance(self.store, SearchesVectors):
            return self._look_up_in_store(subject, items, self.store)
        ids, matrix = self._subject_vectors(subject, items)
        rows = positions(ids)  # recall's id -> row map, cached with the store's id list
        near = self._neighbours(subject, ids, matrix, items)
        hits = self._hits[subject]
        wanted = {it.id: list(dict.fromkeys(near.get(it.id, []) + hits[it.id])) for it in items}
        current = self._current_facts(subject, wanted)
        for item in items:
            self._found[item.id] = list(zip(current[item.id], self._cosines(matrix, rows, current[item.id], item)))

    def _look_up_in_store(self, subject: str, items: list[Item], finder: SearchesVectors) -> None:
        """`_look_up` on a store that searches its vectors itself (PostgreSQL + pgvector): one
        nearest query per fact brings back its NEIGHBOURS nearest (cosine, then write order, as
        the exact scan ranks them) and the cosines of its keyword hits; no matrix leaves the store."""
        assert self._embedder is not None  # checked by the caller
        model = self._embedder.identity
        hits = self._hits[subject]
        missing = [it for it in items if it.id not in self._vectors]
        if missing and finder.vector_ids(subject, model):
            self._vectors.update(zip((it.id for it in missing), self._embedder.embed([it.text for it in missing])))
        wanted: dict[str, list[str]] = {}
        cosines: dict[str, Mapping[str, float]] = {}
        for item in items:
            vector = self._vectors.get(item.id)
            answer = None if vector is None else finder.nearest(
                subject, model, np.asarray(vector, dtype=np.float32), NEIGHBOURS, hits[item.id])
            cosines[item.id] = answer.cosines if answer is not None else {}
            wanted[item.id] = list(dict.fromkeys([*(answer.nearest if answer is not None else ()), *hits[item.id]]))
        for item_id, found in self._current_facts(subject, wanted).items():
            self._found[item_id] = [(old, cosines[item_id].get(old.id, 0.0)) for old in found]

    def _fetch(self, ids: Sequence[str]) -> None:
        """Read the stored items among `ids` not read yet (one query), keeping the current unkeyed facts."""
        todo = [i for i in dict.fromkeys(ids) if i not in self._fetched]
        if not todo:
            return
        self._fetched.update(dict.fromkeys(todo))
        for it in self.store.get(todo):
            self._known.note(it)
            if it.kind == FACT and it.key is None and it.current:
                self._fetched[it.id] = it

    def _current_facts(self, subject: str, wanted: Mapping[str, list[str]]) -> dict[str, list[Item]]:
        """New fact id -> its wanted candidates that are current unkeyed facts of the subject and
        could be superseded by it (`Known`: the others are not fetched)."""
        wanted = {new: [i for i in ids if self._known.may_close(i, self._slots[new])] for new, ids in wanted.items()}
        self._fetch([i for w in wanted.values() for i in w])
        out: dict[str, list[Item]] = {}
        for new, ids in wanted.items():
            found = (self._fetched.get(i) for i in ids)
            out[new] = [it for it in found if it is not None and it.subject == subject
                        and self._known.may_close(it.id, self._slots[new])]
        return out

    def _subject_vectors(self, subject: str, items: list[Item]) -> tuple[Sequence[str], np.ndarray]:
        """The subject's stored vectors; new facts without a vector are embedded (one call)."""
        if self._embedder is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        ids, matrix = self.store.vectors(subject, self._embedder.identity)
        missing = [it for it in items if it.id not in self._vectors]
        if ids and missing:
            self._vectors.update(zip((it.id for it in missing), self._embedder.embed([it.text for it in missing])))
        return ids, matrix

    def _neighbours(self, subject: str, ids: Sequence[str], matrix: np.ndarray,
                    items: list[Item]) -> dict[str, list[str]]:
        """The NEIGHBOURS nearest stored vectors of each new fact, from recall's vector search
        (`engram.core.vectors.scores`: an exact scan below the ANN crossover, the subject's ANN
        index above it). Below the crossover a batch of facts shares one product per 64 facts."""
        if not ids or self._embedder is None:
            return {}
        near: dict[str, list[str]] = {}
        if len(items) == 1 or len(ids) > ann.EXACT_MAX_ITEMS:
            for item in items:
                vector = np.asarray(self._vectors[item.id], dtype=np.float32)
                scores = nearest.scores(self.store, subject, self._embedder.identity, ids, matrix, vector, NEIGHBOURS)
                found = np.sort(scores.nearest(NEIGHBOURS))  # row order first: ties stay in write order
                near[item.id] = [ids[i] for i in found[top_stable(scores.at(found), NEIGHBOURS)]]
            return near
        for start in range(0, len(items), 64):  # bounds the block of cosines at 64 x subject size
            block = items[start : start + 64]
            queries = np.stack([np.asarray(self._vectors[it.id], dtype=np.float32) for it in block])
            for item, cosines in zip(block, queries @ matrix.T):
                near[item.id] = [ids[i] for i in top_stable(cosines, NEIGHBOURS)]
        return near

    def _keyword_hits(self, subject: str, items: list[Item]) -> dict[str, list[str]]:
        """Keyword hits on each fact's probe terms; facts of one slot share one search."""
        searched: dict[tuple[str, ...], list[str]] = {}
        hits = {}
        for item in items:
            terms = tuple(_probe_terms(item.text))
            if terms not in searched:
                # exact terms only: a near spelling is a guess, and a guess never supersedes a fact
                found = self.store.keyword(subject, list(terms), Filter(kinds=(FACT,)), 50, near=False)
                searched[terms] = [item_id for item_id, _ in found]
            hits[item.id] = searched[terms]
        return hits

    def _cosines(self, matrix: np.ndarray, rows: Mapping[str, int], found: list[Item], item: Item) -> list[float]:
        """Cosine of `item` with each stored candidate (0.0 without vectors, as for a scan)."""
        if not rows or not found:
            return [0.0] * len(found)
        picked = [rows.get(old.id, -1) for old in found]
        cosines = matrix[[max(r, 0) for r in picked]] @ np.asarray(self._vectors[item.id], dtype=np.float32)
        return [float(c) if r >= 0 else 0.0 for r, c in zip(picked, cosines.tolist())]

    # -- deciding in order ------------------------------------------------------------------
    def facts(self, item: Item) -> dict[str, str]:
        """Old id -> `item.id` for every current fact that `item`, written next, supersedes."""
        assert self._placed or not self._checked, "place(vectors) comes before facts()"
        if item.id not in self._found:  # not an unkeyed fact with a frame: it supersedes nothing
            return {}
        candidates = [(old, s) for old, s in self._found[item.id] if old.id not in self._closed]
        candidates += [(old, self._similarity(old, item)) for old in self._earlier_facts(item)
                       if old.id not in self._closed]
        decisions = detect(item.text, candidates)
        # A duplicate is not inserted, so it closes nothing and was never a candidate.
        if not decisions or self._is_duplicate(item):
            return {}
        return {d.old_id: item.id for d in decisions
                if d.old_id not in self._position or not self._is_duplicate(self._written[self._position[d.old_id]])}

    def keyed(self, item: Item) -> Item | None:
        """The current item with `item`'s subject, kind and key, as of `item`'s turn in the batch."""
        for old in reversed(self._written):
            if ((old.subject, old.kind, old.key) == (item.subject, item.kind, item.key)
                    and old.id not in self._closed and not self._is_duplicate(old)):
                return old
        found = self.store.find(item.subject, Filter(kinds=(item.kind,), key=item.key), limit=1)
        return found[0] if found and found[0].id not in self._closed else None

    def add(self, item: Item, closes: Sequence[str]) -> None:
        """`item` is written next and closes `closes` (ids), so later items see it and not them."""
        position = len(self._written)
        self._position[item.id] = position
        self._written.append(item)
        self._known.note(item)
        for old_id in closes:
            self._closed.setdefault(old_id, position)
        if item.kind == FACT and item.key is None:
            self._facts.setdefault(item.subject, []).append(position)
            for slot in dict.fromkeys(f.slot for f in read(item.text) if f.slot):
                self._by_slot.setdefault((item.subject, slot), []).append(position)

    def _earlier_facts(self, item: Item) -> list[Item]:
        """The batch's earlier unkeyed facts that `item` could supersede: all of them for a
        negation, else those sharing one of its slots (`_decide` needs one or the other)."""
        frames = read(item.text)
        if any(f.negates for f in frames):
            positions = self._facts.get(item.subject, [])
        else:
            positions = sorted({p for f in frames if f.slot for p in self._by_slot.get((item.subject, f.slot), [])})
        return [self._written[p] for p in positions]

    def _similarity(self, old: Item, item: Item) -> float:
        a, b = self._vectors.get(old.id), self._vectors.get(item.id)
        return 0.0 if a is None or b is None else float(np.dot(a, b))

    def _is_duplicate(self, item: Item) -> bool:
        """A current item, as of just before `item`'s turn, has its text and kind (so it is not inserted)."""
        if item.id in self._duplicate:
            return self._duplicate[item.id]
        position = self._position.get(item.id, len(self._written))
        key = dedupe_key(item.kind, item.content_hash)

        def current(old_id: str) -> bool:
            return self._closed.get(old_id, position) >= position

        duplicate = key is not None and (
            any(old.subject == item.subject and dedupe_key(old.kind, old.content_hash) == key
                and current(old.id) and not self._is_duplicate(old) for old in self._written[:position])
            or any(current(old.id) for old in self.store.find(
                item.subject, Filter(kinds=(item.kind,), content_hash=item.content_hash), limit=1)))
        self._duplicate[item.id] = duplicate
        return duplicate


def top_stable(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores, highest first, ties in index order (as a stable sort)."""
    if len(scores) > k:
        threshold = scores[np.argpartition(-scores, k - 1)[:k]].min()
        above = np.flatnonzero(scores >= threshold)
    else:
        above = np.arange(len(scores))
    return above[np.argsort(-scores[above], kind="stable")][:k]


def _probe_terms(text: str) -> list[str]:
    """Words that an old fact of the same slot probably shares: the named holder (one term, so
    "bruno chen" must appear whole, not every Bruno's facts), negated values; for the user's own
    facts, slot verbs and purpose words as well. Kept selective: the search costs per match."""
    frames = read(text)
    terms: set[str] = set()
    for frame in frames:
        for negated in frame.negates:
            terms |= content_words(negated)
        if frame.holder not in ("self", "team"):
            terms.add(frame.holder)
            continue
        slot = (frame.slot or "").split(":")[0]
        terms |= set(_SLOT_WORDS.get(slot, ()))
        if frame.slot and ":" in frame.slot:
            terms |= set(frame.slot.split(":", 1)[1].split())
        if frame.slot and frame.slot.startswith("choice:"):
            category = category_of(frame.value)
            terms |= set(CATEGORIES.get(category or "", "").split())
    return sorted(t for t in terms if t)


_SLOT_WORDS = {
    "location": ("lives", "live", "living", "based", "moved", "resides", "relocated", "home"),
    "employer": ("works", "work", "joined", "employed", "job", "hired"),
    "role": ("works", "promoted", "title", "role", "position"),
    "choice": ("uses", "use", "using", "switched", "runs", "replaced", "prefers", "prefer"),
    "favourite": ("favourite", "favorite"),
    "age": ("years", "age", "old", "turned"),
    "team": ("team", "department", "group", "squad"),
    "diet": ("vegetarian", "vegan", "pescatarian", "diet"),
    "relationship": ("single", "married", "engaged", "divorced", "widowed"),
    "car": ("drives", "car"),
    "commute": ("commutes", "commute", "office", "work"),
    "count": ("has", "have"),
}
