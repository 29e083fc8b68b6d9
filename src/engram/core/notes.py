"""Research notes with verifiable provenance: a canonical URL, a stable source id, a checked quote.

    mem.remember_note("job:report-42", "The survey covers 40 field trials.",
                      url="https://Example.org/survey/?utm_source=x#results",
                      quote="we compare results from 40 field trials", page_text=text_of_the_page)
    mem.forget_source("job:report-42", "https://example.org/survey")   # every note from that page

A note is a `note` item whose metadata holds `url` (canonical), `source_id` (`src:` + 16 hex
digits derived from the canonical URL, so every agent that cites a page gets the same id) and,
when given, `quote` and `quote_checked`; its `source` is "URL SOURCE_ID", so every surface that
shows an item's source (CLI, inspector, REST, MCP) shows both. A note that carries a quote together with the
page's text is saved only if the quote appears in that text, compared after Unicode NFKC and
whitespace normalisation with curly and straight quotes, dashes and hyphens, and invisible
characters folded (`quote_found`); otherwise it is refused with the reason. HTML can be given as
`page_html` and is reduced to its visible text first (`html_text`).
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.errors import InvalidInput
from engram.language.normalise import plain, squeeze
from engram.store.base import Filter
from engram.types import NOTE, Item, Saved, TimeLike
from engram.web import canonical_url, html_text

if TYPE_CHECKING:
    from engram.core.memory import Memory

SOURCE_ID_PREFIX = "src:"
__all__ = ["SOURCE_ID_PREFIX", "canonical_url", "forget_source", "html_text", "normalise_text", "notes",
           "quote_found", "remember_note", "source_id"]


# -- sources -------------------------------------------------------------------------------------
def source_id(url: str) -> str:
    """The stable id of a page: `src:` + 16 hex digits of BLAKE2b over its canonical URL."""
    return SOURCE_ID_PREFIX + hashlib.blake2b(canonical_url(url).encode("utf-8"), digest_size=8).hexdigest()


# -- quotes ------------------------------------------------------------------------------------
def normalise_text(text: str) -> str:
    """Text as compared for quotes: NFKC, curly quotes straight, every dash a hyphen, invisible
    characters (soft hyphen, zero-width) removed, runs of whitespace one space."""
    return squeeze(plain(text))


def quote_found(quote_text: str, page_text: str) -> bool:
    """True when the quote appears in the page's text after `normalise_text` on both."""
    needle = normalise_text(quote_text)
    return bool(needle) and needle in normalise_text(page_text)


# -- the verbs on Memory (bound as its methods, as engram.core.episodic's are) ------------------
def remember_note(mem: Memory, subject: str, text: str, *, url: str, quote: str | None = None,
                  page_text: str | None = None, page_html: str | None = None,
                  agent: str | None = None, importance: float = 0.5, now: TimeLike = None) -> Saved:
    """Save a research note citing `url` (stored canonical, with its source id).

    With `quote` and the page (`page_text`, or `page_html` reduced to its text) the note is
    saved only if the quote appears on the page; otherwise Saved(False, reason=...).
    """
    canonical = canonical_url(url)
    meta: dict[str, Any] = {"url": canonical, "source_id": source_id(canonical)}
    if page_text is not None and page_html is not None:
        raise InvalidInput("give the page as page_text or as page_html, not both")
    page = html_text(page_html) if page_html is not None else page_text
    if page is not None and not isinstance(page, str):
        raise InvalidInput(f"the page must be a str, not {type(page).__name__}")
    if quote is not None:
        if not isinstance(quote, str) or not normalise_text(quote):
            raise InvalidInput(f"quote must be a non-empty string, not {quote!r}")
        quote = validate.clean_text(quote, "quote")
        if page is not None and not quote_found(quote, page):
            return Saved(False, None, f"quote not found on the page {canonical}: the note was not saved")
        meta["quote"] = quote
        meta["quote_checked"] = page is not None
    elif page is not None:
        raise InvalidInput("the page's text is given to check a quote: pass quote= too")
    same = Filter(kinds=(NOTE,), content_hash=validate.content_hash(validate.clean_text(text)),
                  metadata={"source_id": meta["source_id"]})
    found = mem.items(subject, where=same, limit=1)
    if found:  # the same note from the same page: one copy (from another page it is kept)
        return Saved(False, found[0].id, "duplicate")
    # The source shows both where any surface prints it (CLI lines, inspector, REST, MCP).
    return mem.remember(subject, text, kind=NOTE, source=f"{canonical} {meta['source_id']}", metadata=meta,
                        agent=agent, importance=importance, now=now)


def notes(mem: Memory, subject: str, source: str | None = None) -> list[Item]:
    """Current notes of a subject, newest first; only those of one page when `source` (a source
    id or a URL) is given."""
    where = Filter(kinds=(NOTE,), metadata={"source_id": _source_key(source)} if source else {})
    return mem.items(subject, where=where)


def forget_source(mem: Memory, subject: str, source: str) -> int:
    """Delete every note (every version) of `subject` taken from one page: `source` is its
    source id (`src:...`) or any URL of it (canonicalised first)."""
    subject = validate.subject(subject)
    where = Filter(kinds=(NOTE,), metadata={"source_id": _source_key(source)}, include_superseded=True)
    ids = [it.id for it in mem.items(subject, where=where)]
    return mem.forget_ids(subject, ids) if ids else 0


def _source_key(source: str) -> str:
    """A source id as given, or the id of a URL."""
    if not isinstance(source, str) or not source.strip():
        raise InvalidInput(f"say which source: a source id (src:...) or a URL, not {source!r}")
    source = source.strip()
    if source.startswith(SOURCE_ID_PREFIX):
        if not re.fullmatch(r"src:[0-9a-f]{16}", source):
            raise InvalidInput(f"{source!r} is not a source id (src: and 16 hex digits)")
        return source
    return source_id(source)
