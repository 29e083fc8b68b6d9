"""A user's standing instructions in a conversation, and the one a question falls under.

A user who says "Always use APA 7th edition citation style when I ask about formatting
references" means it for every later request on that topic, and those requests rarely repeat its
words ("How should I list the sources I used in my paper?"); among a long chat's many messages
on the topic, the instruction itself ranks far down. So the conversation verb marks a user's
message that starts as a standing instruction ("Always ...", "Never ...", "From now on ...":
`instructs`) with metadata `standing` (on the message and its passages), and recall (`place`)
compares the question with what each of the subject's marked instructions applies to (`condition`:
"formatting references"; the whole instruction when it names nothing): when the closest one is at
least PLACE_COSINE alike and stands PLACE_GAP above the next closest instruction (it is *the* one
that applies, not one of several equally vague ones), its message is placed at PLACE (third)
unless it already ranks there or higher. Explain names it (`standing_place`). Recall with
`k` below PLACE never shows it: a single best answer stays the best answer. The ids of a
subject's marked passages are kept in step with its vector ids (`marked_ids`: only new items are
read), so a recall reads just those few items and vectors.

`standing` (a standing instruction or a stated preference, "I prefer ...") is what the ranking
lifts (engram.core.collapse.STANDING) among the hits it already has.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
from cachetools import LRUCache

from engram.core import ranking
from engram.core.queries import QueryCache
from engram.embed.base import Embedder
from engram.store import Filter, Store
from engram.store.base import SearchesVectors
from engram.types import PASSAGE, Hit, Item

#: The metadata key the conversation verb marks a standing instruction's message and passages with.
MARK = "standing"
#: The place (1-based) an applicable standing instruction is given among the hits.
PLACE = 3
#: The least cosine between the question and what the placed instruction applies to (`condition`).
PLACE_COSINE = 0.4
#: How far the placed instruction's cosine stands above the next closest instruction's.
PLACE_GAP = 0.2
#: How much of a user's message is read for a stated preference (it is said in the prose, not in
#: the code or logs pasted after it; a bound keeps recall's cost flat on long messages).
PREFERENCE_CHARS = 4000
_INSTRUCTS = re.compile(r"^\W*(?:please\s+)?(?:always|never|from now on)\b", re.IGNORECASE)
# A preference the user states anywhere in the message ("..., and I prefer concrete examples, so ...").
_PREFERS = re.compile(r"\bI(?:\s+(?:really\s+|usually\s+|generally\s+|always\s+|strongly\s+)?(?:would\s+)?"
                      r"(?:prefer|rather)|['’]d\s+(?:prefer|rather))\b", re.IGNORECASE)


# What a standing instruction applies to: "... when I ask about formatting references", "... if I ask for a recipe".
_CONDITION = re.compile(r"\b(?:when(?:ever)?|if)\s+I\s+(?:ask|request|need|want|inquire|am\s+asking)\b"
                        r"(?:\s+(?:you|for|about|on|regarding))*\s+(?P<topic>\S.*?)\s*[.!]?\s*$", re.IGNORECASE | re.DOTALL)
#: Vectors of instructions' conditions, kept across recalls (a subject has few, asked again and again).
CONDITIONS = QueryCache(1024)


def condition(text: str) -> str | None:
    """What a standing instruction says it applies to ("Always use APA style when I ask about
    formatting references." -> "formatting references"), or None when it says no "when I ask ..."."""
    found = _CONDITION.search(text)
    return found.group("topic") if found else None


def instructs(text: str) -> bool:
    """True for a text that starts as a standing instruction ("Always ...", "Never ...", "From now
    on ..."); English."""
    return bool(_INSTRUCTS.match(text))


def standing(message: Item) -> bool:
    """True for a user's message that starts as a standing instruction (`instructs`) or states a
    preference ("I prefer ...", "I'd rather ..."); English."""
    if message.metadata.get("role") != "user":
        return False
    return instructs(message.text) or bool(_PREFERS.search(message.text, 0, PREFERENCE_CHARS))


def place(store: Store, embedder: Embedder | None, subject: str, query: str, hits: Sequence[Hit], k: int,
          where: Filter, queries: QueryCache | None = None, min_score: float | None = None) -> list[Hit]:
    """`hits` (best first) with the standing instruction the question falls under at PLACE, if the
    subject has one that applies (see the module's docstring) and `where` lets messages through;
    else `hits` as they were. At most `k` hits."""
    out = list(hits)
    if k < PLACE or embedder is None or not _finds_passages(where):
        return out[:k]
    ids = marked_ids(store, subject, embedder.identity)
    marked = [it for it in store.get(list(ids)) if where.accepts(it)] if ids else []
    found = store.item_vectors(subject, embedder.identity, [it.id for it in marked]) if marked else {}
    marked = [it for it in marked if it.id in found]
    if not marked:
        return out[:k]
    query_vector = queries.embed(embedder, query) if queries is not None else embedder.embed([query])[0]
    # An instruction is compared by what it applies to ("when I ask about ..."), not by what it asks
    # for: "Always include tree diagrams when I ask about dependent events" is about dependent events.
    conditions = {it.id: c for it in marked if (c := condition(it.text))}
    said = dict(zip(conditions, CONDITIONS.embed_many(embedder, list(conditions.values())))) if conditions else {}
    cosines = [ranking.cosine(np.asarray(query_vector), said.get(it.id, found[it.id])) for it in marked]
    order = sorted(range(len(marked)), key=lambda n: -cosines[n])
    best = cosines[order[0]]
    runner_up = cosines[order[1]] if len(order) > 1 else 0.0
    if best < PLACE_COSINE or best - runner_up < PLACE_GAP:
        return out[:k]
    passage = marked[order[0]]
    message_id = str(passage.metadata.get("message"))
    position = next((n for n, h in enumerate(out) if h.id == message_id), None)
    if position is not None and position < PLACE:
        return out[:k]
    messages = store.get([message_id])  # its passage passed `where`: so does it
    score = ranking.relevance(best, ranking.overlap(ranking.keyword_terms(query), passage.text), best, False)
    if not messages or (min_score is not None and score < min_score):
        return out[:k]
    rest = [h for h in out if h.id != message_id]
    before = rest[: PLACE - 1]
    rank = before[-1].rank if before else 0.0
    hit = Hit(item=messages[0], score=score, rank=rank,
              components={"standing_place": rank, "cosine": best} if out and out[0].components else {},
              passage=passage.text, passage_id=passage.id)
    return [*before, hit, *rest[PLACE - 1:]][:k]


#: Up to this many items written since the last recall are read to find new marks; more (a transcript
#: added since), and the store is asked for the marked ones instead.
FEW_NEW = 500
#: Subjects whose marked passages one store's recalls remember (the least recently asked are dropped first).
MAX_SUBJECTS = 1024
_MARKED: weakref.WeakKeyDictionary[Any, LRUCache[tuple[str, str], tuple[int, str | None, tuple[str, ...]]]] = \
    weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def marked_ids(store: Store, subject: str, model: str) -> tuple[str, ...]:
    """The ids of the subject's passages marked as standing instructions, kept in step with the
    subject's vector ids (the store's list, in write order): while it only grows by a few, only the
    new items are read; when it grew by more than FEW_NEW or changed otherwise (something was
    forgotten), the marked ones are looked up again. Ids only: the items themselves are read fresh by each recall."""
    ids = store.vector_ids(subject, model) if isinstance(store, SearchesVectors) else store.vectors(subject, model)[0]
    with _LOCK:
        cache = _MARKED.get(store)
        if cache is None:
            cache = _MARKED[store] = LRUCache(maxsize=MAX_SUBJECTS)
        seen, last, marked = cache.get((subject, model), (0, None, ()))
    grown = seen and len(ids) >= seen and ids[seen - 1] == last  # ids are unique and new ones come last
    if grown and len(ids) - seen <= FEW_NEW:
        marked += tuple(it.id for it in store.get(list(ids[seen:len(ids)])) if it.kind == PASSAGE and it.metadata.get(MARK))
    elif len(ids):
        marked = tuple(it.id for it in store.find(subject, Filter(kinds=(PASSAGE,), metadata={MARK: True})))
    else:
        marked = ()
    with _LOCK:
        cache[(subject, model)] = (len(ids), ids[len(ids) - 1] if len(ids) else None, marked)
    return marked


def _finds_passages(where: Filter) -> bool:
    """True when recall under `where` searches passages (so a message may be returned)."""
    return (where.kinds is None or PASSAGE in where.kinds) and PASSAGE not in where.exclude_kinds
