"""Web pages as Engram reads them: the canonical form of a URL and the visible text of HTML.

    canonical_url("https://Example.org/survey/?utm_source=x#results")   # 'https://example.org/survey'
    html_text("<p>Hello <script>x()</script>world</p>")                 # '\nHello world\n'

Standard library only; research notes (engram.core.notes) cite pages through it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from engram.errors import InvalidInput

DEFAULT_PORTS = {"http": 80, "https": 443}
# Query parameters that say how a reader arrived, not which page it is.
TRACKING = re.compile(
    r"^(utm_[a-z0-9_]+|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|yclid|twclid|ttclid|igshid|"
    r"mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|oly_anon_id|oly_enc_id|vero_id|spm|ref_src)$",
    re.IGNORECASE,
)


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
