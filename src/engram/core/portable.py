"""Export, import and backup: move a store between files and backends without losing anything.

The export format is JSON Lines. The first line is a header:

    {"format": "engram-export", "version": 1, "embedder": "all-MiniLM-L6-v2:384", "vectors": false, ...}

then the grants and REST API keys (hashes only) of the exported subjects, one line each:

    {"type": "setting", "key": "grant:user:42|agent:planner", "value": "read"}

then one line per item, every version of it (superseded history included), every kind
(facts, preferences, procedures, episodes, summaries, saved conversations), oldest first:

    {"type": "item", "item": {"id": ..., "subject": ..., "text": ..., "valid_to": ..., ...}}

With `vectors=True` each line also carries `"vector"` (base64 of little-endian float32) and
`"model"`. Import keeps item ids and every field exactly; it reuses vectors only when they
come from the Memory's own embedder, and otherwise embeds the texts again. Importing the
same file twice adds nothing the second time.

Import checks every item as a write does (engram.safety.screen): an item with a secret or an
instruction to the assistant in any of its strings is refused and reported by line number and
reason, never by content. `allow_secrets=True` (`engram import --allow-secrets`) skips the secret
filter and `allow_instructions=True` the instruction filter, for a trusted restore.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Iterable, Iterator, Sequence

import numpy as np

from engram import validate
from engram.errors import InvalidInput, StoreError, StoreFull
from engram.safety.access import PREFIX as GRANT_PREFIX
from engram.safety.keys import PREFIX as KEY_PREFIX
from engram.store.base import FileBackup, Filter
from engram.types import Item, embedded_text, iso

if TYPE_CHECKING:
    from engram.core.memory import Memory

FORMAT = "engram-export"
VERSION = 1
ITEM_FIELDS = tuple(f.name for f in dataclasses.fields(Item))


# -- export ------------------------------------------------------------------------------------
def export(mem: "Memory", path: str | os.PathLike[str] | IO[str], subjects: Sequence[str] | None = None,
           *, vectors: bool = False) -> dict[str, int]:
    """Write the items of `subjects` (default: all) to a JSONL file; returns counts."""
    chosen = sorted(mem.store.subjects()) if subjects is None else [validate.subject(s) for s in subjects]
    identity = mem.embedder.identity if mem.embedder else None
    header = {"format": FORMAT, "version": VERSION, "embedder": identity, "vectors": bool(vectors),
              "exported_at": iso(time.time()), "subjects": chosen}
    counts = {"items": 0, "vectors": 0, "subjects": len(chosen), "settings": 0}
    with _open_for_writing(path) as out:
        out.write(_line(header))
        for key, value in sorted(_access_settings(mem, chosen if subjects is not None else None).items()):
            out.write(_line({"type": "setting", "key": key, "value": value}))
            counts["settings"] += 1
        for subject in chosen:
            by_id = _subject_vectors(mem, subject) if vectors and identity else {}
            for item in mem.store.find(subject, Filter(include_superseded=True), newest_first=False):
                out.write(_line(_item_record(item, by_id.get(item.id), identity)))
                counts["items"] += 1
                counts["vectors"] += item.id in by_id
    return counts


def _access_settings(mem: "Memory", subjects: Sequence[str] | None) -> dict[str, str]:
    """Who may read what: the grants of these subjects (None: all) and, for a whole-store export,
    the REST API keys (only their hashes are stored, never a token)."""
    found = {k: v for k, v in mem.store.settings(GRANT_PREFIX).items()
             if subjects is None or k[len(GRANT_PREFIX):].split("|", 1)[0] in subjects}
    if subjects is None:
        found.update(mem.store.settings(KEY_PREFIX))
    return found


def _item_record(item: Item, vector: np.ndarray | None, model: str | None) -> dict[str, Any]:
    data = dataclasses.asdict(item)
    data["metadata"] = dict(item.metadata)
    record: dict[str, Any] = {"type": "item", "item": data}
    if vector is not None:
        record["vector"] = base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")
        record["model"] = model
    return record


def _subject_vectors(mem: "Memory", subject: str) -> dict[str, np.ndarray]:
    ids, matrix = mem.admin.vectors(subject)
    return {item_id: matrix[n] for n, item_id in enumerate(ids)}


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n"


@contextmanager
def _open_for_writing(path: str | os.PathLike[str] | IO[str]) -> Iterator[IO[str]]:
    if not isinstance(path, (str, os.PathLike)):  # an open text stream
        yield path
        return
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        with open(partial, "w", encoding="utf-8") as out:
            yield out
        os.replace(partial, target)  # a failed export never leaves a truncated file under the real name
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise (StoreFull if _is_full(exc) else StoreError)(f"cannot write export {target}: {exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


# -- import ------------------------------------------------------------------------------------
def import_(mem: "Memory", path: str | os.PathLike[str] | IO[str], *, allow_secrets: bool = False,
            allow_instructions: bool = False) -> dict[str, Any]:
    """Add the items of an export to `mem` in one transaction, keeping ids; returns counts.

    Every item passes the write check (no secret, no instruction to the assistant) unless
    `allow_secrets` / `allow_instructions` say the file is trusted; refused items are counted
    (`refused`, `refused_lines`, `refused_reasons`) and not stored. Supersession is not re-run.
    """
    header, records, settings = _read(path)
    mem.admin.require_embedder()  # imported items get vectors of the store's model
    identity = mem.embedder.identity if mem.embedder else None
    items: list[Item] = []
    given: dict[str, np.ndarray] = {}
    seen: set[str] = set()
    counts: dict[str, Any] = {"imported": 0, "existing": 0, "duplicates": 0, "conflicts": 0, "embedded": 0,
                              "refused": 0, "refused_lines": [], "refused_reasons": {}}
    refused: set[str] = set()
    for n, item, vector in records:
        if item.id in seen:
            counts["existing"] += 1
            continue
        seen.add(item.id)
        reason = _refusal(mem, item, allow_secrets=allow_secrets, allow_instructions=allow_instructions)
        if reason is not None:
            refused.add(item.id)
            counts["refused"] += 1
            counts["refused_lines"].append(n)
            counts["refused_reasons"][reason] = counts["refused_reasons"].get(reason, 0) + 1
            continue
        items.append(item)
        if vector is not None and header.get("embedder") == identity:
            given[item.id] = vector
    # An item replaced by a refused one stays current, as if the refused write had never happened.
    items = [dataclasses.replace(it, valid_to=None, superseded_by=None) if it.superseded_by in refused else it
             for it in items]
    existing = _existing_ids(mem, [it.id for it in items])
    counts["existing"] += len(existing)
    items = [it for it in items if it.id not in existing]
    fresh = [it for it in items if not _key_taken(mem, it)]
    counts["conflicts"] = len(items) - len(fresh)
    vectors = _vectors(mem, fresh, given)
    counts["embedded"] = sum(1 for it in fresh if it.id in vectors and it.id not in given)
    placements = mem.store.put(fresh, vectors, model=identity) if fresh else []
    counts["imported"] = sum(p.created for p in placements)
    counts["duplicates"] = len(placements) - counts["imported"]
    # Grants and API keys come along; one the store already holds is left as it is.
    restored = {k: v for k, v in settings.items() if mem.store.setting(k) is None}
    for key, value in restored.items():
        mem.store.setting(key, value)
    counts["settings"] = len(restored)
    return counts


def _refusal(mem: "Memory", item: Item, *, allow_secrets: bool, allow_instructions: bool) -> str | None:
    """Why an imported item must not be stored: the same check as a write (Memory._refusal)."""
    return mem._refusal(item.text, item.kind, source=item.source, key=item.key, category=item.category,
                        session=item.session, agent=item.agent, metadata=item.metadata,
                        secrets=not allow_secrets, instructions=not allow_instructions)


def _read(path: str | os.PathLike[str] | IO[str]) -> tuple[dict[str, Any], list[tuple[int, Item, np.ndarray | None]],
                                                          dict[str, str]]:
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(getattr(path, "name", None) or "<stream>")
    lines = _lines(path, name)
    header = _header(next(lines, None), name)
    records, settings = [], {}
    for n, text in lines:
        if not text.strip():
            continue
        setting = _setting(text, n, name)
        if setting is not None:
            settings[setting[0]] = setting[1]
        else:
            records.append((n, *_record(text, n, name)))
    return header, records, settings


def _setting(text: str, n: int, name: str) -> tuple[str, str] | None:
    """A grant or API-key line as (key, value); None for any other line."""
    if '"type": "setting"' not in text:
        return None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{name} line {n} is not JSON ({exc.msg}); nothing was imported") from exc
    key, value = record.get("key"), record.get("value")
    if not (isinstance(key, str) and isinstance(value, str) and key.startswith((GRANT_PREFIX, KEY_PREFIX))):
        raise InvalidInput(f"{name} line {n} is not a valid grant or API-key record; nothing was imported")
    return key, value


def _lines(path: str | os.PathLike[str] | IO[str], name: str) -> Iterator[tuple[int, str]]:
    if not isinstance(path, (str, os.PathLike)):  # an open text stream
        yield from enumerate(path, start=1)
        return
    try:
        with open(path, encoding="utf-8") as fh:
            yield from enumerate(fh, start=1)
    except FileNotFoundError as exc:
        raise InvalidInput(f"export file {name} does not exist") from exc
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{name} is not a UTF-8 Engram export ({exc.reason})") from exc


def _header(first: tuple[int, str] | None, name: str) -> dict[str, Any]:
    try:
        header = json.loads(first[1]) if first else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidInput(f"{name} is not an Engram export: its first line must be a header with"
                           f' "format": "{FORMAT}" (make one with `engram export --output FILE.jsonl`)')
    version = header.get("version")
    if version != VERSION:
        raise InvalidInput(f"{name} is export format version {version!r}, but this Engram reads version {VERSION}:"
                           " upgrade with `pip install -U engramdb`, or export again with this version")
    return header


def _record(text: str, n: int, name: str) -> tuple[Item, np.ndarray | None]:
    """One item line as an Item (checked) and its vector, or InvalidInput naming the line."""
    try:
        record = json.loads(text)
        data = record["item"]
        if record.get("type") != "item" or not isinstance(data, dict) or set(data) != set(ITEM_FIELDS):
            raise ValueError("not an item record with every field")
        item = Item(**data)
        _check(item)
        vector = record.get("vector")
        return item, (np.frombuffer(base64.b64decode(vector, validate=True), dtype="<f4").astype(np.float32)
                      if vector is not None else None)
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{name} line {n} is not a valid item record ({exc}); nothing was imported") from exc


def _check(item: Item) -> None:
    validate.subject(item.subject)
    validate.kind(item.kind)
    for name in ("id", "text", "source", "agent", "content_hash"):
        if not isinstance(getattr(item, name), str):
            raise ValueError(f"{name} must be a string")
    if not item.id or "\x00" in item.text:
        raise ValueError("id is empty or text holds a NUL byte")
    for name in ("created_at", "event_at", "valid_from", "confidence", "importance"):
        if isinstance(getattr(item, name), bool) or not isinstance(getattr(item, name), (int, float)):
            raise ValueError(f"{name} must be a number")
    if not isinstance(item.metadata, dict):
        raise ValueError("metadata must be an object")
    # JSON escapes can spell lone surrogates ("\ud800"), which no store can hold as UTF-8.
    json.dumps(dataclasses.asdict(item), ensure_ascii=False, allow_nan=False).encode("utf-8")


def _existing_ids(mem: "Memory", ids: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        found |= {it.id for it in mem.store.get(ids[start : start + 500])}
    return found


def _key_taken(mem: "Memory", item: Item) -> bool:
    """A current keyed item whose key already has another current item in the store."""
    if item.key is None or item.valid_to is not None:
        return False
    return bool(mem.store.find(item.subject, Filter(kinds=(item.kind,), key=item.key), limit=1))


def _vectors(mem: "Memory", items: Iterable[Item], given: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Vectors for every searchable item: the exported ones when they fit, else embedded now."""
    if mem.embedder is None:
        return {}
    wanted = [it for it in items if embedded_text(it) is not None]
    vectors = {it.id: given[it.id] for it in wanted if it.id in given and given[it.id].shape == (mem.embedder.dim,)}
    vectors.update(mem._vectors_for([it for it in wanted if it.id not in vectors]))
    return vectors


# -- backup ------------------------------------------------------------------------------------
def backup(mem: Memory, dest: str | os.PathLike[str]) -> Path:
    """Copy a file-backed store (SQLite) to `dest`, consistently, while others may write."""
    store = mem.store
    if not isinstance(store, FileBackup):
        raise InvalidInput(f"{store.url} is not a SQLite file: back up PostgreSQL with"
                           " `pg_dump --format=custom --file=engram.dump DBNAME` (restore with pg_restore)")
    if store.url == ":memory:":
        raise InvalidInput("an in-memory store has no file to back up: export it with `engram export`")
    target = Path(dest).expanduser()
    if target.exists():
        raise InvalidInput(f"{target} already exists: choose a new file name (a backup never overwrites)")
    if not target.parent.is_dir():
        raise InvalidInput(f"cannot back up to {target}: folder {target.parent} does not exist")
    store.backup(target)
    return target


def _is_full(exc: OSError) -> bool:
    import errno

    return exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
