"""The one check every stored string passes before a write: no secret, no instruction to the assistant.

`refusal(parts, secrets=..., instructions=...)` returns the reason a write is refused, or None.
`Memory._prepare` (every verb, tool, MCP and REST write) and `import_` (engram import) call it,
so the reasons are the same everywhere:

* `looks like a secret (<kind>)` (engram.safety.secrets)
* `looks like an instruction to the assistant, not a fact` (engram.safety.instructions)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from engram.safety.instructions import REASON as INSTRUCTION_REASON
from engram.safety.instructions import ORIGINS, check_instruction, judge
from engram.safety.instructions import evidence as _evidence
from engram.safety.intent import model
from engram.safety.secrets import find_secrets, redact

__all__ = ["INSTRUCTION_REASON", "explain", "redactions", "refusal", "secret_reason", "secret_spans", "strings"]

# Identifiers Engram makes itself (item ids, a note's source id) are random-looking hex: their
# digits pass a card number's checksum by chance (about one item id in 1,400), which refused
# summaries, merges and notes that merely list ids. So a number found by its shape alone (a checksum,
# a structure, entropy) inside such an id is not a secret. A value the text *names* as a secret is,
# even when it has an id's shape: "Twilio auth token 9f8e…", a provider's 32-hex API key (an agent
# saves those as often as ids).
_ENGINE_IDS = re.compile(r"\b[0-9a-f]{32}\b|\bsrc:[0-9a-f]{16}\b")
_BY_SHAPE = frozenset({"card_number", "us_ssn", "uk_nino", "iban", "high_entropy_string"})


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """The secrets the write screen counts in `text` (find_secrets, less numbers found by shape inside Engram's ids)."""
    ids = [m.span() for m in _ENGINE_IDS.finditer(text)]
    return [(s, e, k) for s, e, k in find_secrets(text)
            if not (k in _BY_SHAPE and any(a <= s and e <= b for a, b in ids))]


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value (mapping values, list items, nested), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def secret_reason(kind: str) -> str:
    """The refusal reason for a secret of `kind` (the secret itself is never part of it)."""
    return f"looks like a secret ({kind})"


def refusal(parts: Iterable[str | None], *, secrets: bool = True, instructions: bool = True,
            instruction_parts: Iterable[str | None] | None = None, origin: str = "user") -> str | None:
    """Why these strings must not be stored (the first problem found), or None when they may be.

    `parts` go through the secret filter; `instruction_parts` (default: the same strings) through
    the instruction filter, as text of `origin` (an unknown origin counts as "user"). Empty strings
    and None are skipped.
    """
    origin = origin if origin in ORIGINS else "user"
    wanted = [p for p in parts if p]
    if secrets:
        for part in wanted:
            found = secret_spans(part)
            if found:
                return secret_reason(found[0][2])
    if instructions:
        for part in (wanted if instruction_parts is None else [p for p in instruction_parts if p]):
            if check_instruction(part, origin=origin) is not None:
                return INSTRUCTION_REASON
    return None


def explain(text: str, *, origin: str = "user") -> dict[str, Any]:
    """Every signal both screens read on `text`, how strongly each fired, and the decision (`engram screen --explain`)."""
    spans = secret_spans(text)
    verdict = judge(text, origin)
    _, feats, readings = _evidence(verdict.window)
    detail = model().explain(readings[0], feats)
    reason = secret_reason(spans[0][2]) if spans else INSTRUCTION_REASON if verdict.refused else None
    return {
        "refused": reason is not None,
        "reason": reason,
        "secrets": {"found": [kind for _, _, kind in spans], "redacted": redact(text) if spans else None},
        "instruction": {
            "refused": verdict.refused,
            "origin": origin,
            "probability": round(verdict.probability, 3),
            "threshold": verdict.threshold,
            "rule_threshold": verdict.rule_threshold,
            "rules": verdict.hits,
            "directive_from_untrusted_origin": verdict.directive,
            "window": verdict.window if len(verdict.window) < len(text) else None,
            "logit": {"bias": detail.bias, "ngrams": detail.ngram_logit, **detail.signal_logits},
            "top_ngrams": [[gram, weight] for gram, weight in detail.top_ngrams],
        },
    }


def redactions(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` with every secret the write screen counts (`secret_spans`) replaced in place by
    `[redacted: <kind>]`, and the kinds redacted, in order (the rest of the text is unchanged)."""
    found = secret_spans(text)
    if not found:
        return text, ()
    parts, at = [], 0
    for start, end, kind in found:
        parts += [text[at:start], f"[redacted: {kind}]"]
        at = end
    parts.append(text[at:])
    return "".join(parts), tuple(kind for _, _, kind in found)
