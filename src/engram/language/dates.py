"""Dates as people write them (English), read relative to `now`.

`spans(text, now)` returns the time spans a text names, as UTC [start, end) UNIX seconds:

- ISO dates: "2024-03-15" (that day), "2024-03" (that month), "2024" (that year);
- numeric dates: "15/03/2024", "03/15/2024", "15.03.24". When one number is over 12 it is the day.
  **Ambiguous dates** ("03/04/2024") are read day-first (3 April), unless that reading lies after
  `now` and the month-first one does not, then month-first (4 March);
- month names with or without day and year: "April 2023", "in April", "March 15th",
  "the 3rd of May", "last November", "this June", "next May". Without a year a month or day means
  its latest occurrence that has begun by `now` ("last" also skips the current month; "next" is
  the first one after `now`). A bare month name ("April", "may", "march" are also names and verbs)
  counts only after a word such as "in", "of", "last", "since", "from", "to" ("may" and "march",
  also verbs, not after "to", "and", "on", "by", "before", "after", "until");
- weekday names: "on Monday" / "Monday" (the latest one, today included), "last Tuesday" (the
  latest before today), "this Friday" (in the current Monday-to-Sunday week), "next Friday";
- "today", "tonight", "yesterday", "the day before yesterday", "tomorrow";
- counted time back: "3 days ago", "two weeks ago", "a couple of months ago", "a week and a half
  ago", "about two and a half weeks ago"; a day count names its calendar day, a week count the 7
  days around it, a month count the 30, a year count the 365; "about", "around", "a few",
  "several" … widen that by a quarter of the distance (at least a day);
- "last/this week, month, year, weekend" (calendar ones) and "the past/last 3 days/weeks" (up to now);
- ranges: "between March 3 and March 10", "from May to July 2023" (a year on one end is lent to
  the other; the start is the latest occurrence before the end).

Pure functions only: no I/O, no imports from the rest of Engram. A text naming no date yields ().
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

__all__ = ["Span", "spans"]

Span = tuple[float, float]

DAY = 86400.0
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december")
_MONTH_SHORT = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
                "oct": 10, "nov": 11, "dec": 12}
MONTHS = {**{m: i + 1 for i, m in enumerate(MONTH_NAMES)}, **_MONTH_SHORT}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                "thirty": 30, "a couple of": 2, "couple of": 2, "a couple": 2, "a few": 3, "few": 3,
                "several": 4, "half a": 0.5}
# Counts that are approximate by themselves.
VAGUE = frozenset({"a few", "few", "several"})
# Days a counted unit spans around its point ("two weeks ago" -> the 7 days around 14 days back).
UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 30.44, "year": 365.25}
FUZZY = r"about|around|roughly|approximately|almost|nearly|some|maybe|perhaps|over|more than|less than|under"
# Words after which a bare month name is a month ("in May", not "you may").
MONTH_CUES = frozenset({"in", "on", "of", "during", "since", "last", "this", "next", "early", "mid", "late",
                        "until", "till", "by", "from", "to", "between", "and", "through", "before", "after",
                        "past", "previous"})
# "may" and "march" are also verbs ("you may", "to march"): they need a word that only goes with a month.
VERB_MONTHS = frozenset({"may", "march"})
VERB_MONTH_CUES = MONTH_CUES - {"to", "and", "on", "by", "before", "after", "till", "until"}

_M = "|".join(sorted(MONTHS, key=len, reverse=True))
_W = "|".join(WEEKDAYS)
_N = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"

PATTERN = re.compile(
    rf"""
    (?P<iso>\b(?P<iy>{_YEAR})[-/](?P<im>\d{{1,2}})(?:[-/](?P<id>\d{{1,2}}))?\b)
  | (?P<num>\b(?P<na>\d{{1,2}})[/.](?P<nb>\d{{1,2}})[/.](?P<ny>\d{{4}}|\d{{2}})\b)
  | (?P<dm>\b(?:the\s+)?(?P<dmd>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<dmm>{_M})\.?\b(?:,?\s*(?P<dmy>{_YEAR})\b)?)
  | (?P<md>\b(?:(?P<mdrel>last|this|next)\s+)?(?P<mdm>{_M})\.?\s+(?:the\s+)?(?P<mdd>\d{{1,2}}){_ORD}\b(?!\s*(?:{_M}|[:/.]\d))
        (?:,?\s*(?P<mdy>{_YEAR})\b)?)
  | (?P<my>\b(?P<mym>{_M})\.?,?\s+(?:of\s+)?(?P<myy>{_YEAR})\b)
  | (?P<mo>\b(?:(?P<morel>last|this|next)\s+)?(?P<mom>{"|".join(MONTH_NAMES)})\b)
  | (?P<ago>\b(?:(?P<agofz>{FUZZY})\s+)?(?P<agon>\d+(?:\.\d+)?|{_N})(?P<agoh1>\s+and\s+a\s+half)?\s+
        (?P<agou>day|week|month|year)s?(?P<agoh2>\s+and\s+a\s+half)?\s+ago\b)
  | (?P<past>\b(?:the\s+)?(?:past|last|previous)\s+(?P<pastn>\d+|{_N})\s+(?P<pastu>day|week|month|year)s?\b)
  | (?P<rel>\b(?P<relw>last|this|next|past|previous)\s+(?P<relu>week|month|year|weekend)\b)
  | (?P<wd>\b(?:(?P<wdrel>last|this|next|on)\s+)?(?P<wdw>{_W})\b)
  | (?P<dbf>\bthe\s+day\s+before\s+yesterday\b)
  | (?P<word>\b(?:today|tonight|yesterday|tomorrow)\b)
  | (?P<year>\b{_YEAR}\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)
# What may stand between the two ends of a range, and what opens one.
BETWEEN = re.compile(r"\s*(?:and|to|until|till|through|-|–)\s*$", re.IGNORECASE)
OPENS = re.compile(r"\b(?:between|from)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Calendar:
    """A calendar date a text names, maybe without its year or day: resolved against a moment."""

    month: int
    day: int | None = None
    year: int | None = None
    rel: str | None = None  # "last", "this", "next" or None


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    span: Span
    calendar: Calendar | None = None


def spans(text: str, now: float) -> tuple[Span, ...]:
    """The time spans `text` names, relative to `now` (UNIX seconds, UTC); () when it names none."""
    found = [f for f in (_read(m, now) for m in PATTERN.finditer(text)) if f is not None]
    out: list[Span] = []
    i = 0
    while i < len(found):
        first = found[i]
        if i + 1 < len(found) and OPENS.search(text[:first.start]) and BETWEEN.match(text[first.end:found[i + 1].start]):
            out.append(_range(first, found[i + 1], now))
            i += 2
            continue
        out.append(first.span)
        i += 1
    return tuple(out)


def _range(first: Found, second: Found, now: float) -> Span:
    """One span from the start of `first` to the end of `second`, lending a year across."""
    end_span = second.span
    a, b = first.calendar, second.calendar
    if a is not None and b is not None and b.year is None and a.year is not None:
        end_span = _resolve(Calendar(b.month, b.day, a.year), now)
    start_span = first.span
    if a is not None and a.year is None:
        year = b.year if b is not None and b.year is not None else None
        start_span = _resolve(Calendar(a.month, a.day, year), now) if year else _latest(a, end_span[0] + DAY)
    if start_span[0] > end_span[0]:
        start_span, end_span = end_span, start_span
    return (start_span[0], max(start_span[1], end_span[1]))


def _read(m: re.Match[str], now: float) -> Found | None:
    """One match as a span, or None when it is no date (a bare "may", an impossible day)."""
    try:
        cal, span = _interpret(m, now)
    except ValueError:
        return None
    if span is None:
        return None
    return Found(m.start(), m.end(), span, cal)


def _interpret(m: re.Match[str], now: float) -> tuple[Calendar | None, Span | None]:
    g = m.groupdict()
    today = _day_of(now)
    if g["iso"]:
        cal = Calendar(int(g["im"]), int(g["id"]) if g["id"] else None, int(g["iy"]))
        return cal, _resolve(cal, now)
    if g["num"]:
        cal = _numeric(int(g["na"]), int(g["nb"]), _full_year(g["ny"], now), now)
        return cal, _resolve(cal, now)
    if g["dm"]:
        cal = Calendar(MONTHS[g["dmm"].lower()], int(g["dmd"]), int(g["dmy"]) if g["dmy"] else None)
        return cal, _resolve(cal, now)
    if g["md"]:
        rel = g["mdrel"].lower() if g["mdrel"] else None
        cal = Calendar(MONTHS[g["mdm"].lower()], int(g["mdd"]), int(g["mdy"]) if g["mdy"] else None, rel)
        return cal, _resolve(cal, now)
    if g["my"]:
        cal = Calendar(MONTHS[g["mym"].lower()], None, int(g["myy"]))
        return cal, _resolve(cal, now)
    if g["mo"]:
        rel = g["morel"].lower() if g["morel"] else None
        before = m.string[:m.start("mom")].split()
        cues = VERB_MONTH_CUES if g["mom"].lower() in VERB_MONTHS else MONTH_CUES
        if rel is None and (not before or before[-1].lower().strip(",(") not in cues):
            return None, None
        cal = Calendar(MONTHS[g["mom"].lower()], None, None, rel)
        return cal, _resolve(cal, now)
    if g["ago"]:
        return None, _ago(g, now)
    if g["past"]:
        n = _count(g["pastn"])
        return None, (now - n * UNIT_DAYS[g["pastu"].lower()] * DAY, now)
    if g["rel"]:
        return None, _relative(g["relw"].lower(), g["relu"].lower(), today)
    if g["wd"]:
        return None, _weekday(WEEKDAYS.index(g["wdw"].lower()), (g["wdrel"] or "").lower(), today)
    if g["dbf"]:
        return None, _days(today - timedelta(days=2), 1)
    if g["word"]:
        shift = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}[g["word"].lower()]
        return None, _days(today + timedelta(days=shift), 1)
    if g["year"]:
        year = int(g["year"])
        return None, (_ts(date(year, 1, 1)), _ts(date(year + 1, 1, 1)))
    return None, None


def _numeric(a: int, b: int, year: int, now: float) -> Calendar:
    """A numeric date's day and month: the one over 12 is the day; else day-first, unless only the
    month-first reading has begun by `now`."""
    if a > 12 and b <= 12:
        return Calendar(b, a, year)
    if b > 12 and a <= 12:
        return Calendar(a, b, year)
    day_first = Calendar(b, a, year)
    month_first = Calendar(a, b, year)
    if _resolve(day_first, now)[0] > now and _valid(month_first) and _resolve(month_first, now)[0] <= now:
        return month_first
    return day_first


def _valid(cal: Calendar) -> bool:
    try:
        _resolve(cal, 0.0)
    except ValueError:
        return False
    return True


def _full_year(text: str, now: float) -> int:
    """A year as written: "24" is the 2000s unless that lies more than 10 years after `now`."""
    year = int(text)
    if len(text) == 4:
        return year
    century = _day_of(now).year // 100 * 100
    return century + year if century + year <= _day_of(now).year + 10 else century - 100 + year


def _resolve(cal: Calendar, now: float) -> Span:
    """The span of a calendar date; without a year, the occurrence its `rel` word picks."""
    if cal.year is not None:
        if cal.day is None:
            return _month(cal.year, cal.month)
        return _days(date(cal.year, cal.month, cal.day), 1)
    today = _day_of(now)
    if cal.rel == "this":
        return _resolve(Calendar(cal.month, cal.day, today.year), now)
    if cal.rel == "next":
        for year in (today.year, today.year + 1, today.year + 2, today.year + 4):
            span = _safe(Calendar(cal.month, cal.day, year))
            if span is not None and span[0] > now:
                return span
        raise ValueError("no such date")
    if cal.rel == "last" and cal.day is None:
        month_start = _ts(date(today.year, today.month, 1))
        return _latest(cal, month_start)
    return _latest(cal, now + 1.0)


def _latest(cal: Calendar, before: float) -> Span:
    """The latest occurrence of a year-less date that begins before `before`."""
    year = _day_of(before).year
    for y in range(year, year - 9, -1):
        span = _safe(Calendar(cal.month, cal.day, y))
        if span is not None and span[0] < before:
            return span
    raise ValueError("no such date")


def _safe(cal: Calendar) -> Span | None:
    try:
        return _resolve(cal, 0.0)
    except ValueError:
        return None


def _ago(g: dict[str, str | None], now: float) -> Span:
    """ "N units ago": the calendar day for whole days, else the unit's width around the point;
    widened by a quarter of the distance when the count is approximate."""
    word = (g["agon"] or "").lower()
    n = _count(word) + (0.5 if g["agoh1"] or g["agoh2"] else 0.0)
    unit = UNIT_DAYS[(g["agou"] or "day").lower()]
    point = now - n * unit * DAY
    margin = max(DAY, 0.25 * n * unit * DAY) if g["agofz"] or word in VAGUE else 0.0
    if unit == 1.0 and n == int(n):
        start, end = _days(_day_of(point), 1)
    else:
        start, end = point - unit * DAY / 2, point + unit * DAY / 2
    return (start - margin, end + margin)


def _count(word: str) -> float:
    word = re.sub(r"\s+", " ", word.lower())
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else float(word)


def _relative(which: str, unit: str, today: date) -> Span:
    """ "last week" (the calendar week before this one), "this month", "next year", "last weekend"."""
    shift = {"last": -1, "previous": -1, "past": -1, "this": 0, "next": 1}[which]
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
        return _days(monday + timedelta(days=5), 2) if unit == "weekend" else _days(monday, 7)
    if unit == "month":
        index = today.year * 12 + today.month - 1 + shift
        return _month(index // 12, index % 12 + 1)
    return (_ts(date(today.year + shift, 1, 1)), _ts(date(today.year + shift + 1, 1, 1)))


def _weekday(day: int, rel: str, today: date) -> Span:
    """ "Monday"/"on Monday": the latest, today included; "last": before today; "this": in this
    week; "next": the first after today."""
    back = (today.weekday() - day) % 7
    if rel == "last":
        back = back or 7
    elif rel == "this":
        back = today.weekday() - day
    elif rel == "next":
        back = -((day - today.weekday()) % 7 or 7)
    return _days(today - timedelta(days=back), 1)


def _month(year: int, month: int) -> Span:
    end = date(year + month // 12, month % 12 + 1, 1)
    return (_ts(date(year, month, 1)), _ts(end))


def _days(first: date, n: int) -> Span:
    return (_ts(first), _ts(first + timedelta(days=n)))


def _ts(d: date) -> float:
    return datetime(d.year, d.month, d.day, tzinfo=timezone.utc).timestamp()


def _day_of(moment: float) -> date:
    return datetime.fromtimestamp(math.floor(moment), tz=timezone.utc).date()
