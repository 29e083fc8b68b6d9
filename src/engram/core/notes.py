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
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from engram import validate
from engram.errors import InvalidInput
from engram.language.normalise import plain, squeeze
from engram.store.base import Filter
from engram.types import NOTE, Item, Saved, TimeLike

if TYPE_CHECKING:
    from engram.core.memory import Memory

SOURCE_ID_PREFIX = "src:"
DEFAULT_PORTS = {"http": 80, "https": 443}
# Query parameters that say how a reader arrived, not which page it is.
TRACKING = re.compile(
    r"^(utm_[a-z0-9_]+|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|yclid|twclid|ttclid|igshid|"
    r"mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|oly_anon_id|oly_enc_id|vero_id|spm|ref_src)$",
    re.IGNORECASE,
)
_UNRESERVED = re.compile(r"%([0-9A-Fa-f]{2})")


# -- URLs --------------------------------------------------------------------------------------
def canonical_url(url: str) -> str:
    """The canonical form of an http(s) URL: scheme and host lower-cased, default port, user
    info, fragment and tracking parameters dropped, dot segments resolved, percent-escapes
    normalised, remaining parameters sorted by name, no trailing slash except the root's."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInput(f"url must be an http(s) URL such as https://example.org/page, not {url!r}")
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise InvalidInput(f"url must be an http(s) URL such as https://example.org/page, not {url!r}")
    host = _host(parts.hostname)
    try:
        port = parts.port
    except ValueError:
        raise InvalidInput(f"url {url!r} has an invalid port") from None
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = _path(parts.path)
    pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not TRACKING.match(k)]
    query = urlencode(sorted(pairs, key=lambda kv: kv[0]), quote_via=quote, safe="-._~")
    return urlunsplit((scheme, netloc, path, query, ""))


def source_id(url: str) -> str:
    """The stable id of a page: `src:` + 16 hex digits of BLAKE2b over its canonical URL."""
    return SOURCE_ID_PREFIX + hashlib.blake2b(canonical_url(url).encode("utf-8"), digest_size=8).hexdigest()


def _host(hostname: str) -> str:
    host = hostname.lower().rstrip(".")
    try:
        return host.encode("idna").decode("ascii")  # bücher.example -> xn--bcher-kva.example
    except UnicodeError:
        return host


def _path(path: str) -> str:
    segments: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment not in (".", ""):
            segments.append(quote(unquote(segment), safe="!$&'()*+,;=:@-._~"))
    return "/" + "/".join(segments)


# -- quotes ------------------------------------------------------------------------------------
def normalise_text(text: str) -> str:
    """Text as compared for quotes: NFKC, curly quotes straight, every dash a hyphen, invisible
    characters (soft hyphen, zero-width) removed, runs of whitespace one space."""
    return squeeze(plain(text))


def quote_found(quote_text: str, page_text: str) -> bool:
    """True when the quote appears in the page's text after `normalise_text` on both."""
    needle = normalise_text(quote_text)
    return bool(needle) and needle in normalise_text(page_text)


class _TextOfHtml(HTMLParser):
    """Visible text of an HTML page: script, style and template content left out; blocks on new lines."""

    SKIP = frozenset({"script", "style", "template", "noscript", "head", "svg"})
    BLOCKS = frozenset({"p", "div", "br", "hr", "li", "tr", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4",
                        "h5", "h6", "section", "article", "main", "nav", "aside", "blockquote", "pre", "table",
                        "ul", "ol", "dl", "header", "footer", "figure", "figcaption", "caption", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skipping += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def html_text(html: str) -> str:
    """The visible text of an HTML page (entities decoded, markup, scripts and styles removed)."""
    parser = _TextOfHtml()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


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
