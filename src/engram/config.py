"""Settings: explicit arguments win over ENGRAM_* environment variables, which win over defaults.

`Settings` / `load` hold what `Memory` reads; `VARIABLES` lists every ENGRAM_* variable any part of
Engram reads, with its meaning and default: the settings table of docs/production.md is generated
from it (`cog`), and a test checks that every variable the code reads is listed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from engram.errors import ConfigError


@dataclass(frozen=True)
class Variable:
    """One ENGRAM_* environment variable: what it sets and its default."""

    name: str
    sets: str
    default: str


# One line per variable: name | what it sets | default.
_TABLE = """
ENGRAM_DB | the store: a SQLite file or a postgresql:// URL (`--db`) | $XDG_DATA_HOME/engram/memory.db (~/.local/share/engram/memory.db)
ENGRAM_EMBEDDER | the embedder: minilm, hashing, none or openai:MODEL (`--embedder`) | minilm (bundled all-MiniLM-L6-v2, offline)
ENGRAM_AGENT | who writes: recorded on every new item (`--agent`) | ""
ENGRAM_RECENCY | the weight of recency in recall | 0.01 (a tie-break)
ENGRAM_HALF_LIFE_DAYS | the half-life of recency, in days | 30
ENGRAM_INSTRUCTION_FILTER | refuse instruction-shaped writes (off/0/false to disable) | on
ENGRAM_QUERY_CACHE | query embeddings kept for repeated queries (0 turns it off) | 1024
ENGRAM_ACCESS_COUNTS | recall counts what it returns, written in batches (off to record none) | on
ENGRAM_CACHE_MB | megabytes of vector matrices each store keeps in memory | 256
ENGRAM_EMBED_THREADS | threads of the bundled embedder (`serve --workers` sets it per worker) | the cores, up to 4
ENGRAM_EMBED_BASE_URL | the server of the openai:MODEL embedder | $OPENAI_BASE_URL, else the OpenAI API
ENGRAM_EMBED_API_KEY | the key of the openai:MODEL embedder | $OPENAI_API_KEY
ENGRAM_LLM | the chat model of `engram chat` and the agent: NAME[:MODEL][@URL] | Anthropic if $ANTHROPIC_API_KEY, else OpenAI if $OPENAI_API_KEY, else none
ENGRAM_EXTRACT | turn the messages `add_messages` keeps into facts on a thread, with the ENGRAM_LLM provider (on/off) | off
ENGRAM_SUBJECT | the default subject of `engram mcp` (`--subject`) | none
ENGRAM_PG_POOL | PostgreSQL connections per store and process | 10
ENGRAM_PG_CONNECT_TIMEOUT | seconds to wait for PostgreSQL to answer a new connection | 5
ENGRAM_SERVE_MAX_BODY | the largest request body `engram serve` accepts, in bytes | 65536
"""
VARIABLES: tuple[Variable, ...] = tuple(Variable(*(cell.strip() for cell in line.split(" | ")))
                                        for line in _TABLE.strip().splitlines())


def settings_table() -> str:
    """VARIABLES as a Markdown table (docs/production.md, generated)."""
    rows = ["| variable | sets | default |", "| --- | --- | --- |"]
    rows += [f"| `{v.name}` | {v.sets} | {v.default} |" for v in VARIABLES]
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Settings:
    db: str
    embedder: str = "minilm"
    agent: str = ""
    recency: float = 0.01
    half_life_days: float = 30.0
    instruction_filter: bool = True
    query_cache: int = 1024
    access_counts: bool = True
    extract: bool = False


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _flag(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name}={raw!r} is not a switch: use one of {', '.join(_TRUE + _FALSE)}")


def _switch(given: Mapping[str, Any], env: Mapping[str, str], name: str, variable: str) -> bool:
    """An on/off setting: the argument (True or False), else the variable, else on."""
    value = given.get(name)
    if value is None and env.get(variable):
        value = _flag(variable, env[variable])
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, not {value!r}")
    return True if value is None else value


def default_db_path() -> str:
    """The per-user data file, following the XDG base directory convention."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "engram" / "memory.db")


def _number(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if value < 0:
        raise ConfigError(f"{name}={raw!r} must not be negative")
    return value


def load(env: Mapping[str, str] | None = None, **arguments: Any) -> Settings:
    """Settings from arguments (None means unset), then ENGRAM_* variables, then defaults."""
    env = os.environ if env is None else env
    given = {k: v for k, v in arguments.items() if v is not None}
    unknown = set(given) - set(Settings.__dataclass_fields__)
    if unknown:
        raise ConfigError(f"unknown setting(s) {sorted(unknown)}; known: {sorted(Settings.__dataclass_fields__)}")
    db = given.get("db") or env.get("ENGRAM_DB") or default_db_path()
    if not isinstance(db, str):
        db = os.fspath(db)
    recency = given.get("recency")
    if recency is None and env.get("ENGRAM_RECENCY"):
        recency = _number("ENGRAM_RECENCY", env["ENGRAM_RECENCY"])
    half_life = given.get("half_life_days")
    if half_life is None and env.get("ENGRAM_HALF_LIFE_DAYS"):
        half_life = _number("ENGRAM_HALF_LIFE_DAYS", env["ENGRAM_HALF_LIFE_DAYS"])
    query_cache = given.get("query_cache")
    if query_cache is None and env.get("ENGRAM_QUERY_CACHE"):
        query_cache = _number("ENGRAM_QUERY_CACHE", env["ENGRAM_QUERY_CACHE"])
    if query_cache is not None and (isinstance(query_cache, bool) or not isinstance(query_cache, (int, float))
                                    or query_cache < 0 or query_cache != int(query_cache)):
        raise ConfigError(f"query_cache must be a whole number of entries (0 turns it off), not {query_cache!r}")
    return Settings(
        db=db,
        embedder=given.get("embedder") or env.get("ENGRAM_EMBEDDER") or "minilm",
        agent=given.get("agent") or env.get("ENGRAM_AGENT") or "",
        recency=0.01 if recency is None else float(recency),
        half_life_days=30.0 if half_life is None else float(half_life),
        instruction_filter=_switch(given, env, "instruction_filter", "ENGRAM_INSTRUCTION_FILTER"),
        access_counts=_switch(given, env, "access_counts", "ENGRAM_ACCESS_COUNTS"),
        query_cache=1024 if query_cache is None else int(query_cache),
        extract=_flag("ENGRAM_EXTRACT", env["ENGRAM_EXTRACT"]) if env.get("ENGRAM_EXTRACT") else False,
    )
