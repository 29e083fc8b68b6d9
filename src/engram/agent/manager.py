"""Memory maintenance: session summaries, near-duplicate consolidation, importance, pruning, stats.

Every function takes a `Memory` and a subject and works through its store, so it runs the same
on every backend. What loses information is a preview first: `consolidate` and `prune` return
their plan and change nothing unless `dry_run=False`. Consolidation supersedes (history is
kept, `mem.history(id)` shows it); pruning deletes through `mem.forget_ids`, so every copy goes.

Importance (0..1), written to each item's `importance` by `score_importance`:

    importance = min(1, (prior[kind] + 0.20*used + 0.15*fresh + 0.15*explicit) * trust)
      prior    preference 0.6, procedure 0.6, fact 0.5, summary 0.4, failed episode 0.35, episode 0.3
      used     min(1, ln(1 + access_count) / ln(21))        20 recalls count as fully used
      fresh    0.5 ** (days since last recalled, else since written / 30)
      explicit 1 when the user said it outright (metadata "explicit": true), else 0
      trust    0.5 + 0.5 * confidence
    An item with metadata "pinned": true scores 1.0 and is never pruned.

Why these terms: what the user states and what keeps being recalled is what an agent needs;
a failed episode is a lesson, kept a little longer than a routine success.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from engram import validate
from engram.errors import InvalidInput, NotFound, ProviderError
from engram.safety.secrets import redact
from engram.store.base import Filter
from engram.types import CONVERSATION, EPISODE, FACT, PREFERENCE, PROCEDURE, SUMMARY, Item, Saved, TimeLike  # fmt: skip

if TYPE_CHECKING:
    from engram.llm.base import LLM
    from engram.core.memory import Memory

DAY = 86400.0
KIND_PRIOR = {PREFERENCE: 0.6, PROCEDURE: 0.6, FACT: 0.5, SUMMARY: 0.4, EPISODE: 0.3}
FAILED_EPISODE_PRIOR = 0.35
FULL_USE_ACCESSES = 20
FRESH_HALF_LIFE_DAYS = 30.0
DEFAULT_THRESHOLD = 0.90  # cosine, all-MiniLM-L6-v2: paraphrases 0.93-0.99, related facts 0.77-0.89
CONSOLIDATE_KINDS = (FACT, PREFERENCE, PROCEDURE, SUMMARY)
PRUNE_KINDS = (FACT, EPISODE, SUMMARY)  # preferences and procedures are the user's settings
SUMMARY_CHARS = 600
SIM_BLOCK = 1024  # rows per similarity block: 1024 x n float32 stays small


# -- importance --------------------------------------------------------------------------------
def importance(item: Item, now: float) -> float:
    """The documented importance formula (module docstring) for one item at time `now`."""
    if item.metadata.get("pinned") is True:
        return 1.0
    prior = KIND_PRIOR.get(item.kind, 0.4)
    if item.kind == EPISODE and item.metadata.get("success") is False:
        prior = FAILED_EPISODE_PRIOR
    used = min(1.0, math.log1p(item.access_count) / math.log1p(FULL_USE_ACCESSES))
    last = item.last_accessed if item.last_accessed is not None else item.created_at
    fresh = 0.5 ** (max(0.0, now - last) / DAY / FRESH_HALF_LIFE_DAYS)
    explicit = 1.0 if item.metadata.get("explicit") is True else 0.0
    trust = 0.5 + 0.5 * item.confidence
    return round(float(min(1.0, (prior + 0.20 * used + 0.15 * fresh + 0.15 * explicit) * trust)), 4)


def score_importance(mem: "Memory", subject: str, *, now: TimeLike = None) -> dict[str, float]:
    """Recompute and store the importance of every current item of `subject`; returns id -> score."""
    at = validate.timestamp(now)
    scores = {it.id: importance(it, at) for it in _current(mem, subject)}
    by_value: dict[float, list[str]] = {}
    for item_id, value in scores.items():
        by_value.setdefault(value, []).append(item_id)
    for value, ids in by_value.items():  # one UPDATE per distinct score, not per item
        mem.admin.update(ids, importance=value)
    return scores


def _current(mem: "Memory", subject: str, kinds: Sequence[str] | None = None) -> list[Item]:
    """Current items (access counts as of every recall so far: buffered ones are written first)."""
    mem.admin.flush_accesses()
    where = Filter(kinds=tuple(kinds) if kinds else None, exclude_kinds=() if kinds else (CONVERSATION,))
    return mem.items(subject, where=where)


# -- session summaries -------------------------------------------------------------------------
@dataclass(frozen=True)
class SessionSummary:
    """A stored summary of one session: its text, how it was made, and the items it covers."""

    session: str
    text: str
    method: str
    covers: tuple[str, ...]
    saved: Saved


SUMMARY_SYSTEM = (
    "You summarise one session of an AI assistant for its long-term memory. In at most {n} characters of "
    "plain prose, say what the user wanted, what was done, what worked, what failed, and any facts "
    "learned about the user. No preamble, no lists, no markdown."
)


def summarize_session(mem: "Memory", subject: str, session: str, *, llm: "LLM | None" = None,
                      max_chars: int = SUMMARY_CHARS, now: TimeLike = None) -> SessionSummary:
    """Summarise a session into one `summary` item (key `session:<id>`; a re-run supersedes it).

    Offline and extractive by default; with `llm`, one `complete` call writes the summary.
    """
    subject = validate.subject(subject)
    if not isinstance(session, str) or not session.strip():
        raise InvalidInput(f"session must be a non-empty session id, not {session!r}")
    max_chars = validate.count(max_chars, "max_chars", 80, 2000)
    items = mem.items(subject, where=Filter(session=session, exclude_kinds=(SUMMARY,)), newest_first=False)
    if not items:
        raise NotFound(f"no memories in session {session!r} for {subject}: check the id with `engram list {subject}`")
    material = session_material(items)
    if llm is None:
        text, method = extractive_session_summary(session, items, max_chars), "extractive"
    else:
        text, method = _llm_summary(llm, material, max_chars), f"llm:{llm.model}"
    text = redact(text)[:max_chars]
    covers = tuple(it.id for it in items)
    saved = mem.remember(subject, text, kind=SUMMARY, key=f"session:{session}", session=session,
                         source="summarize", event_at=max(it.event_at for it in items),
                         metadata={"session": session, "method": method, "covers": list(covers)}, now=now)
    return SessionSummary(session, text, method, covers, saved)


def session_material(items: Sequence[Item]) -> str:
    """The session as lines a summariser reads: episodes, facts, and the saved transcript."""
    lines = []
    for it in items:
        if it.kind == CONVERSATION:
            lines.append(_transcript(it))
        elif it.kind == EPISODE:
            ok = "succeeded" if it.metadata.get("success", True) else "FAILED"
            lines.append(f"episode ({ok}): {it.text}")
        else:
            lines.append(f"{it.kind}: {it.text}")
    return redact("\n".join(line for line in lines if line))


def _transcript(item: Item) -> str:
    import json

    from engram.kinds.working import render_turns

    try:
        turns = json.loads(item.text).get("turns", [])
    except (ValueError, AttributeError):
        return ""
    return render_turns([t for t in turns if isinstance(t, dict)])


def extractive_session_summary(session: str, items: Sequence[Item], max_chars: int = SUMMARY_CHARS) -> str:
    """Offline summary: what was learned first (it matters most), then what was done, failures marked."""
    episodes = [it for it in items if it.kind == EPISODE]
    learned = [it.text.rstrip(".") for it in items if it.kind in (FACT, PREFERENCE, PROCEDURE)]
    asked = [line[6:] for it in items if it.kind == CONVERSATION
             for line in _transcript(it).splitlines() if line.startswith("user: ")]
    ok = sum(1 for e in episodes if e.metadata.get("success", True))
    parts = [f"Session {session}: {len(episodes)} episode(s), {ok} succeeded." if episodes else f"Session {session}."]
    if learned:
        parts.append("Learned: " + "; ".join(learned) + ".")
    if episodes:
        parts.append("Did: " + "; ".join(_episode_phrase(e) for e in episodes) + ".")
    elif asked:
        parts.append("User asked: " + "; ".join(_clip(a, 80) for a in asked[:4]) + ".")
    return _clip(" ".join(parts), max_chars)


def _episode_phrase(item: Item) -> str:
    action = _clip(str(item.metadata.get("action", item.text)).rstrip("."), 80)
    result = _clip(str(item.metadata.get("result", "")).rstrip("."), 50)
    text = f"{action} -> {result}" if result else action
    return text if item.metadata.get("success", True) else f"{text} (failed)"


def _llm_summary(llm: "LLM", material: str, max_chars: int) -> str:
    reply = llm.complete(SUMMARY_SYSTEM.format(n=max_chars),
                         [{"role": "user", "content": f"Session record:\n{material}"}], max_tokens=400)
    text = " ".join(reply.text.split())
    if not text:
        raise ProviderError(f"{llm!r} returned an empty summary; retry, or summarise offline (llm=None)")
    return _clip(text, max_chars)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- consolidation -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Merge:
    """One group of near-duplicates: the item kept, the items it supersedes, and their cosine to it."""

    keep: Item
    drop: tuple[Item, ...]
    similarity: tuple[float, ...]


def consolidate(mem: "Memory", subject: str, *, threshold: float = DEFAULT_THRESHOLD,
                kinds: Sequence[str] = CONSOLIDATE_KINDS, dry_run: bool = True, now: TimeLike = None) -> list[Merge]:
    """Find near-duplicates (same kind and key, cosine >= threshold); unless dry_run, supersede all but the best.

    The best is the newest (a later restatement is most often a correction), then the most recalled,
    then the most confident. The keeper inherits the access counts and the highest importance.
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.5 <= threshold <= 1.0:
        raise InvalidInput(f"threshold must be a cosine similarity from 0.5 to 1, not {threshold!r}")
    embedder = mem.admin.require_embedder()
    if embedder is None:
        raise InvalidInput("consolidate compares vectors: open the Memory with an embedder (not 'none')")
    subject = validate.subject(subject)
    at = validate.timestamp(now)
    ids, matrix = mem.admin.vectors(subject)
    vectors = dict(zip(ids, matrix))
    merges: list[Merge] = []
    for group in _groups(_current(mem, subject, [validate.kind(k) for k in kinds])).values():
        merges.extend(near_duplicates(group, vectors, float(threshold)))
    if not dry_run:
        for merge in merges:
            _apply_merge(mem, merge, at)
    return merges


def _groups(items: Sequence[Item]) -> dict[tuple[str, str | None], list[Item]]:
    # Keyed items already keep one current value per key; two keys are two different settings.
    groups: dict[tuple[str, str | None], list[Item]] = {}
    for item in items:
        groups.setdefault((item.kind, item.key), []).append(item)
    return groups


def near_duplicates(items: Sequence[Item], vectors: dict[str, np.ndarray], threshold: float) -> list[Merge]:
    """Group items best-first: each joins the most similar better-ranked keeper at or above threshold."""
    ranked = [it for it in sorted(items, key=_best_first) if it.id in vectors]
    if not ranked:
        return []
    matrix = np.stack([vectors[it.id] for it in ranked]).astype(np.float32)
    keeper = np.zeros(len(ranked), dtype=bool)
    owner = np.full(len(ranked), -1)
    similarity = np.zeros(len(ranked), dtype=np.float32)
    for start in range(0, len(ranked), SIM_BLOCK):  # one matrix product per block of rows (BLAS)
        block = matrix[start : start + SIM_BLOCK] @ matrix.T
        for row, sims in enumerate(block):
            i = start + row
            allowed = np.where(keeper[:i] & (sims[:i] >= threshold), sims[:i], -np.inf)
            best = int(np.argmax(allowed)) if i else 0
            if i and allowed[best] > -np.inf:
                owner[i], similarity[i] = best, allowed[best]
            else:
                keeper[i] = True
    groups: dict[int, list[int]] = {}
    for position in np.flatnonzero(owner >= 0):
        groups.setdefault(int(owner[position]), []).append(int(position))
    return [Merge(ranked[k], tuple(ranked[i] for i in dups), tuple(round(float(similarity[i]), 4) for i in dups))
            for k, dups in sorted(groups.items())]


def _best_first(it: Item) -> tuple[float, int, float, float, str]:
    return (-it.event_at, -it.access_count, -it.confidence, -it.created_at, it.id)


def _apply_merge(mem: "Memory", merge: Merge, at: float) -> None:
    keep, group = merge.keep, (merge.keep, *merge.drop)
    merged = list(dict.fromkeys([*keep.metadata.get("merged", []), *(d.id for d in merge.drop)]))
    accessed = [it.last_accessed for it in group if it.last_accessed is not None]
    mem.admin.update([keep.id], access_count=sum(it.access_count for it in group),
               last_accessed=max(accessed) if accessed else None,
               importance=max(it.importance for it in group), metadata={**keep.metadata, "merged": merged})
    mem.admin.mark_superseded([d.id for d in merge.drop], keep.id, at=at)


# -- pruning -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """An item a prune would delete, its importance now, and why it qualifies."""

    item: Item
    importance: float
    reason: str


@dataclass(frozen=True)
class PrunePlan:
    """What a prune found (`candidates`) and, when it was not a dry run, how many items it deleted."""

    candidates: tuple[Candidate, ...]
    deleted: int = 0
    dry_run: bool = True


def prune(mem: "Memory", subject: str, *, older_than_days: float | None = None,
          below_importance: float | None = None, unused_days: float | None = None,
          kinds: Sequence[str] = PRUNE_KINDS, include_superseded: bool = False,
          dry_run: bool = True, now: TimeLike = None) -> PrunePlan:
    """Items matching every given criterion (age, importance, days since last recalled), deleted unless dry_run.

    Importance is computed with `importance()` at `now`. Pinned items are never pruned; by default
    neither are preferences and procedures (pass `kinds=` to include them).
    """
    if older_than_days is None and below_importance is None and unused_days is None:
        raise InvalidInput("say what to prune: older_than_days, below_importance and/or unused_days")
    for name, value, top in (("older_than_days", older_than_days, 1e6), ("unused_days", unused_days, 1e6),
                             ("below_importance", below_importance, 1.0)):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if value is not None and (not number or not 0 <= value <= top):
            raise InvalidInput(f"{name} must be a number from 0 to {top:g}, not {value!r}")
    subject, at = validate.subject(subject), validate.timestamp(now)
    where = Filter(kinds=tuple(validate.kind(k) for k in kinds), include_superseded=include_superseded)
    candidates = []
    mem.admin.flush_accesses()  # access counts as of every recall so far
    for item in mem.items(subject, where=where, newest_first=False):
        score = importance(item, at)
        reasons = _prune_reasons(item, score, at, older_than_days, below_importance, unused_days)
        if reasons is not None and item.metadata.get("pinned") is not True:
            candidates.append(Candidate(item, score, reasons))
    deleted = 0 if dry_run or not candidates else mem.forget_ids(subject, [c.item.id for c in candidates])
    return PrunePlan(tuple(candidates), deleted, dry_run)


def _prune_reasons(item: Item, score: float, at: float, older: float | None, below: float | None,
                   unused: float | None) -> str | None:
    """Why the item qualifies, or None when any given criterion does not hold."""
    reasons = []
    age = (at - item.event_at) / DAY
    if older is not None:
        if age < older:
            return None
        reasons.append(f"{age:.0f} days old")
    if below is not None:
        if score >= below:
            return None
        reasons.append(f"importance {score:.2f}")
    if unused is not None:
        last = item.last_accessed if item.last_accessed is not None else item.created_at
        idle = (at - last) / DAY
        if idle < unused:
            return None
        reasons.append("never recalled" if item.last_accessed is None else f"last recalled {idle:.0f} days ago")
    return ", ".join(reasons)


# -- statistics --------------------------------------------------------------------------------
def memory_stats(mem: "Memory", subject: str | None = None) -> dict[str, Any]:
    """`Memory.stats`: counts by kind, history, sessions, episode success rates, time span, access
    and importance figures, all counted by the store in SQL. Kept here for existing callers."""
    return mem.stats(subject)
