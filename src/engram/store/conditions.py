"""What a `Filter` means, defined once: conditions that Python checks and SQL states alike.

`Filter.conditions()` turns a filter into a few conditions (a column equals a value, lies in a
set, a text contains a needle, a metadata key equals a JSON value, ...). Each condition class
holds both of its readings side by side: `holds(item)` in Python (for candidates from a vector
scan) and `sql(dialect)` as a WHERE fragment (SQLite or PostgreSQL). A new filter field is one
new line in `Filter.conditions`, never a third copy.

The metadata rule (all backends): a filter value must be a JSON scalar (string, number, true,
false, null). It matches a stored value of the same JSON type and value: numbers by value
(1 matches 1.0), `true` never matches 1, `"1"` never matches 1, and null matches a null or a
missing key. Objects and arrays are refused as filter values (InvalidInput).
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from engram.errors import InvalidInput
from engram.text import FIELD_SEPARATOR, fold
from engram.types import Item, dumps

if TYPE_CHECKING:
    from engram.store.sql import Dialect

# What a `contains` match (forget / matches) reads: every field that can hold what a user said.
SEARCHED_COLUMNS = ("text", "metadata", "source", "key", "category", "session")
# Integers beyond SQLite's 64-bit range cannot be compared the same way everywhere.
_INT_RANGE = 2**63
Clause = tuple[str, list[Any]]


def needles(text: str) -> list[str]:
    """The text as typed, and as it appears inside JSON strings (quotes, backslashes escaped)."""
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    return [text] if escaped == text else [text, escaped]


def searched_fields(values: Mapping[str, Any]) -> list[str]:
    """The fields a `contains` match reads, in SEARCHED_COLUMNS order (metadata as Engram's JSON)."""
    out = []
    for column in SEARCHED_COLUMNS:
        value = values.get(column)
        if column == "metadata":
            value = value if isinstance(value, str) else dumps(dict(value or {}))
        out.append(value or "")
    return out


def folded_copy(values: Mapping[str, Any]) -> str:
    """The folded copy of an item's searched fields that every `contains` test reads."""
    return fold(FIELD_SEPARATOR.join(searched_fields(values)))


def check_metadata_value(key: str, value: Any) -> None:
    """Refuse a metadata filter value the rule above cannot compare alike on every backend."""
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int) and -_INT_RANGE <= value < _INT_RANGE:
        return
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        return
    raise InvalidInput(f"metadata filter {key!r}: {value!r} is not a JSON scalar (string, finite number,"
                       " true, false or null); objects, arrays and huge integers cannot be matched")


def json_equal(stored: Any, wanted: Any) -> bool:
    """The metadata rule in Python: same JSON type, same value (numbers by value)."""
    if wanted is None:
        return stored is None
    if isinstance(wanted, bool) or isinstance(stored, bool):
        return isinstance(wanted, bool) and isinstance(stored, bool) and stored is wanted
    if isinstance(wanted, (int, float)):
        return isinstance(stored, (int, float)) and stored == wanted
    return isinstance(stored, str) and stored == wanted


class Condition:
    """One test an item must pass; `holds` and `sql` are the same test in two languages."""

    def holds(self, item: Item) -> bool:
        raise NotImplementedError

    def sql(self, d: Dialect) -> Clause:
        raise NotImplementedError


@dataclass(frozen=True)
class Equals(Condition):
    column: str
    value: Any

    def holds(self, item: Item) -> bool:
        return bool(getattr(item, self.column) == self.value)

    def sql(self, d: Dialect) -> Clause:
        return f"i.{self.column} = {d.ph}", [self.value]


@dataclass(frozen=True)
class OneOf(Condition):
    column: str
    values: tuple[Any, ...]
    negated: bool = False

    def holds(self, item: Item) -> bool:
        return (getattr(item, self.column) in self.values) != self.negated

    def sql(self, d: Dialect) -> Clause:
        if not self.values:
            return ("1 = 1" if self.negated else "1 = 0"), []
        test = f"i.{self.column} IN ({', '.join([d.ph] * len(self.values))})"
        return ("NOT " + test if self.negated else test), list(self.values)


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<": operator.lt, "<=": operator.le,
}


@dataclass(frozen=True)
class Compare(Condition):
    """column <op> value, for a time column (a NULL column passes no comparison, as in SQL)."""

    column: str
    op: str
    value: float

    def holds(self, item: Item) -> bool:
        have = getattr(item, self.column)
        return have is not None and _OPERATORS[self.op](have, self.value)

    def sql(self, d: Dialect) -> Clause:
        return f"i.{self.column} {self.op} {d.ph}", [self.value]


@dataclass(frozen=True)
class Missing(Condition):
    column: str

    def holds(self, item: Item) -> bool:
        return getattr(item, self.column) is None

    def sql(self, d: Dialect) -> Clause:
        return f"i.{self.column} IS NULL", []


@dataclass(frozen=True)
class AnyOf(Condition):
    parts: tuple[Condition, ...]

    def holds(self, item: Item) -> bool:
        return any(part.holds(item) for part in self.parts)

    def sql(self, d: Dialect) -> Clause:
        clauses = [part.sql(d) for part in self.parts]
        return "(" + " OR ".join(c for c, _ in clauses) + ")", [p for _, ps in clauses for p in ps]


@dataclass(frozen=True)
class Contains(Condition):
    """Any searched field holds the text (folded, as typed or as JSON-escaped)."""

    text: str

    def forms(self) -> list[str]:
        return list(dict.fromkeys(fold(needle) for needle in needles(self.text)))

    def holds(self, item: Item) -> bool:
        haystack = folded_copy({c: getattr(item, c) for c in SEARCHED_COLUMNS})
        return any(form in haystack for form in self.forms())

    def sql(self, d: Dialect) -> Clause:
        forms = self.forms()
        return "(" + " OR ".join(d.contains(d.ph) for _ in forms) + ")", forms


@dataclass(frozen=True)
class MetadataEquals(Condition):
    """metadata[key] equals a JSON scalar by the module's rule."""

    key: str
    value: Any

    def holds(self, item: Item) -> bool:
        return json_equal(item.metadata.get(self.key), self.value)

    def sql(self, d: Dialect) -> Clause:
        return d.metadata_equals(self.key, self.value)
