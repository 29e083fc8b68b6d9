"""Procedural memory: named instructions and strategies, and fine-tuning data from what worked.

The seed article's fourth tier is "procedural memory (weights)": skills baked in by fine-tuning.
Engram makes it practical in two steps:

* A **procedure** is a `procedure` item keyed by its name (`key`), text `"name: instructions"`.
  Set one by hand (`set_procedure`), or learn one from successful episodes (`learn_procedures`:
  offline, the episodes of a category are condensed into a strategy; with an LLM, one call per
  category distils it). A new text for a name supersedes the old one, so history is kept.
  Prompt assembly injects the current procedures of the subject as guidance (`guidance`).
* When enough episodes succeed, `export_finetune` writes them as chat fine-tuning JSONL
  (OpenAI chat format, one line per good episode, secrets redacted) and `check_finetune`
  proves every line is well-formed: the path from memory into weights.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from engram import validate
from engram.errors import InvalidInput, NotFound, ProviderError
from engram.safety.secrets import looks_secret, redact
from engram.store.base import Filter
from engram.types import EPISODE, PROCEDURE, Item, Saved, TimeLike

if TYPE_CHECKING:
    from engram.llm.base import LLM
    from engram.core.memory import Memory

MAX_INSTRUCTIONS = 900  # a procedure item holds at most 1000 characters, name included
DEFAULT_SYSTEM = "You are a helpful assistant."
GENERAL = "general"


@dataclass(frozen=True)
class Procedure:
    """A named instruction or strategy, as stored."""

    name: str
    instructions: str
    id: str
    source: str = ""
    learned_from: tuple[str, ...] = ()
    updated_at: float = 0.0

    @classmethod
    def from_item(cls, item: Item) -> "Procedure":
        meta = item.metadata
        name = item.key or item.id
        text = str(meta.get("instructions", item.text.removeprefix(f"{name}: ")))
        return cls(name, text, item.id, item.source, tuple(meta.get("learned_from", ())), item.created_at)

    @property
    def text(self) -> str:
        return f"{self.name}: {self.instructions}"


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 80 or "\n" in value:
        raise InvalidInput(f"procedure name must be one line of 1-80 characters (e.g. 'code-review'), not {value!r}")
    return value.strip()


# -- procedures by hand ------------------------------------------------------------------------
def set_procedure(mem: "Memory", subject: str, name: str, instructions: str, *, source: str = "manual",
                  category: str | None = None, learned_from: Sequence[str] = (), now: TimeLike = None) -> Saved:
    """Set the procedure `name` of a subject; a new text supersedes the old one (kept as history)."""
    name = _name(name)
    instructions = validate.clean_text(instructions, "instructions")
    if not instructions:
        raise InvalidInput(f"instructions for procedure {name!r} are empty: say what to do")
    if len(instructions) > MAX_INSTRUCTIONS:
        raise InvalidInput(f"instructions are {len(instructions)} characters; keep a procedure under "
                           f"{MAX_INSTRUCTIONS} (split it into several named procedures)")
    meta = {"name": name, "instructions": instructions, "learned_from": list(learned_from)}
    return mem.remember(subject, f"{name}: {instructions}", kind=PROCEDURE, key=name, category=category,
                        source=source, metadata=meta, now=now)


def get_procedure(mem: "Memory", subject: str, name: str) -> Procedure | None:
    """The current procedure with that name, or None."""
    found = mem.admin.current(subject, PROCEDURE, _name(name))
    return Procedure.from_item(found) if found else None


def procedures(mem: "Memory", subject: str) -> list[Procedure]:
    """Every current procedure of a subject, by name."""
    found = mem.items(subject, where=Filter(kinds=(PROCEDURE,)))
    return sorted((Procedure.from_item(it) for it in found), key=lambda p: p.name)


def guidance(mem: "Memory", subject: str, limit: int = 10) -> list[str]:
    """The procedures as prompt lines ("name: instructions"), most recently updated first."""
    validate.count(limit, "limit", 1, 100)
    found = mem.items(subject, where=Filter(kinds=(PROCEDURE,)), limit=limit)
    return [Procedure.from_item(it).text for it in found]


def delete_procedure(mem: "Memory", subject: str, name: str) -> int:
    """Delete a procedure and all its earlier versions; returns how many items went."""
    subject, name = validate.subject(subject), _name(name)
    found = mem.items(subject, where=Filter(kinds=(PROCEDURE,), key=name, include_superseded=True))
    if not found:
        raise NotFound(f"no procedure {name!r} for {subject}; list them with `engram procedures list {subject}`")
    return mem.forget_ids(subject, [it.id for it in found])


# -- procedures learned from episodes ----------------------------------------------------------
@dataclass(frozen=True)
class Proposal:
    """A strategy proposed for one category of episodes, and what saving it did (None in a dry run)."""

    name: str
    category: str
    instructions: str
    method: str
    episodes: tuple[str, ...]
    saved: Saved | None = None


STRATEGY_SYSTEM = (
    "You distil a reusable strategy from an AI assistant's past episodes in one category of task. "
    "Write 2-4 short imperative sentences (under 600 characters) saying what to do and what to avoid "
    "next time. No preamble, no lists, no markdown."
)


def learn_procedures(mem: "Memory", subject: str, *, llm: "LLM | None" = None, min_successes: int = 2,
                     categories: Sequence[str] | None = None, dry_run: bool = False,
                     now: TimeLike = None) -> list[Proposal]:
    """Propose a strategy per episode category with at least `min_successes` successes; save unless dry_run.

    The procedure is named `<category>-strategy`. Offline the strategy lists what worked (most
    frequent first) and what failed; with `llm`, one call per category distils it.
    """
    subject = validate.subject(subject)
    validate.count(min_successes, "min_successes", 1, 10_000)
    categories = _categories(categories)
    by_category = _episodes_by_category(mem, subject)
    proposals = []
    for category, episodes in sorted(by_category.items()):
        wins = [e for e in episodes if e.metadata.get("success", True)]
        if (categories is not None and category not in categories) or len(wins) < min_successes:
            continue
        if llm is None:
            text, method = extractive_strategy(category, episodes), "extractive"
        else:
            text, method = _llm_strategy(llm, category, episodes), f"llm:{llm.model}"
        name, ids = f"{category}-strategy", tuple(e.id for e in episodes)
        saved = None if dry_run else set_procedure(mem, subject, name, text, source=f"learned ({method})",
                                                   category=category, learned_from=ids, now=now)
        proposals.append(Proposal(name, category, text, method, ids, saved))
    return proposals


def _categories(value: Sequence[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str) or not all(isinstance(c, str) for c in value):
        raise InvalidInput(f"categories must be a list of category names, not {value!r}")
    return tuple(value)


def _episodes_by_category(mem: "Memory", subject: str) -> dict[str, list[Item]]:
    groups: dict[str, list[Item]] = {}
    for item in mem.items(subject, where=Filter(kinds=(EPISODE,))):  # newest first
        groups.setdefault(item.category or GENERAL, []).append(item)
    return groups


def extractive_strategy(category: str, episodes: Sequence[Item], most: int = 4) -> str:
    """Offline strategy: the actions that worked, most repeated first, then those that failed."""
    worked = _ranked_phrases(e for e in episodes if e.metadata.get("success", True))
    failed = _ranked_phrases(e for e in episodes if not e.metadata.get("success", True))
    text = f"For {category} tasks, repeat what worked: " + "; ".join(worked[:most]) + "."
    if failed:
        text += " Avoid what failed: " + "; ".join(failed[: max(1, most // 2)]) + "."
    return redact(_fit(text))


def _ranked_phrases(episodes: Iterable[Item]) -> list[str]:
    """Distinct 'action (result)' phrases, most frequent action first, newest first among equals."""
    counts: dict[str, int] = {}
    phrase: dict[str, str] = {}
    for e in episodes:
        action = str(e.metadata.get("action", e.text)).rstrip(".")
        key = action.casefold()
        counts[key] = counts.get(key, 0) + 1
        if key not in phrase:
            result = str(e.metadata.get("result", "")).rstrip(".")
            phrase[key] = f"{action} ({result})" if result else action
    return [phrase[k] for k in sorted(counts, key=lambda k: -counts[k])]


def _llm_strategy(llm: "LLM", category: str, episodes: Sequence[Item]) -> str:
    lines = [f"- {'succeeded' if e.metadata.get('success', True) else 'FAILED'}: {e.text}" for e in episodes[:40]]
    prompt = redact(f"Category: {category}\nEpisodes, newest first:\n" + "\n".join(lines))
    reply = llm.complete(STRATEGY_SYSTEM, [{"role": "user", "content": prompt}], max_tokens=300)
    text = " ".join(reply.text.split())
    if not text:
        raise ProviderError(f"{llm!r} returned an empty strategy for {category!r}; retry, or learn offline (llm=None)")
    return redact(_fit(text))


def _fit(text: str) -> str:
    return text if len(text) <= MAX_INSTRUCTIONS else text[: MAX_INSTRUCTIONS - 1].rstrip() + "…"


# -- fine-tuning export ------------------------------------------------------------------------
@dataclass(frozen=True)
class FinetuneExport:
    """What `export_finetune` wrote: the file, lines written, episodes skipped and why."""

    path: str
    lines: int
    skipped: dict[str, int]


def finetune_examples(mem: "Memory", subject: str, *, system: str = DEFAULT_SYSTEM,
                      categories: Sequence[str] | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """One chat example per successful episode (oldest first), redacted; and skip counts by reason.

    user = metadata "prompt", else the episode's context, else its action;
    assistant = metadata "response", else its result.
    """
    system = redact(validate.clean_text(system, "system"))
    categories = _categories(categories)
    examples, seen, skipped = [], set(), {"failed": 0, "no_response": 0, "duplicate": 0}
    for item in mem.items(subject, where=Filter(kinds=(EPISODE,)), newest_first=False):
        meta = item.metadata
        if categories is not None and (item.category or GENERAL) not in categories:
            continue
        if not meta.get("success", True):
            skipped["failed"] += 1
            continue
        user = redact(str(meta.get("prompt") or meta.get("context") or meta.get("action") or item.text).strip())
        assistant = redact(str(meta.get("response") or meta.get("result") or "").strip())
        if not user or not assistant:
            skipped["no_response"] += 1
            continue
        if (user, assistant) in seen:
            skipped["duplicate"] += 1
            continue
        seen.add((user, assistant))
        messages = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
        examples.append({"messages": messages})
    return examples, skipped


def export_finetune(mem: "Memory", subject: str, path: str | os.PathLike[str], *, system: str = DEFAULT_SYSTEM,
                    categories: Sequence[str] | None = None) -> FinetuneExport:
    """Write successful episodes as chat fine-tuning JSONL; checked before the file appears (atomic)."""
    examples, skipped = finetune_examples(mem, subject, system=system, categories=categories)
    if not examples:
        raise NotFound(f"no successful episode of {subject} has both a prompt and a response to export"
                       f" (skipped: {skipped}); log episodes with a result first")
    lines = [json.dumps(ex, ensure_ascii=False) for ex in examples]
    problems = check_finetune_lines(lines)
    if problems:  # never expected: the examples were built to pass; refuse to write a bad file
        raise InvalidInput("fine-tuning export failed its own check: " + "; ".join(problems[:3]))
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".finetune-", suffix=".jsonl", dir=target.parent or ".")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    os.replace(tmp, target)
    return FinetuneExport(str(target), len(lines), skipped)


ROLES = ("system", "user", "assistant")


def check_finetune(path: str | os.PathLike[str]) -> list[str]:
    """Problems in a chat fine-tuning JSONL file, one string each naming the line; [] when valid."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [f"{path}: cannot read ({exc})"]
    lines = text.splitlines()
    return check_finetune_lines(lines) if lines else [f"{path}: the file is empty"]


def check_finetune_lines(lines: Sequence[str]) -> list[str]:
    """Problems in JSONL lines (1-based line numbers), OpenAI chat fine-tuning format."""
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        problems.extend(f"line {number}: {p}" for p in _line_problems(line))
    return problems


def _line_problems(line: str) -> list[str]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return [f"not JSON ({exc.msg})"]
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list) or not data["messages"]:
        return ['not an object with a non-empty "messages" list']
    messages = data["messages"]
    problems = [p for i, m in enumerate(messages) for p in _message_problems(i, m)]
    roles = [m.get("role") for m in messages if isinstance(m, dict)]
    if "system" in roles[1:]:
        problems.append("a system message may only come first")
    if "user" not in roles or not roles or roles[-1] != "assistant":
        problems.append("needs a user message and must end with an assistant message")
    return problems


def _message_problems(index: int, message: Any) -> list[str]:
    if not isinstance(message, dict):
        return [f"message {index} is not an object"]
    problems = []
    if message.get("role") not in ROLES:
        problems.append(f"message {index} has role {message.get('role')!r}, not one of {', '.join(ROLES)}")
    content = message.get("content")
    if not isinstance(content, str) or not content.strip():
        problems.append(f"message {index} has no text content")
    elif looks_secret(content):
        problems.append(f"message {index} holds what looks like a secret")
    return problems
