"""Which words of a query are people's (or agents') names: read from the subject's own memories.

A query word is a name only when the subject's memories use it as one, never because it is
capitalised (acronyms, product names, units and a sentence-initial "Show" are not names):

- a *speaker*: the leading name of a stored turn (`Melanie said, "..."`, `Bob: ...`, `Ana asked ...`);
- a *full name* leading a stored item (`Bruno Chen uses Emacs ...`): two or three capitalised
  words none of which the subject ever writes in lower case ("Visual Studio Code", "New York"
  fail: "code" and "new" occur in lower case). Its first word is then a name too ("What does
  Bruno like?" is about every Bruno), but the full name is one entity: "Bruno Chen" is not
  "Bruno Sharma".

Who a query is about is the entity term's job: every name a query mentions goes to it, weighted
by how few of the subject's items the name leads (`weights`: a conversation's speakers weigh 1,
one person among hundreds up to ENTITY_MAX), and leaves the text that is embedded (a small
embedding model does not tell "Bruno Chen" from "Bruno Sharma"; BM25 does, by the IDF of
"chen", so the keyword search keeps the names). The items led by a rare name are candidates
whatever their score (`led`), so a person's memory is found however few words it shares with
the question.

Matching a query is case-insensitive ("bruno chen", "Bruno Chen" and "BRUNO CHEN" are the same
name), so the case of a query word never decides what ranks first.

`SubjectNames` holds the counts for one subject, and the ids of the items each name leads (for
`led`), and is kept incrementally: `book()` compares the
store's write-ordered id list (cached by the store until the subject changes) with the last one
it saw and reads only the items written since; when items were forgotten it counts the subject
again from its items, so forgetting an item removes its names with it. Nothing is stored on disk.
The books of one store live in one bounded LRU cache (engram.store.cache: at most MAX_BOOKS
subjects and ENGRAM_CACHE_MB); a subject whose book was dropped is counted again on its next
recall, and `cache_stats(store)` gives the hit rate for `Memory.stats`.
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.core.ranking import QUESTION_WORDS, vector_query
from engram.language.stem import name_key
from engram.language.stopwords import STOP_WORDS
from engram.store.base import ReadsTexts
from engram.store.cache import BoundedCache

# A name-shaped word: a capital then lower-case letters (apostrophes and hyphens inside), no digits.
_NAME_WORD = re.compile(r"[A-Z][a-z]+(?:['’-][A-Za-z]+)*")
_WORD = re.compile(r"[\w'’-]+", re.UNICODE)
_LOWER = re.compile(r"\b[a-z][a-z'’-]+\b")
# What follows a speaker's name at the start of a turn: a colon, or a verb of saying and a quote.
_SPEAKS = re.compile(r"\s*(?::|(?:said|says|asked|asks|replied|replies|wrote|writes|answered)[,:]?\s*[\"“'‘])")
MAX_NAME_WORDS = 3
# The most a name weighs in the entity term (`SubjectNames.weights`: log2(1 / share), at least 1):
# reached by a name leading 1/256 of the items or fewer, where it outweighs any topic match.
ENTITY_MAX = 8.0
# Words that are never names, however a store writes them.
NOT_NAMES = STOP_WORDS | QUESTION_WORDS


@dataclass(frozen=True)
class Naming:
    """What one stored text says about names: its leading name-shaped phrase (lower case, or
    None), whether that phrase is a speaker's, and the lower-case words the text uses."""

    lead: str | None
    speaker: bool
    lower: frozenset[str]


def read_text(text: str) -> Naming:
    """The naming evidence of one stored text (pure): `Bruno Chen uses Emacs.` leads with
    "bruno chen"; `Melanie said, "Hi!"` leads with the speaker "melanie"."""
    lead, speaker = _lead(text)
    return Naming(lead, speaker, frozenset(_LOWER.findall(text)))


def _lead(text: str) -> tuple[str | None, bool]:
    """The text's leading name-shaped phrase (lower case, or None) and whether a speaker's."""
    stripped = text.lstrip()
    words: list[str] = []
    end = 0
    for match in _WORD.finditer(stripped):
        if match.start() != end + (1 if words else 0) or len(words) == MAX_NAME_WORDS:
            break
        word = match.group(0)
        bare = word.removesuffix("'s").removesuffix("’s")
        if not _NAME_WORD.fullmatch(bare) or bare.lower() in NOT_NAMES:
            break
        words.append(bare.lower())
        end = match.end()
        if bare != word:  # a possessive ends the name: "Alice's cat ..."
            break
    if not words:
        return None, False
    return " ".join(words), bool(_SPEAKS.match(stripped, end))


def _led_keys(lead: str | None, speaker: bool) -> tuple[str, ...]:
    """The phrases an item is found under in `SubjectNames.led`: its lead, and a full name's first word."""
    if lead is None:
        return ()
    if " " in lead and not speaker:
        return lead, lead.split(" ", 1)[0]
    return (lead,)


@dataclass(frozen=True)
class Mentions:
    """What a query says about people, as recall uses it: `text`, the query without the names it
    mentions (what is embedded), the `names`, their `weights` in the entity term, and the items
    that lead with them (`led`: id -> weight)."""

    text: str
    names: frozenset[str] = frozenset()
    weights: Mapping[str, float] = field(default_factory=dict)
    led: Mapping[str, float] = field(default_factory=dict)


class SubjectNames:
    """The names one subject's memories use, counted over its items."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self._synced: tuple[int, str | None] = (0, None)  # length and last id of the list last synced to
        self._items = 0
        self._speakers: Counter[str] = Counter()
        self._leads: Counter[str] = Counter()
        self._firsts: dict[str, Counter[str]] = {}  # first word -> full names led by it
        self._lower: Counter[str] = Counter()
        self._led: dict[str, set[str]] = {}  # lead phrase (and a full name's first word) -> item ids

    def __len__(self) -> int:
        return len(self.names())

    def add(self, *items: tuple[str, str]) -> None:
        """Count stored items, given as (id, text) (the lower-case words of all of them in one pass)."""
        self._items += len(items)
        self._lower.update(_LOWER.findall("\n".join(text for _, text in items)))  # a word's uses: only > 0 matters
        for item_id, text in items:
            lead, speaker = _lead(text)
            if lead is None:
                continue
            (self._speakers if speaker else self._leads)[lead] += 1
            if " " in lead and not speaker:
                self._firsts.setdefault(lead.split(" ", 1)[0], Counter())[lead] += 1
            for key in _led_keys(lead, speaker):
                self._led.setdefault(key, set()).add(item_id)

    def size(self) -> int:
        """Roughly the bytes the counts and the led items hold (what the book cache weighs)."""
        entries = len(self._speakers) + len(self._leads) + len(self._lower) + sum(map(len, self._firsts.values()))
        return 200 + 120 * entries + 90 * sum(map(len, self._led.values()))

    def is_name(self, phrase: str) -> bool:
        """True when the subject's memories use `phrase` (lower case, single spaces) as a name."""
        if self._speakers[phrase] > 0:
            return True
        words = phrase.split(" ")
        if any(self._lower[w] > 0 for w in words):
            return False
        if len(words) > 1:
            return self._leads[phrase] > 0
        return any(n > 0 and self.is_name(full) for full, n in self._firsts.get(phrase, Counter()).items())

    def share(self, phrase: str) -> float:
        """The share of the subject's items that lead with `phrase` (a first name counts the full
        names it starts)."""
        led = self._speakers[phrase] + self._leads[phrase] + sum(self._firsts.get(phrase, Counter()).values())
        return led / max(1, self._items)

    def weights(self, names: frozenset[str]) -> dict[str, float]:
        """Each of `names` weighted by how few of the subject's items it leads: log2(1 / share),
        between 1 and ENTITY_MAX. A conversation's speakers (half the items each, or more) weigh 1;
        a person among hundreds (a dozen items in thousands) weighs ENTITY_MAX: naming them says
        far more about which memory is meant."""
        return {n: min(ENTITY_MAX, max(1.0, -math.log2(max(self.share(n), 2.0 ** -ENTITY_MAX)))) for n in names}

    def led(self, names: frozenset[str], limit: int) -> dict[str, float]:
        """The items that lead with one of `names`, each with that name's weight (`weights`; the
        heaviest when several), for names that lead at most `limit` items: recall adds them to its
        candidates, so a person's memories are found however far their words are from the query."""
        weights = self.weights(names)
        out: dict[str, float] = {}
        for name in names:
            items = self._led.get(name, ())
            if len(items) <= limit:
                for item_id in items:
                    out[item_id] = max(weights[name], out.get(item_id, 0.0))
        return out

    def read(self, query: str, limit: int) -> Mentions:
        """The names `query` mentions and what recall does with them (`Mentions`); `limit` as in `led`."""
        names = self.mentioned(query)
        if not names:
            return Mentions(query)
        return Mentions(vector_query(query, names), names, self.weights(names), self.led(names, limit))

    def names(self) -> frozenset[str]:
        """Every name in the book (for inspection and tests)."""
        candidates = set(self._speakers) | set(self._leads) | set(self._firsts)
        return frozenset(c for c in candidates if self.is_name(c))

    def mentioned(self, query: str) -> frozenset[str]:
        """The names a query mentions, case-insensitively, longest first: "What does bruno chen
        use?" -> {"bruno chen"}; possessives count ("Melanie's kids" -> {"melanie"})."""
        words = [name_key(w) for w in _WORD.findall(query)]
        found: set[str] = set()
        i = 0
        while i < len(words):
            for size in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
                phrase = " ".join(words[i : i + size])
                if phrase not in NOT_NAMES and self.is_name(phrase):
                    found.add(phrase)
                    i += size
                    break
            else:
                i += 1
        return frozenset(found)

    def sync(self, store: Any, subject: str, ids: Sequence[str]) -> None:
        """Bring the book up to `ids`, the subject's items in write order: reads only new items,
        or every item again when some were forgotten (the list no longer extends the last one)."""
        with self._lock:
            seen, last = self._synced
            # Ids are unique and new ones come last: the same id at the same place means nothing before it moved.
            if len(ids) >= seen and (seen == 0 or ids[seen - 1] == last):
                added: Sequence[str] = ids[seen:]
            else:
                self._reset()
                added = ids
            if added:
                self.add(*_texts(store, subject, added, whole=len(added) == len(ids)))
            self._synced = (len(ids), ids[-1] if ids else None)


def _texts(store: Any, subject: str, ids: Sequence[str], whole: bool) -> list[tuple[str, str]]:
    """(id, text) of `ids`: for a whole subject, one narrow read of its texts where the store has
    one (ReadsTexts), else the items in chunks."""
    if whole and isinstance(store, ReadsTexts):
        texts = dict(store.item_texts(subject))
        return [(i, texts[i]) for i in ids if i in texts]
    return [(item.id, item.text) for start in range(0, len(ids), 500)
            for item in store.get(list(ids[start : start + 500]))]


#: Subjects whose book one store keeps in memory (the least recently recalled are dropped first).
MAX_BOOKS = 1024
_BOOKS: weakref.WeakKeyDictionary[Any, BoundedCache[SubjectNames]] = weakref.WeakKeyDictionary()
_BOOKS_LOCK = threading.Lock()


def book(store: Any, subject: str, model: str, ids: Sequence[str]) -> SubjectNames:
    """The name book of `subject` in `store`, synced to its id list `ids` (from the store)."""
    with _BOOKS_LOCK:
        books = _BOOKS.get(store)
        if books is None:
            books = _BOOKS[store] = BoundedCache(max_entries=MAX_BOOKS)
        names = books.get(subject, model)
        if names is None:
            names = SubjectNames()
    names.sync(store, subject, ids)
    books.put(subject, model, names, names.size())  # (again): most recent, its size now
    return names


def cache_stats(store: Any) -> dict[str, float | int]:
    """Entries, bytes, bounds and hit rate of the store's name books (empty before the first recall)."""
    with _BOOKS_LOCK:
        books = _BOOKS.get(store)
    return books.stats() if books is not None else {}
