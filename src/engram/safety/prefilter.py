"""A cheap test that a regex cannot match a text: the literal strings every match must contain.

The instruction rules (engram.safety.lexicon) are a hundred regexes run over every view of a
text, most of them finding nothing. `needles(pattern)` reads a compiled pattern's syntax tree
once and returns strings of which every match (lookaheads included) holds at least one, or None
when it cannot say; `may_match(pattern, text)` is False only when no such string occurs in the
text, and then `pattern.search(text)` is None, so skipping the regex changes no result. Only
runs of plain literals are joined; anything else (a class, a case-insensitive group, a
backreference) either stands alone or makes the part unknown, which is always safe.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["KEPT", "NeedleIndex", "may_match", "needles", "requirements"]

# The regex engine's own parser (the module `re` compiles with; `sre_parse` before Python 3.11).
_NEW = sys.version_info >= (3, 11)
parser: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")
sre: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")

Needles = frozenset[str] | None
_CACHE: dict[re.Pattern[str], tuple[frozenset[str], ...]] = {}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)}
KEPT = 3  # requirements kept per pattern, the most selective first


def _rank(need: frozenset[str]) -> tuple[int, int]:
    """How selective a requirement is: a longer shortest needle, then fewer needles."""
    return min(map(len, need)), -len(need)


def _all(items: Any, ignorecase: bool) -> list[frozenset[str]]:
    """Requirements that every match of a sequence of nodes meets, all of them: its runs of
    literals and what each of its parts requires."""
    out: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and not ignorecase:
            run.append(chr(av))
            continue
        if run:
            out.append(frozenset({"".join(run)}))
            run = []
        if op is not sre.AT:  # an anchor is zero-width and requires nothing; it ends the run (always safe)
            out += _parts(op, av, ignorecase)
    if run:
        out.append(frozenset({"".join(run)}))
    return out


def _best(needs: list[frozenset[str]]) -> Needles:
    return max(needs, key=_rank) if needs else None


def _parts(op: Any, av: Any, ignorecase: bool) -> list[frozenset[str]]:
    if op is sre.SUBPATTERN:
        _, add_flags, _, inner = av
        return _all(inner, ignorecase or bool(add_flags & re.IGNORECASE))
    if op is sre.BRANCH:  # one needle of any alternative: each alternative's best requirement, joined
        found: set[str] = set()
        for alternative in av[1]:
            need = _best(_all(alternative, ignorecase))
            if need is None:
                return []  # one alternative requires nothing
            found |= need
        return [frozenset(found)]
    if op in _REPEATS:
        low, _, inner = av
        return _all(inner, ignorecase) if low >= 1 else []
    if op is getattr(sre, "ATOMIC_GROUP", None):
        return _all(av, ignorecase)
    if op is sre.ASSERT:  # a positive lookahead or lookbehind: its text is in the string too
        return _all(av[1], ignorecase)
    return []  # a class, any character, a negative assertion, a backreference: unknown


def requirements(pattern: re.Pattern[str]) -> tuple[frozenset[str], ...]:
    """Sets of strings such that every match of `pattern` contains a string of each set (at most
    KEPT sets, the most selective); () when nothing is known."""
    if pattern not in _CACHE:
        found: list[frozenset[str]] = []
        if isinstance(pattern.pattern, str) and not pattern.flags & re.IGNORECASE:
            try:
                found = _all(parser.parse(pattern.pattern, pattern.flags), False)
            except (re.error, RecursionError):
                found = []
        _CACHE[pattern] = tuple(sorted(set(found), key=_rank, reverse=True)[:KEPT])
    return _CACHE[pattern]


def needles(pattern: re.Pattern[str]) -> Needles:
    """Strings of which every match of `pattern` contains one (its most selective requirement), or None."""
    return next(iter(requirements(pattern)), None)


def _trie(words: list[str]) -> str:
    """A regex matching each of `words`, factored by common prefixes (one branch per next character)."""
    children: dict[str, list[str]] = {}
    end = False
    for word in words:
        if word:
            children.setdefault(word[0], []).append(word[1:])
        else:
            end = True
    if not children:
        return ""
    branches = [re.escape(first) + _trie(rest) for first, rest in sorted(children.items())]
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if end else body


class NeedleIndex:
    """The needles of many patterns, found in a text by one scan: `candidates(text)` are the
    positions of the patterns that may match it; the others surely do not."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        needs = [requirements(p) for p in patterns]
        self._always = frozenset(i for i, n in enumerate(needs) if not n)
        self._count = [len(n) for n in needs]
        owners: dict[str, set[tuple[int, int]]] = {}
        for i, need in enumerate(needs):
            for j, alternatives in enumerate(need):
                for needle in alternatives:
                    owners.setdefault(needle, set()).add((i, j))
        every = sorted(owners)
        self._scan = re.compile(f"(?=({_trie(every)}))") if every else None
        # A scan finds the longest needle at each place; the needles that begin it are there too.
        self._owners = {found: frozenset().union(*(owners[found[:i]] for i in range(1, len(found) + 1)
                                                   if found[:i] in owners)) for found in every}

    def candidates(self, text: str) -> frozenset[int]:
        """Positions (in the patterns given) of the patterns that may match `text`: those with a
        needle of every one of their requirements in it."""
        if self._scan is None:
            return self._always
        met: dict[int, int] = {}
        for i, _ in frozenset().union(*(self._owners[m.group(1)] for m in self._scan.finditer(text))):
            met[i] = met.get(i, 0) + 1
        return self._always.union(i for i, n in met.items() if n == self._count[i])


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when `pattern.search(text)` is sure to be None (a requirement with no needle in `text`)."""
    return all(any(n in text for n in need) for need in requirements(pattern))
