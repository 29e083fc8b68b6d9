"""A long message as the passages recall searches it by: paragraphs, a code block whole where it
fits, a list item with its heading.

    split("Steps:\\n- install\\n- run")   # [Passage(start=0, end=24, heading='')]

The message is read as blocks: a fenced code block (``` or ~~~) is one block; elsewhere a blank
line ends a paragraph, and each list item (with its indented continuation lines) is a block of
its own. A heading (a Markdown `#` line, a line in bold, or a short line ending with ":") starts a
new passage and is the context of the passages after it until the next heading. Consecutive
blocks are packed into passages of at most TARGET characters; a longer paragraph is cut at
sentence ends, a code block longer than MAX_CODE at line ends. Every passage is a span of the
message (`start`, `end`); `text(message)` is that span, led by its heading when the heading is
not inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET = 700  # characters: about 170 MiniLM tokens, under its 256-token window with a heading
MAX_CODE = 1500  # a code block up to this long stays one passage
_FENCE = re.compile(r"^\s*(```|~~~)")
_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+\S")
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S.*|\*\*[^*\n]{1,120}\*\*:?|[^\n]{1,80}:)\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class Passage:
    """A span of a message and the heading it sits under ("" for none)."""

    start: int
    end: int
    heading: str = ""

    def text(self, message: str) -> str:
        """The passage as recall shows and indexes it: its heading (when outside it), then the span."""
        body = message[self.start:self.end]
        return f"{self.heading}\n{body}" if self.heading and self.heading not in body else body


@dataclass(frozen=True)
class _Block:
    start: int
    end: int
    code: bool = False
    heading: bool = False


def split(message: str, target: int = TARGET) -> list[Passage]:
    """The passages of `message`, in order (one passage when it is at most `target` characters)."""
    stripped = message.strip()
    if not stripped:
        return [Passage(0, len(message))]
    if len(stripped) <= target:
        start = message.index(stripped[0])
        return [Passage(start, start + len(stripped))]
    return _pack(message, _pieces(message, _blocks(message), target), target)


def _lines(message: str) -> list[tuple[int, int]]:
    """(start, end) of each line, without its newline."""
    out, at = [], 0
    for line in message.split("\n"):
        out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def _blocks(message: str) -> list[_Block]:
    """Code blocks, headings, list items and paragraphs, in order; blank lines dropped."""
    blocks: list[_Block] = []
    current: list[tuple[int, int]] = []
    fence: str | None = None

    def close(code: bool = False) -> None:
        if current:
            blocks.append(_Block(current[0][0], current[-1][1], code=code))
            current.clear()

    for start, end in _lines(message):
        line = message[start:end]
        if fence is not None:
            current.append((start, end))
            if line.strip().startswith(fence):
                close(code=True)
                fence = None
            continue
        found = _FENCE.match(line)
        if found:
            close()
            fence = found.group(1)
            current.append((start, end))
            continue
        if not line.strip():
            close()
        elif _HEADING.match(line) and len(line.strip()) < 120:
            close()
            blocks.append(_Block(start, end, heading=True))
        elif _ITEM.match(line):
            close()
            current.append((start, end))
        else:
            current.append((start, end))
    close(code=fence is not None)
    return [_trim(message, b) for b in blocks if message[b.start:b.end].strip()]


def _trim(message: str, block: _Block) -> _Block:
    text = message[block.start:block.end]
    lead = len(text) - len(text.lstrip())
    tail = len(text) - len(text.rstrip())
    return _Block(block.start + lead, block.end - tail, block.code, block.heading)


def _pieces(message: str, blocks: list[_Block], target: int) -> list[_Block]:
    """Blocks longer than a passage cut: prose at sentence ends, code at line ends."""
    out: list[_Block] = []
    for block in blocks:
        size = block.end - block.start
        if size <= (MAX_CODE if block.code else target):
            out.append(block)
            continue
        cuts = _line_cuts(message, block) if block.code else _sentence_cuts(message, block)
        out.extend(_Block(s, e, block.code) for s, e in _greedy(cuts, MAX_CODE if block.code else target))
    return out


def _sentence_cuts(message: str, block: _Block) -> list[tuple[int, int]]:
    text = message[block.start:block.end]
    spans, at = [], 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((block.start + at, block.start + m.start()))
        at = m.end()
    spans.append((block.start + at, block.end))
    return _hard_cut(spans)


def _line_cuts(message: str, block: _Block) -> list[tuple[int, int]]:
    return _hard_cut([(s, e) for s, e in _lines(message[block.start:block.end])
                      if e > s for s, e in [(block.start + s, block.start + e)]])


def _hard_cut(spans: list[tuple[int, int]], size: int = TARGET) -> list[tuple[int, int]]:
    """Spans longer than `size` (a sentence without an end, a minified line) in pieces of `size`."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        out.extend((i, min(e, i + size)) for i in range(s, e, size))
    return out


def _greedy(spans: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    """Consecutive spans joined while the joined span stays within `limit` characters."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and e - out[-1][0] <= limit:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _pack(message: str, blocks: list[_Block], target: int) -> list[Passage]:
    """Consecutive blocks joined into passages of at most `target` characters (a whole code block
    may be longer); a heading starts a passage and leads the passages under it."""
    out: list[Passage] = []
    heading = ""
    start = end = -1
    under = ""
    alone = False  # the open passage is a heading alone: the next block joins it whatever its size
    for block in blocks:
        if block.heading:
            if start >= 0:
                out.append(Passage(start, end, under))
            heading = " ".join(message[block.start:block.end].split())
            start, end, under, alone = block.start, block.end, "", True
            continue
        fits = start >= 0 and (alone or block.end - start <= target)
        alone = False
        if fits:
            end = block.end
            continue
        if start >= 0:
            out.append(Passage(start, end, under))
        start, end, under = block.start, block.end, heading
    if start >= 0:
        out.append(Passage(start, end, under))
    return out
