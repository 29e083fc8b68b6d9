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

__all__ = ["NeedleIndex", "may_match", "needles"]

# The regex engine's own parser (the module `re` compiles with; `sre_parse` before Python 3.11).
_NEW = sys.version_info >= (3, 11)
parser: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")
sre: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")

Needles = frozenset[str] | None
_CACHE: dict[re.Pattern[str], Needles] = {}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)}


def _better(a: Needles, b: Needles) -> Needles:
    """The more selective of two requirements (longer shortest needle, then fewer needles)."""
    if a is None or not a:
        return b
    if b is None or not b:
        return a
    rank_a, rank_b = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return a if rank_a >= rank_b else b


def _sequence(items: Any, ignorecase: bool) -> Needles:
    """What a sequence of nodes requires: the best of its literal runs and its parts' requirements."""
    best: Needles = None
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and not ignorecase:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, frozenset({"".join(run)}))
            run = []
        if op is sre.AT:
            continue  # zero-width and requires nothing; ends the run (always safe)
        best = _better(best, _node(op, av, ignorecase))
    if run:
        best = _better(best, frozenset({"".join(run)}))
    return best


def _node(op: Any, av: Any, ignorecase: bool) -> Needles:
    if op is sre.SUBPATTERN:
        _, add_flags, _, inner = av
        return _sequence(inner, ignorecase or bool(add_flags & re.IGNORECASE))
    if op is sre.BRANCH:
        found: set[str] = set()
        for alternative in av[1]:
            need = _sequence(alternative, ignorecase)
            if not need:
                return None  # one alternative requires nothing
            found |= need
        return frozenset(found)
    if op in _REPEATS:
        low, _, inner = av
        return _sequence(inner, ignorecase) if low >= 1 else None
    if op is getattr(sre, "ATOMIC_GROUP", None):
        return _sequence(av, ignorecase)
    if op is sre.ASSERT:  # a positive lookahead or lookbehind: its text is in the string too
        return _sequence(av[1], ignorecase)
    return None  # a class, any character, a negative assertion, a backreference: unknown


def needles(pattern: re.Pattern[str]) -> Needles:
    """Strings of which every match of `pattern` contains one, or None (no such set known)."""
    if pattern not in _CACHE:
        need: Needles = None
        if isinstance(pattern.pattern, str) and not pattern.flags & re.IGNORECASE:
            try:
                need = _sequence(parser.parse(pattern.pattern, pattern.flags), False) or None
            except (re.error, RecursionError):
                need = None
        _CACHE[pattern] = need
    return _CACHE[pattern]


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
        need = [needles(p) for p in patterns]
        self._always = frozenset(i for i, n in enumerate(need) if n is None)
        owners: dict[str, set[int]] = {}
        for i, n in enumerate(need):
            for needle in n or ():
                owners.setdefault(needle, set()).add(i)
        every = sorted(owners)
        self._scan = re.compile(f"(?=({_trie(every)}))") if every else None
        # A scan finds the longest needle at each place; the needles that begin it are there too.
        self._owners = {found: frozenset().union(*(owners[found[:i]] for i in range(1, len(found) + 1)
                                                   if found[:i] in owners)) for found in every}

    def candidates(self, text: str) -> frozenset[int]:
        """Positions (in the patterns given) of the patterns that may match `text`."""
        if self._scan is None:
            return self._always
        found = {m.group(1) for m in self._scan.finditer(text)}
        return self._always.union(*(self._owners[f] for f in found))


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when `pattern.search(text)` is sure to be None (no needle of it occurs in `text`)."""
    need = needles(pattern)
    return need is None or any(n in text for n in need)
