"""Near spellings: the term of a subject's keyword vocabulary that a query word missing from it most likely meant.

A query word whose term has no posting in the subject ("flgas", "pasport", "brithday", "manger")
is matched to a vocabulary term within a small Damerau-Levenshtein distance (adjacent swaps count
one edit) that begins with the same letter (people rarely mistype the first one): none for words
under MIN_LETTERS letters or with a digit, 1 up to 8 letters, 2 from TWO_EDITS_FROM. The index
holds Porter stems and the user typed a word, so a term `t` is near a word `w` when

- `w`'s own term is within the distance of `t` ("brithday" -> "brithdai" ~ "birthdai"), or
- a prefix of `w` is, and `t` followed by the rest of `w` stems to `t` ("manger": "mang" ~ "manag",
  and "manag" + "er" = "manager" stems to "manag"; "editer" ~ "editor").

Of the terms found, the nearest wins, then the one more of the subject's items hold. Recall
scores it below an exact match (`NEAR_WEIGHT` of its BM25, engram.store.keyword.score), and
embeds the query with the word respelt when the embedding model does not know the typed word
(`Near.word`: "flgas" -> "flags", "manger" -> "manager", "brithday" -> "birthday";
engram.store.keyword.spellings, engram.core.recall).

The distance is rapidfuzz's (C++, maintained, wheels for every platform, no dependencies): its
`process.extract` compares one word with thousands of terms in a call. The vocabulary is read
from the index itself (engram.store.keyword.VOCABULARY: both backends, the same tables) and kept
per subject while the subject only grows a little (`Vocabularies`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from engram.store.cache import BoundedCache

#: Words shorter than this are never matched to another term ("many" / "main", "wine" / "line").
MIN_LETTERS = 5
#: From this many letters a word may be two edits away from its term, below it one.
TWO_EDITS_FROM = 9
#: How much of its BM25 a near term counts for, against 1 for a term the query word has.
NEAR_WEIGHT = 0.5
#: Letters of a word's end that may follow the part matched against a term ("manag" + "er").
MAX_SUFFIX = 3
#: Vocabularies kept (one per subject and store: as many subjects as the store's other caches
#: hold, so a server answering hundreds of subjects does not read one again every few recalls),
#: and their bound in bytes (about 80 a term).
MAX_VOCABULARIES = 1024
MAX_BYTES = 64 << 20


def budget(text: str) -> int:
    """How many edits away from `text` (a word, its term or a prefix of it) a term may be."""
    if len(text) < MIN_LETTERS - 1 or not text.isalpha():
        return 0
    return 2 if len(text) >= TWO_EDITS_FROM else 1


def eligible(word: str) -> bool:
    """Whether a query word may stand for another term: MIN_LETTERS letters or more, no digit."""
    return len(word) >= MIN_LETTERS and word.isalpha()


class Near(NamedTuple):
    """The term a misspelt word stands for, its distance, and the word respelt (a word that stems
    to the term, for the text recall embeds), when one is found."""

    term: str
    distance: int
    word: str | None


class Vocabulary:
    """One subject's keyword terms, with how many of its items hold each."""

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = dict(counts)
        self._by_start: dict[tuple[str, int], list[str]] = {}
        for term in sorted(self.counts):
            self._by_start.setdefault((term[:1], len(term)), []).append(term)

    def __len__(self) -> int:
        return len(self.counts)

    def _within(self, text: str, edits: int) -> dict[str, int]:
        """The terms at most `edits` away from `text` that begin with its letter, with their distance."""
        choices = [t for n in range(max(len(text) - edits, MIN_LETTERS - 1), len(text) + edits + 1)
                   for t in self._by_start.get((text[:1], n), ())]
        found = process.extract(text, choices, scorer=DamerauLevenshtein.distance, score_cutoff=edits, limit=None)
        return {term: int(distance) for term, distance, _ in found}

    def near(self, word: str, term: str, stem: Callable[[str], str | None]) -> Near | None:
        """The vocabulary term `word` (whose own term is `term`) most likely meant; None when no
        term is near enough. `stem` gives a word's single term."""
        word = word.lower()
        if not eligible(word) or term in self.counts:
            return None
        found = {t: (d, "") for t, d in self._within(term, budget(term)).items()}
        for cut in range(MAX_SUFFIX + 1):
            prefix, rest = word[: len(word) - cut], word[len(word) - cut :]
            if len(prefix) < MIN_LETTERS - 1:
                break
            for candidate, distance in self._within(prefix, budget(prefix)).items():
                if distance < found.get(candidate, (3, ""))[0] and stem(candidate + rest) == candidate:
                    found[candidate] = (distance, candidate + rest)
        found.pop(term, None)
        if not found:
            return None
        best = min(found, key=lambda t: (found[t][0], -self.counts[t], t))
        distance, spelt = found[best]
        if not spelt:  # the word's stem was near: put the term in its place ("brithday" -> "birthday")
            same = next((i for i, (a, b) in enumerate(zip(term, word)) if a != b), min(len(term), len(word)))
            spelt = best[: len(best) - (len(term) - same)] + word[same:]
        return Near(best, distance, spelt if stem(spelt) == best else None)


class Vocabularies:
    """A store's vocabularies, one per subject, each kept while its subject only grows a little.

    A vocabulary is read again when the subject's item count or token total fell (something was
    forgotten or rewritten: its terms must not linger) or grew by more than a STALE_SHARE of the
    items it was read with; until then the terms of the newest items may be missing, which costs
    a near match at most. A held term whose postings are gone (an item removed and another of the
    same size added) is caught where a near match is used: the vocabulary is read again. At 100,000 items a read
    takes about half a second, so rereading at every write would stall the recall after it."""

    def __init__(self) -> None:
        self._cache: BoundedCache[tuple[tuple[int, int], Vocabulary]] = BoundedCache(MAX_VOCABULARIES, MAX_BYTES)

    def get(self, subject: str, generation: tuple[int, int], read: Callable[[], Mapping[str, int]]) -> Vocabulary:
        """The subject's vocabulary for `generation` (its item count and token total), read with
        `read` when none is held or the one held is too old for it (see the class)."""
        held = self._cache.get(subject, "vocabulary")
        if held is not None and current(held[0], generation):
            return held[1]
        vocabulary = Vocabulary(read())
        self._cache.put(subject, "vocabulary", (generation, vocabulary), 80 * len(vocabulary) + 1)
        return vocabulary

    def drop(self, subject: str) -> None:
        """Forget the subject's held vocabulary: the next `get` reads it again."""
        self._cache.drop(subject, "vocabulary")


#: How much a subject may grow (a share of its items) before its vocabulary is read again.
STALE_SHARE = 1 / 64


def current(held: tuple[int, int], now: tuple[int, int]) -> bool:
    """Whether a vocabulary read at `held` (items, tokens) still serves a subject at `now`: the
    same, or grown by at most STALE_SHARE of its items with nothing removed."""
    (docs, length), (docs_now, length_now) = held, now
    if (docs, length) == (docs_now, length_now):
        return True
    return docs <= docs_now and length <= length_now and docs_now - docs <= int(docs * STALE_SHARE)
