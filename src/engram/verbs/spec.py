"""What a verb is: its arguments (JSON-schema types, limits, defaults, aliases), the surfaces that
expose it, the narrowings a surface may apply (each with its reason), and its handler over `Memory`.

Every surface (the agent's tools, MCP, REST) asks a `Verb` for its JSON schema and runs calls
through `Verb.arguments`, which renames aliases, validates with `jsonschema` and names the bad
argument in the error. Nothing here knows HTTP, MCP or a model's API.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from engram import validate
from engram.errors import InvalidInput

if TYPE_CHECKING:  # jsonschema itself is imported at the first check: it takes longer to import than the rest
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import ValidationError

    from engram.core.memory import Memory
    from engram.safety.keys import ApiKey

Surface = Literal["tool", "mcp", "rest"]
SURFACES: tuple[Surface, ...] = ("tool", "mcp", "rest")
# Model-facing surfaces forgive what models send: "2" for 2, "yes" for true, one id for a list, a
# number above the limit (capped, with a note), unknown arguments (ignored). REST is a contract
# for programs: exact types, unknown fields refused.
LENIENT: frozenset[Surface] = frozenset({"tool", "mcp"})
NO_DEFAULT: Any = object()
_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "array": "a list", "object": "an object", "null": "null"}


@dataclass(frozen=True)
class Narrowing:
    """How one argument differs on some surfaces, and why. `absent` hides it there; `schema`
    overrides limits (only tighter ones: the test checks); `default`/`required` change those."""

    surfaces: frozenset[Surface]
    reason: str
    absent: bool = False
    schema: Mapping[str, Any] = field(default_factory=dict)
    default: Any = NO_DEFAULT
    required: bool | None = None


@dataclass(frozen=True)
class Arg:
    """One argument of a verb: its JSON schema, description, default and the names models guess."""

    name: str
    schema: Mapping[str, Any]
    description: str
    required: bool = False
    default: Any = NO_DEFAULT
    aliases: tuple[str, ...] = ()
    hint: str = ""  # what a valid value looks like, for pattern errors ("of the form 'kind:name'")
    too_long: str = ""  # what to send instead, for maxLength errors ("send one sentence")
    example: str = ""  # a whole call showing it, for "missing" errors
    narrowed: tuple[Narrowing, ...] = ()
    rest_in: Literal["body", "query", "path"] = "body"
    # Limits that depend on another argument's value: (its name, {value: schema}), e.g. a fact's
    # length by its kind. Published as if/then clauses, or folded in where that argument is absent.
    limits_by: tuple[str, Mapping[str, Mapping[str, Any]]] | None = None

    def narrowing(self, surface: Surface) -> Narrowing | None:
        return next((n for n in self.narrowed if surface in n.surfaces), None)

    def on(self, surface: Surface) -> bool:
        """True when `surface` exposes this argument."""
        narrow = self.narrowing(surface)
        return not (narrow and narrow.absent)

    def schema_on(self, surface: Surface, *, aliases: bool = False) -> dict[str, Any]:
        """The argument's JSON schema as `surface` publishes it (a fresh copy)."""
        out = {**copy.deepcopy(dict(self.schema)), "description": self.description}
        narrow = self.narrowing(surface)
        if narrow:
            out.update(copy.deepcopy(dict(narrow.schema)))
        default = self.default_on(surface)
        if default is not NO_DEFAULT and default is not None:
            out["default"] = default
        if aliases and self.aliases:
            out["x-aliases"] = list(self.aliases)
        return out

    def default_on(self, surface: Surface) -> Any:
        narrow = self.narrowing(surface)
        return narrow.default if narrow and narrow.default is not NO_DEFAULT else self.default

    def required_on(self, surface: Surface) -> bool:
        narrow = self.narrowing(surface)
        return narrow.required if narrow and narrow.required is not None else self.required


@dataclass(frozen=True)
class Route:
    """Where a verb lives in the REST API and what it answers (for the OpenAPI document)."""

    method: str
    path: str
    summary: str
    reply: Mapping[str, Any]  # status code -> JSON schema of the reply
    status: Callable[[Any], int] = lambda reply: 200


@dataclass
class Call:
    """One call of a verb: validated arguments plus what the surface fixes itself (subject, caller)."""

    memory: Memory
    args: dict[str, Any]
    surface: Surface
    subject: str | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)  # e.g. the tools' source, session, now
    caller: ApiKey | None = None  # the REST API key, for key management and scoping
    allows: Callable[[str], bool] = lambda subject: True  # may this call touch that subject?
    notes: list[str] = field(default_factory=list)  # e.g. "k capped at 10"

    def get(self, name: str, default: Any = None) -> Any:
        """An argument the caller gave, else one the surface fixed, else `default`."""
        if name in self.args:
            return self.args[name]
        return self.fixed.get(name, default)

    @property
    def brief(self) -> bool:
        """Model-facing surfaces get items with the fields a model needs, not every column."""
        return self.surface in LENIENT


Handler = Callable[[Call], Any]


@dataclass(frozen=True)
class Verb:
    """One verb, defined once: every surface's schema, validation and behaviour come from here."""

    name: str
    title: str
    description: str
    args: tuple[Arg, ...]
    handler: Handler
    surfaces: frozenset[Surface]
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = True
    route: Route | None = None
    max_body: int | None = None  # REST's request body cap for this verb in bytes (None: the server's)

    def arg(self, name: str) -> Arg:
        return next(a for a in self.args if a.name == name)

    def args_on(self, surface: Surface) -> list[Arg]:
        return [a for a in self.args if a.on(surface)]

    def schema(self, surface: Surface, *, where: str | None = None) -> dict[str, Any]:
        """The JSON schema of this verb's arguments on `surface` (REST: those sent in `where`)."""
        self._check_surface(surface)
        args = [a for a in self.args_on(surface) if where is None or a.rest_in == where]
        out: dict[str, Any] = {"type": "object",
                               "properties": {a.name: a.schema_on(surface, aliases=surface == "rest") for a in args},
                               "required": [a.name for a in args if a.required_on(surface)]}
        clauses = [c for a in args for c in self._limits(a, surface, out["properties"][a.name])]
        if clauses:
            out["allOf"] = clauses
        if surface not in LENIENT:
            out["additionalProperties"] = False
        return out

    def _limits(self, arg: Arg, surface: Surface, published: dict[str, Any]) -> list[dict[str, Any]]:
        """`arg.limits_by` on `surface`: one if/then clause per value of the other argument, or (where
        that argument is absent) the limits of its default folded into `published`."""
        if arg.limits_by is None:
            return []
        other_name, table = arg.limits_by
        other = self.arg(other_name)
        if not other.on(surface):
            published.update(copy.deepcopy(dict(table[other.default_on(surface)])))
            return []
        clauses = []
        for value, limits in table.items():
            when: dict[str, Any] = {"properties": {other_name: {"const": value}}}
            if value != other.default_on(surface):
                when["required"] = [other_name]
            clauses.append({"if": when, "then": {"properties": {arg.name: copy.deepcopy(dict(limits))}}})
        return clauses

    def arguments(self, surface: Surface, raw: Mapping[str, Any], notes: list[str] | None = None) -> dict[str, Any]:
        """`raw` with aliases renamed, checked against the schema and defaults filled in; InvalidInput
        naming the argument otherwise. Lenient surfaces also coerce and cap (see LENIENT)."""
        self._check_surface(surface)
        if not isinstance(raw, Mapping):
            raise InvalidInput(f"{self.name} arguments must be a JSON object, not {_json_type(raw)}")
        lenient = surface in LENIENT
        args = self.args_on(surface)
        values = _rename(args, raw, lenient)
        if lenient:
            values = {name: _coerce(self.arg(name), surface, value, notes) for name, value in values.items()}
        from jsonschema.exceptions import best_match

        error = best_match(_validator(self, surface).iter_errors(values))
        if error is not None:
            raise InvalidInput(_message(error, self, surface))
        for arg in args:
            if isinstance(values.get(arg.name), str) and arg.schema.get("minLength", 0) > 0 \
                    and not values[arg.name].strip():
                raise InvalidInput(f"{arg.name!r} is empty")
            if arg.name not in values and arg.default_on(surface) is not NO_DEFAULT:
                values[arg.name] = arg.default_on(surface)
        return values

    def _check_surface(self, surface: Surface) -> None:
        if surface not in self.surfaces:
            raise InvalidInput(f"{self.name} is not offered on {surface}; it is on {', '.join(sorted(self.surfaces))}")


_VALIDATORS: dict[tuple[int, Surface], Draft202012Validator] = {}
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _is_date_time(value: object) -> bool:
    """An RFC 3339 time (what JSON Schema's date-time means) that Engram can also read."""
    if not isinstance(value, str):
        return True
    if not RFC3339.fullmatch(value):
        return False
    try:
        validate.timestamp(value.upper(), "time")
    except InvalidInput:
        return False
    return True


def _validator(verb: Verb, surface: Surface) -> Draft202012Validator:
    """The checked validator of a verb's schema on a surface, built once."""
    from jsonschema import Draft202012Validator

    key = (id(verb), surface)
    if key not in _VALIDATORS:
        schema = verb.schema(surface)
        Draft202012Validator.check_schema(schema)
        _VALIDATORS[key] = Draft202012Validator(schema, format_checker=_formats())
    return _VALIDATORS[key]


@functools.cache
def _formats() -> FormatChecker:
    """The formats checked: only date-time (jsonschema checks none of them without extra packages)."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    checker.checks("date-time")(_is_date_time)
    return checker


def _rename(args: Sequence[Arg], raw: Mapping[str, Any], lenient: bool) -> dict[str, Any]:
    """Aliases to their argument's name; unknown names dropped (lenient) or left for the schema to
    refuse (strict); an argument given under two names is refused on strict surfaces."""
    out: dict[str, Any] = {}
    claimed: set[str] = set()
    for arg in args:
        given = [n for n in (arg.name, *arg.aliases) if n in raw and not (lenient and raw[n] is None)]
        claimed.update(n for n in (arg.name, *arg.aliases) if n in raw)
        if len(given) > 1 and not lenient:
            raise InvalidInput(f"{arg.name!r} is given twice (as {' and '.join(given)}); send it once")
        if given:
            out[arg.name] = raw[given[0]]
    if not lenient:
        out.update({name: value for name, value in raw.items() if name not in claimed})
    return out


def _coerce(arg: Arg, surface: Surface, value: Any, notes: list[str] | None) -> Any:
    """What a model meant: "2" and 2.0 for 2, "yes" for true, one id for a list of one, a number
    above the surface's maximum capped to it (with a note)."""
    schema = arg.schema_on(surface)
    kind = schema.get("type")
    if kind == "integer":
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        elif isinstance(value, float) and value.is_integer():
            value = int(value)
        top = schema.get("maximum")
        if isinstance(value, int) and not isinstance(value, bool) and top is not None and value > top:
            if notes is not None:
                notes.append(f"{arg.name} capped at {top}")
            value = top
    elif kind == "boolean":
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
            value = value.strip().lower() in ("true", "yes", "1")
        elif isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            value = bool(value)
    elif kind == "array" and isinstance(value, str):
        value = [value]
    return value


def _json_type(value: Any) -> str:
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "null" if value is None else type(value).__name__)


def _message(error: ValidationError, verb: Verb, surface: Surface) -> str:
    """One line naming the argument and what is wrong with it."""
    path = [str(p) for p in error.absolute_path]
    top = path[0] if path else ""
    arg = next((a for a in verb.args if a.name == top), None)
    name = top + "".join(f"[{p}]" for p in path[1:])
    value: Any = error.instance
    rule, limit = str(error.validator), cast(Any, error.validator_value)
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if rule == "required":
        missing = next(n for n in limit if n not in value)
        example = verb.arg(missing).example
        return f"missing {missing!r}" + (f": pass it, e.g. {example}" if example else "")
    if rule == "additionalProperties":
        known = [a.name for a in verb.args_on(surface)]
        unknown = sorted(set(value) - set(known))
        return f"unknown argument(s) {', '.join(unknown)[:200]}; known: {', '.join(known)}"
    if rule == "type":
        wanted = limit if isinstance(limit, list) else [limit]
        shown = repr(value)[:80] if isinstance(value, str) else _json_type(value)
        return f"{name!r} must be {' or '.join(_TYPE_WORDS.get(str(t), str(t)) for t in wanted)}, not {shown}"
    if rule in ("minimum", "maximum"):
        return f"{name!r} must be between {schema.get('minimum')} and {schema.get('maximum')}, not {value}"
    if rule == "maxLength":
        advice = f": {arg.too_long}" if arg and arg.too_long and len(path) == 1 else ""
        return f"{name!r} is {len(value)} characters, at most {limit}{advice}"
    if rule == "minLength":
        return f"{name!r} is empty" if not str(value).strip() else f"too short: {name!r} needs at least {limit} characters"
    if rule == "pattern":
        hint = arg.hint if arg and len(path) == 1 and arg.hint else "text without control characters"
        return f"{name!r} must be {hint}, not {str(value)[:80]!r}"
    if rule == "enum":
        return f"{name!r} must be one of {', '.join(map(str, limit))}, not {value!r}"
    if rule == "format":
        return f"{name!r} {str(value)[:80]!r} is not an ISO 8601 time such as 2026-11-02T09:30:00Z"
    if rule == "maxItems":
        return f"{name!r} has {len(value)} entries; at most {limit}"
    return f"{name or 'arguments'!r} is not valid: {error.message[:200]}"
