"""The one table of typographic quotes and dashes and the ASCII character each reads as."""

from __future__ import annotations

# Single quotes, primes, backtick and single guillemets read as ', double ones as ", every dash
# and minus sign as -. (NFKC already maps full-width forms and turns a double prime into two.)
SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u2035\u00b4`\u2039\u203a"
DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb"
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"

QUOTES = str.maketrans(dict.fromkeys(SINGLE_QUOTES, "'") | dict.fromkeys(DOUBLE_QUOTES, '"')
                       | dict.fromkeys(DASHES, "-"))


def straighten(text: str) -> str:
    """Curly quotes, primes and guillemets straight, every dash a hyphen ("it’s – ok" -> "it's - ok")."""
    return text.translate(QUOTES)
