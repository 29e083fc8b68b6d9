"""Dates as people write them (English), read relative to `now`.

`spans(text, now)` returns the time spans a text names, as UTC [start, end) UNIX seconds:

- ISO dates: "2024-03-15" (that day), "2024-03" (that month), "2024" (that year);
- numeric dates: "15/03/2024", "03/15/2024", "15.03.24". When one number is over 12 it is the day.
  **Ambiguous dates** ("03/04/2024") are read day-first (3 April), unless that reading lies after
  `now` and the month-first one does not, then month-first (4 March). Without a year ("on 6/11")
  only with a slash and only after "on", "since", "by", "until" or "till" ("3/4", "1.2", "by 1/2",
  "3/4 cup" are no dates): the same rule in `now`'s year, then the latest occurrence that has begun
  ("on 6/11" and "on 11/6" asked on 20 June 2024 are both 11 June 2024);
- month names with or without day and year: "April 2023", "in April", "March 15th",
  "the 3rd of May", "last November", "this June", "next May". Without a year a month or day means
  its latest occurrence that has begun by `now` ("last" also skips the current month; "next" is
  the first one after `now`). A bare month name ("April", "may", "march" are also names and verbs)
  counts only after a word such as "in", "of", "last", "since", "from", "to" ("may" and "march",
  also verbs, not after "to", "and", "on", "by", "before", "after", "until");
- a day of the month alone: "on the 4th", "the 11th", "Tuesday the 11th", "Tue 11th": the latest
  one that has begun by `now`; only with "the" or a weekday before it and an ordinal suffix, and
  not before a noun ("the 4th floor", "the 21st century", "the 3rd time" are no dates);
- parts of a month, season or year: "early June" / "the beginning of June" (days 1-10), "mid-May" /
  "the middle of May" (11-20), "late May" / "the end of May" (21 to the end); "the first / second /
  third / fourth / last week of June" (days 1-7 / 8-14 / 15-21 / 22-28 / the last 7); "the first /
  second half of May" (1-15 / 16 to the end). Of a year: early / mid / late are its thirds
  (January-April, May-August, September-December), halves and quarters ("the first quarter of
  2023") its halves and quarters; of a season, its months. A year-less month or season whose part
  has not begun by `now` is the one a year before ("late June" asked on 20 June);
- weekday names: "on Monday" / "Monday" (the latest one, today included), "last Tuesday" (the
  latest before today), "this Friday" (in the current Monday-to-Sunday week), "next Friday",
  "the Tuesday before last" (a week before last Tuesday), "the Friday after next". A weekday next
  to a week is that week's day: "Tuesday of last week", "last week on Tuesday", "on Monday this
  week", "on Tuesday two weeks ago". Next to a date it adds nothing: "Tuesday 11 June", "on
  Tuesday the 11th", "Tue, 4 June" are that date (when they disagree, the date wins);
- "today", "tonight", "this morning / afternoon / evening" (today), "last night" (yesterday),
  "yesterday", "the day before yesterday", "tomorrow", "the day after tomorrow";
- counted time back: "3 days ago", "two weeks ago", "a fortnight ago" (two weeks), "3 weeks back"
  ("back" is "ago"), "a couple of months ago", "a week and a half ago", "about two and a half weeks
  ago"; a day count names its calendar day, a week count the 7 days around it, a month count the
  30, a year count the 365; "about", "around", "a few", "several" … widen that by a quarter of the
  distance (at least a day);
- "last/this/next week, month, quarter, year, weekend" (calendar ones), "the week / month / year /
  weekend before last" (two back), "the past/last 3 days/weeks", "the past fortnight" (up to now);
  "over / at / on the weekend" (the latest weekend that has begun by `now`);
- seasons, meteorological and northern-hemisphere: spring is March-May, summer June-August, autumn
  / fall September-November, winter December-February (and belongs to the year of its December):
  "in the summer", "during winter", "by fall" (after a word such as "in", "during", "over", "since",
  "by"; "fall" and "spring" not after "to", "and", "before", "after"), "summer 2021", "the summer of
  2021", "last / this / next summer". Without a year the latest that has begun by `now`; "last"
  the latest that has ended;
- quarters: "Q1 2024", "in Q3", "in the first quarter" (the latest that has begun by `now`);
- ranges: "between March 3 and March 10", "from May to July 2023" (a year on one end is lent to
  the other; the start is the latest occurrence before the end), "from Monday to Wednesday last
  week" (the week placing the end places the start);
- an offset from a date, written before it with "before" / "prior to" or "after" / "following"; the
  date (the anchor) is any this module reads ("August 3, 2023", "May 5", "2023-08-03", "yesterday",
  "last Friday", "the 4th" ...): "the day / night before X" the day before it, "the day after X" the
  day after; "the week before X" the 7 days up to its start ("the week before August 3, 2023" is 27
  July to 2 August), "the week after X" the 7 days from its end; "the weekend before X" / "last
  weekend before X" the latest Saturday-Sunday ending by its start, "the weekend after X" the first
  one beginning after it; "the Sunday before X" the latest Sunday strictly before its first day (a
  week before when X is a Sunday), "the Saturday after X" the first Saturday after it; "the month /
  year before X" the calendar month / year before the one X begins in ("after": after the one it
  ends in); a counted time, "two weeks before X", "three days after X", "about a month before X":
  the anchor moved by that time, by whole days the calendar days, else at least the unit's width
  around its middle, widened by fuzz words as counted time back is ("N units ago" is this rule with
  `now` as its anchor). "The day before yesterday", "the Tuesday before last", "the week before
  last" keep their own readings;
- ranges open at one end, where the word before a date is not an offset's: "since X", "after X",
  "following X" run from the start of X to `now` (X itself when it has not begun); "until X", "till
  X", "up to X", "by X" from BEGINNING (0.0, the epoch) to the end of X; "before X", "prior to X"
  from BEGINNING to the start of X (X itself when it lies before the epoch). "Between X and Y",
  "from X to / until Y" stay ranges.

Left unread on purpose, as too vague to narrow a search: "the other day", "recently", "lately",
"a while ago", "earlier", "back then"; a part of a week ("the end of last week" is the whole week).

Pure functions only: no I/O, no imports from the rest of Engram. A text naming no date yields ().
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Any

__all__ = ["Span", "spans"]

Span = tuple[float, float]

DAY = 86400.0
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december")
_MONTH_SHORT = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
                "oct": 10, "nov": 11, "dec": 12}
MONTHS = {**{m: i + 1 for i, m in enumerate(MONTH_NAMES)}, **_MONTH_SHORT}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Abbreviated weekdays ("Tue, 4 June") count only in front of a day of the month: "sat", "sun", "wed"
# and "mon" are words too.
_WEEKDAY_SHORT = ("mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun")
# Meteorological seasons, northern hemisphere: the month each begins in (winter runs December to
# February and belongs to the year of its December).
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "final": -1}
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                "thirty": 30, "a couple of": 2, "couple of": 2, "a couple": 2, "a few": 3, "few": 3,
                "several": 4, "half a": 0.5}
# Counts that are approximate by themselves.
VAGUE = frozenset({"a few", "few", "several"})
# Days a counted unit spans around its point ("two weeks ago" -> the 7 days around 14 days back).
UNIT_DAYS = {"day": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.44, "year": 365.25}
FUZZY = r"about|around|roughly|approximately|almost|nearly|some|maybe|perhaps|over|more than|less than|under"
# Words after which a bare month name is a month ("in May", not "you may").
MONTH_CUES = frozenset({"in", "on", "of", "during", "since", "last", "this", "next", "early", "mid", "late",
                        "until", "till", "by", "from", "to", "between", "and", "through", "before", "after",
                        "past", "previous"})
# "may" and "march" are also verbs ("you may", "to march"): they need a word that only goes with a month.
VERB_MONTHS = frozenset({"may", "march"})
VERB_MONTH_CUES = MONTH_CUES - {"to", "and", "on", "by", "before", "after", "till", "until"}
# Words after which a bare season is one ("in the summer", "by fall"); "fall" and "spring" are verbs.
# A part ("the end of summer") counts too; a bare "of" does not ("what aspect of autumn").
SEASON_CUES = frozenset({"in", "during", "over", "through", "throughout", "since", "by", "until", "till", "early",
                         "mid", "late", "from", "to", "and", "before", "after", "between"})
VERB_SEASONS = frozenset({"fall", "spring"})
VERB_SEASON_CUES = SEASON_CUES - {"to", "and", "before", "after"}
# Words after which a bare "Q1" is a quarter ("in Q1"; "Q1 2024" needs none).
QUARTER_CUES = frozenset({"in", "during", "since", "by", "until", "till", "through", "over", "for", "from", "to",
                          "and", "between", "of"})

_M = "|".join(sorted(MONTHS, key=len, reverse=True))
_W = "|".join(WEEKDAYS)
_N = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
_WS = "|".join(sorted(_WEEKDAY_SHORT, key=len, reverse=True))
_S = "|".join(SEASONS)
# What may follow a bare day of the month ("on the 4th", "the 11th?"): the end, a stop, or a word
# that is no noun; "the 4th floor", "the 21st century", "the 3rd time" are no dates.
_AFTER_DAY = (r"(?=\s*(?:$|[?!.,;:)\-–]|(?:and|or|but|at|in|on|of|to|with|when|while|for|from|until|till|"
              r"through|so|as|because|after|before|around|about|i|we|you|he|she|they|it|was|were|is|did|"
              r"had|have|has|last|this|that)\b))")
# A word that opens a year-less numeric date ("on 6/11"); without one "3/4" is a fraction.
_NUMERIC_CUES = r"on|since|by|until|till"
_YEAR = r"(?:19|20)\d{2}"

PATTERN = re.compile(
    rf"""
    (?P<iso>\b(?P<iy>{_YEAR})[-/](?P<im>\d{{1,2}})(?:[-/](?P<id>\d{{1,2}}))?\b)
  | (?P<num>\b(?P<na>\d{{1,2}})[/.](?P<nb>\d{{1,2}})[/.](?P<ny>\d{{4}}|\d{{2}})\b)
  | (?P<ns>\b(?P<nsc>{_NUMERIC_CUES})\s+(?!24/7\b)(?P<nsa>\d{{1,2}})/(?P<nsb>\d{{1,2}})\b
        (?![/.]\d|\s*(?:%|of\b|an?\b|cups?\b|x\b)))
  | (?P<dm>\b(?:the\s+)?(?P<dmd>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<dmm>{_M})\.?\b(?:,?\s*(?P<dmy>{_YEAR})\b)?)
  | (?P<md>\b(?:(?P<mdrel>last|this|next)\s+)?(?P<mdm>{_M})\.?\s+(?:the\s+)?(?P<mdd>\d{{1,2}}){_ORD}\b(?!\s*(?:{_M}|[:/.]\d))
        (?:,?\s*(?P<mdy>{_YEAR})\b)?)
  | (?P<od>\b(?:(?P<odw>{_W}|{_WS})\.?,?\s+)?(?P<odthe>the\s+)?(?P<odd>\d{{1,2}})(?:st|nd|rd|th)\b{_AFTER_DAY})
  | (?P<my>\b(?P<mym>{_M})\.?,?\s+(?:of\s+)?(?P<myy>{_YEAR})\b)
  | (?P<mo>\b(?:(?P<morel>last|this|next)\s+)?(?P<mom>{"|".join(MONTH_NAMES)})\b)
  | (?P<ago>\b(?:(?P<agofz>{FUZZY})\s+)?(?P<agon>\d+(?:\.\d+)?|{_N})(?P<agoh1>\s+and\s+a\s+half)?\s+
        (?P<agou>day|week|fortnight|month|year)s?(?P<agoh2>\s+and\s+a\s+half)?\s+(?:ago|back)\b)
  | (?P<past>\b(?:the\s+)?(?:past|last|previous)\s+(?:(?P<pastn>\d+|{_N})\s+(?P<pastu>day|week|month|year)s?|fortnight)\b)
  | (?P<bl>\b(?:the\s+)?(?P<blu>{_W}|week|weekend|month|quarter|year)\s+(?P<blw>before\s+last|after\s+next)\b
        (?!\s+(?:{_W}|{"|".join(MONTH_NAMES)}|{_S}|week|weekend|month|quarter|year|night)\b))
  | (?P<rel>\b(?P<relw>last|this|next|past|previous)\s+(?P<relu>week|month|quarter|year|weekend)\b(?!\s+of\b))
  | (?P<wkd>\b(?:over|at|on|during|across|through)\s+the\s+weekend\b(?!\s+(?:before|after|of)\b))
  | (?P<tod>(?<!\bthe\s)\b(?:this\s+(?:morning|afternoon|evening|night)|last\s+(?:night|evening))\b)
  | (?P<sn>\b(?:(?P<snrel>last|this|next|past)\s+)?(?P<snn>{_S})\b(?!\s+(?:rolls?|water|onions?)\b)
        (?:\s+(?:of\s+)?(?P<sny>{_YEAR})\b)?)
  | (?P<q>\bQ(?P<qn>[1-4])\b(?:\s+(?:of\s+)?(?P<qy>{_YEAR})\b)?)
  | (?P<qw>\b(?:in|during|since|by|until|till|through|over)\s+(?P<qwd>the\s+(?P<qwn>first|second|third|fourth)\s+quarter)\b
        (?!\s+of\b))
  | (?P<wd>\b(?:(?P<wdrel>last|this|next|on)\s+)?(?P<wdw>{_W})\b)
  | (?P<dbf>\bthe\s+day\s+(?P<dbfw>before\s+yesterday|after\s+tomorrow)\b)
  | (?P<word>\b(?:today|tonight|yesterday|tomorrow)\b)
  | (?P<year>\b{_YEAR}\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)
# A part of a month, a season or a year in front of it: "mid-May", "the end of May", "the first week
# of June", "the second half of 2023", "the first quarter of last year".
PART = re.compile(
    r"""\b(?:the\s+)?(?:(?P<early>early|beginning\s+of|start\s+of)|(?P<mid>mid|middle\s+of)|(?P<late>late|end\s+of)
      |(?P<week>first|second|third|fourth|last|final)\s+week\s+of|(?P<half>first|second)\s+half\s+of
      |(?P<quarter>first|second|third|fourth|last|final)\s+quarter\s+of)[\s-]*(?:the\s+)?$""",
    re.IGNORECASE | re.VERBOSE,
)
# What may stand between a weekday and the week or date that places it ("Tuesday of last week",
# "last week on Tuesday", "Tuesday, 11 June").
WEEKDAY_JOIN = re.compile(r"^[\s,]*(?:(?:on|of)\s+)?$", re.IGNORECASE)
DATE_JOIN = re.compile(r"^[\s,(]*$")
# What may stand between the two ends of a range, and what opens one.
BETWEEN = re.compile(r"\s*(?:and|to|until|till|through|-|–)\s*$", re.IGNORECASE)
OPENS = re.compile(r"\b(?:between|from)\s*$", re.IGNORECASE)
# An offset written in front of the date it is counted from ("the week before August 3", "the Sunday
# after May 5", "last weekend before April 10", "about two weeks before 11 August", "the day after
# yesterday"): the adjacent day, 7 days, weekend, weekday, calendar month or year, or a counted time.
_BEFORE = r"before|prior\s+to"
OFFSET = re.compile(
    rf"""\b(?:(?:(?:the|that|last)\s+)?(?P<unit>day|night|week|weekend|month|year|{_W})
      |(?:(?P<fz>{FUZZY})\s+)?(?P<n>\d+(?:\.\d+)?|{_N})(?P<h1>\s+and\s+a\s+half)?\s+
        (?P<cu>day|week|fortnight|month|year)s?(?P<h2>\s+and\s+a\s+half)?
      )\s+(?:(?P<before>{_BEFORE})|after|following)\s+(?:the\s+)?$""",
    re.IGNORECASE | re.VERBOSE,
)
# A word that opens a range at one end: "since May 3" runs to `now`, "until May 3" from the beginning.
OPEN = re.compile(r"\b(?:(?P<since>since|after|following)|(?P<until>until|till|til|up\s+to|by)|(?:before|prior\s+to))\s+(?:the\s+)?$",
                  re.IGNORECASE)
# Where an open range "until X" or "before X" starts: the epoch.
BEGINNING = 0.0


@dataclass(frozen=True)
class Calendar:
    """A calendar date a text names, maybe without its year or day: resolved against a moment."""

    month: int
    day: int | None = None
    year: int | None = None
    rel: str | None = None  # "last", "this", "next" or None


@dataclass(frozen=True)
class Found:
    """One date expression in a text: where it is, its span, and what may narrow or join it."""

    start: int
    end: int
    span: Span
    calendar: Calendar | None = None
    # "day", "week", "weekend", "month", "quarter", "season", "year" or "" (counted, up to now, ...).
    unit: str = ""
    # A bare weekday ("Tuesday", "on Tuesday"), which a week next to it places ("Tuesday last week").
    weekday: int | None = None
    # The occurrence a year before, for a year-less month or season whose part may not have begun yet
    # ("late June" asked on 20 June is June 2023's).
    back: Span | None = None
    # The week that placed a weekday ("Wednesday last week"), which places a bare weekday opening a
    # range with it too ("from Monday to Wednesday last week").
    week: Span | None = None


def spans(text: str, now: float) -> tuple[Span, ...]:
    """The time spans `text` names, relative to `now` (UNIX seconds, UTC); () when it names none."""
    found = [f for f in (_read(m, now) for m in PATTERN.finditer(text)) if f is not None]
    found = _anchor(text, _join(text, [_narrow(text, f, now) for f in found]))
    out: list[Span] = []
    i = 0
    while i < len(found):
        first = found[i]
        if i + 1 < len(found) and OPENS.search(text[:first.start]) and BETWEEN.match(text[first.end:found[i + 1].start]):
            second = found[i + 1]
            placed = _weekday_in(first.weekday, second.week) if second.week is not None else None
            out.append(_range(first if placed is None else Found(first.start, first.end, placed), second, now))
            i += 2
            continue
        out.append(_open(text, first, now))
        i += 1
    return tuple(out)


def _anchor(text: str, found: list[Found]) -> list[Found]:
    """A date with an offset written in front of it ("the week before August 3", "two weeks before
    11 August", "the Sunday after May 5") as the offset's span; a date found inside the offset ("last
    weekend", "Sunday") is part of it. Right to left, so an anchored date may anchor another."""
    out = list(found)
    i = len(out) - 1
    while i >= 0:
        f = out[i]
        window = text[max(0, f.start - 80):f.start]
        m = OFFSET.search(window)
        span = _offset(m, f.span) if m is not None else None
        if m is None or span is None:
            i -= 1
            continue
        start = f.start - (len(window) - m.start())
        j = i
        while j > 0 and out[j - 1].end > start:
            j -= 1
        out[j:i + 1] = [Found(start, f.end, span, unit="offset")]
        i = j - 1
    return out


def _offset(m: re.Match[str], anchor: Span) -> Span | None:
    """The span an OFFSET match names next to `anchor`: "the day/night", "the week" (7 days),
    "the weekend", "the Sunday", "the month", "the year" before or after it, or a counted time
    ("two weeks before") shifted from it."""
    before = m.group("before") is not None
    first = _day_of(anchor[0])  # the anchor's first day: what lies before it ends at its start
    after = _day_of(anchor[1])  # the first day that begins once the anchor has ended
    if _ts(after) < anchor[1]:
        after += timedelta(days=1)
    if m.group("n"):
        vague = bool(m.group("fz")) or m.group("n").lower() in VAGUE
        n = _count(m.group("n")) + (0.5 if m.group("h1") or m.group("h2") else 0.0)
        return _shift(anchor, -n if before else n, m.group("cu").lower(), vague)
    unit = m.group("unit").lower()
    if unit in ("day", "night"):
        return _days(first - timedelta(days=1), 1) if before else _days(after, 1)
    if unit == "week":
        return _days(first - timedelta(days=7), 7) if before else _days(after, 7)
    if unit in ("month", "year"):
        months = 1 if unit == "month" else 12
        last = after - timedelta(days=1)
        ref = first if before else last
        start = date(ref.year, ref.month if months == 1 else 1, 1)
        start = _add_months(start, -months if before else months)
        return (_ts(start), _ts(_add_months(start, months)))
    day = 5 if unit == "weekend" else WEEKDAYS.index(unit)
    if before:
        latest = first - timedelta(days=2 if unit == "weekend" else 1)  # a weekend must end by the anchor
        found = latest - timedelta(days=(latest.weekday() - day) % 7)
    else:
        found = after + timedelta(days=(day - after.weekday()) % 7)
    return _days(found, 2 if unit == "weekend" else 1)


def _open(text: str, found: Found, now: float) -> Span:
    """A date opening or closing a range ("since May 3", "after last week": from its start to `now`;
    "until May 3", "by 7 November": from BEGINNING to its end; "before May 3": to its start), else its
    own span. A "since" date not yet begun, or a "before" / "until" date before BEGINNING, stays itself."""
    m = OPEN.search(text[max(0, found.start - 20):found.start])
    start, end = found.span
    if m is None:
        return found.span
    if m.group("since"):
        return (start, now) if start < now else found.span
    if m.group("until"):
        return (BEGINNING, end) if end > BEGINNING else found.span
    return (BEGINNING, start) if start > BEGINNING else found.span


def _narrow(text: str, found: Found, now: float) -> Found:
    """A month, season or year with a part named in front of it ("mid-May", "the first week of June",
    "the second half of 2023") as that part; a year-less one whose part has not begun by `now` is
    the part of the occurrence a year before."""
    if found.unit not in ("month", "season", "year"):
        return found
    m = PART.search(text[max(0, found.start - 40):found.start])
    if m is None:
        return found
    part = _part(m, found.unit, found.span)
    if part is None:
        return found
    if part[0] > now and found.back is not None:
        part = _part(m, found.unit, found.back) or part
    return Found(found.start - (len(text[max(0, found.start - 40):found.start]) - m.start()), found.end, part,
                 unit="part")


def _part(m: re.Match[str], unit: str, span: Span) -> Span | None:
    """The part of a month, season or year that `m` (a PART match) names; None when that unit has no such part.
    Early / mid / late: days 1-10 / 11-20 / 21-end of a month, the first / second / third four months
    of a year, month of a season. Weeks: days 1-7, 8-14, 15-21, 22-28, the last 7. Halves: days 1-15 /
    16-end, January-June / July-December. Quarters (of a year): three months each."""
    first, end = _day_of(span[0]), _day_of(span[1])
    months = 1 if unit == "month" else (12 if unit == "year" else 3)
    name = m.lastgroup or ""
    word = (m.group(name) or "").lower()
    if name in ("early", "mid", "late"):
        third = ("early", "mid", "late").index(name)
        if unit == "month":
            bounds = (first, first + timedelta(days=10), first + timedelta(days=20), end)
            return (_ts(bounds[third]), _ts(bounds[third + 1]))
        step = months // 3
        return (_ts(_add_months(first, third * step)), _ts(_add_months(first, (third + 1) * step)))
    if name == "week":
        n = ORDINAL_WORDS[word]
        start = end - timedelta(days=7) if n < 0 else first + timedelta(days=7 * (n - 1))
        return _days(start, 7)
    if name == "half" and unit != "season":
        middle = first + timedelta(days=15) if unit == "month" else _add_months(first, 6)
        return (_ts(first), _ts(middle)) if word == "first" else (_ts(middle), _ts(end))
    if name == "quarter" and unit == "year":
        n = ORDINAL_WORDS[word] % 5  # "last" is the fourth
        return (_ts(_add_months(first, 3 * (n - 1))), _ts(_add_months(first, 3 * n)))
    return None


def _join(text: str, found: list[Found]) -> list[Found]:
    """A bare weekday next to a week that places it ("Tuesday of last week", "last week on Tuesday",
    "on Tuesday two weeks ago") is that week's day; next to a date ("Tuesday 11 June", "on Tuesday the
    11th") it adds nothing and the date stands, whether or not they agree."""
    out: list[Found] = []
    i = 0
    while i < len(found):
        f = found[i]
        g = found[i + 1] if i + 1 < len(found) else None
        between = text[f.end:g.start] if g is not None else ""
        if g is not None and WEEKDAY_JOIN.match(between):
            day, week = (f, g) if f.weekday is not None else (g, f)
            placed = _weekday_in(day.weekday, week.span) if week.unit in ("week", "weekend") else None
            if day.weekday is not None and placed is not None:
                out.append(Found(f.start, g.end, placed, unit="day", week=week.span))
                i += 2
                continue
        if g is not None and DATE_JOIN.match(between):
            if f.weekday is not None and _dated(g):
                i += 1
                continue
            if g.weekday is not None and _dated(f):
                out.append(f)
                i += 2
                continue
        out.append(f)
        i += 1
    return out


def _dated(found: Found) -> bool:
    """True when `found` is an explicit day of the month ("11 June", "the 11th", "2024-06-11")."""
    return found.calendar is not None and found.calendar.day is not None


def _weekday_in(day: int | None, span: Span) -> Span | None:
    """The day named `day` (0 = Monday) that begins inside `span`, or None."""
    if day is None:
        return None
    first = _day_of(span[0])
    if _ts(first) < span[0]:
        first += timedelta(days=1)
    found = first + timedelta(days=(day - first.weekday()) % 7)
    return _days(found, 1) if _ts(found) < span[1] else None


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
        return _interpret(m, now)
    except ValueError:
        return None


def _cue(m: re.Match[str], group: str) -> str:
    """The word before group `group` of `m` (skipping a "the"), lower-cased: "in" for "in the summer"."""
    words = re.findall(r"[a-z0-9]+", m.string[max(0, m.start(group) - 30):m.start(group)].lower())
    if words and words[-1] == "the":
        words.pop()
    return words[-1] if words else ""


def _interpret(m: re.Match[str], now: float) -> Found | None:
    g = m.groupdict()
    today = _day_of(now)

    def at(span: Span, cal: Calendar | None = None, unit: str = "", **more: Any) -> Found:
        return Found(m.start(), m.end(), span, cal, unit, **more)

    def dated(cal: Calendar) -> Found:
        return at(_resolve(cal, now), cal, "day" if cal.day is not None else "month")

    if g["iso"]:
        return dated(Calendar(int(g["im"]), int(g["id"]) if g["id"] else None, int(g["iy"])))
    if g["num"]:
        return dated(_numeric(int(g["na"]), int(g["nb"]), _full_year(g["ny"], now), now))
    if g["ns"]:
        a, b = int(g["nsa"]), int(g["nsb"])
        if g["nsc"].lower() == "by" and a < b and b in (2, 3, 4, 8):  # "cut by 1/2"
            return None
        cal = _numeric(a, b, today.year, now)
        # It starts at its numbers: the word before ("since", "until") may open a range.
        return replace(dated(Calendar(cal.month, cal.day)), start=m.start("nsa"))
    if g["dm"]:
        return dated(Calendar(MONTHS[g["dmm"].lower()], int(g["dmd"]), int(g["dmy"]) if g["dmy"] else None))
    if g["md"]:
        rel = g["mdrel"].lower() if g["mdrel"] else None
        return dated(Calendar(MONTHS[g["mdm"].lower()], int(g["mdd"]), int(g["mdy"]) if g["mdy"] else None, rel))
    if g["od"]:
        if not g["odthe"] and not g["odw"]:
            return None
        return dated(_day_of_month(int(g["odd"]), now))
    if g["my"]:
        return dated(Calendar(MONTHS[g["mym"].lower()], None, int(g["myy"])))
    if g["mo"]:
        rel = g["morel"].lower() if g["morel"] else None
        cues = VERB_MONTH_CUES if g["mom"].lower() in VERB_MONTHS else MONTH_CUES
        before = m.string[:m.start("mom")].split()
        if rel is None and (not before or before[-1].lower().strip(",(").rstrip("-") not in cues):
            return None
        cal = Calendar(MONTHS[g["mom"].lower()], None, None, rel)
        span = _resolve(cal, now)
        back = _month(_day_of(span[0]).year - 1, cal.month) if rel is None else None
        return at(span, cal, "month", back=back)
    if g["ago"]:
        exact_weeks = (g["agou"] or "").lower() in ("week", "fortnight") and not (
            g["agofz"] or g["agoh1"] or g["agoh2"] or (g["agon"] or "").lower() in VAGUE)
        return at(_ago(g, now), unit="week" if exact_weeks else "")
    if g["past"]:
        n = _count(g["pastn"]) if g["pastn"] else 1.0
        return at((now - n * UNIT_DAYS[(g["pastu"] or "fortnight").lower()] * DAY, now))
    if g["bl"]:
        shift = -2 if g["blw"].lower().startswith("before") else 2
        unit = g["blu"].lower()
        if unit in WEEKDAYS:
            nearest = _weekday(WEEKDAYS.index(unit), "last" if shift < 0 else "next", today)
            return at((nearest[0] + 7 * DAY * shift / 2, nearest[1] + 7 * DAY * shift / 2), unit="day")
        return at(_relative(shift, unit, today), unit=unit)
    if g["rel"]:
        unit = g["relu"].lower()
        shift = {"last": -1, "previous": -1, "past": -1, "this": 0, "next": 1}[g["relw"].lower()]
        return at(_relative(shift, unit, today), unit=unit)
    if g["wkd"]:
        saturday = today - timedelta(days=today.weekday()) + timedelta(days=5 if today.weekday() >= 5 else -2)
        return at(_days(saturday, 2), unit="weekend")
    if g["tod"]:
        yesterday = g["tod"].lower().startswith("last")
        return at(_days(today - timedelta(days=1 if yesterday else 0), 1), unit="day")
    if g["sn"]:
        part = PART.search(m.string[max(0, m.start("snn") - 40):m.start("snn")])
        season = _season_named(g, "in" if part else _cue(m, "snn"), now)
        return None if season is None else at(season[0], unit="season", back=season[1])
    if g["q"]:
        if not g["qy"] and _cue(m, "q") not in QUARTER_CUES:
            return None
        return at(_quarter(int(g["qn"]), int(g["qy"]) if g["qy"] else None, now), unit="quarter")
    if g["qw"]:
        found = at(_quarter(ORDINAL_WORDS[g["qwn"].lower()], None, now), unit="quarter")
        return replace(found, start=m.start("qwd"))
    if g["wd"]:
        rel = (g["wdrel"] or "").lower()
        day = WEEKDAYS.index(g["wdw"].lower())
        return at(_weekday(day, rel, today), unit="day", weekday=day if rel in ("", "on") else None)
    if g["dbf"]:
        shift = -2 if g["dbfw"].lower().startswith("before") else 2
        return at(_days(today + timedelta(days=shift), 1), unit="day")
    if g["word"]:
        shift = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}[g["word"].lower()]
        return at(_days(today + timedelta(days=shift), 1), unit="day")
    if g["year"]:
        year = int(g["year"])
        return at((_ts(date(year, 1, 1)), _ts(date(year + 1, 1, 1))), unit="year")
    return None


def _day_of_month(day: int, now: float) -> Calendar:
    """ "the 11th": the latest 11th of a month that has begun by `now`."""
    today = _day_of(now)
    index = today.year * 12 + today.month - 1
    for back in range(13):
        year, month = divmod(index - back, 12)
        cal = Calendar(month + 1, day, year)
        span = _safe(cal)
        if span is not None and span[0] <= now:
            return cal
    raise ValueError("no such day")


def _season_named(g: dict[str, str | None], cue: str, now: float) -> tuple[Span, Span | None] | None:
    """ "in the summer", "last winter", "summer 2023": meteorological seasons, northern hemisphere.
    Without a year the latest one that has begun by `now`; "last" the latest that has ended; "this"
    the current one, else the one of this year; "next" the first after `now`. With the occurrence a
    year before when neither a year nor a "last"/"this"/"next" was written."""
    name = (g["snn"] or "").lower()
    rel = (g["snrel"] or "").lower()
    cues = VERB_SEASON_CUES if name in VERB_SEASONS else SEASON_CUES
    if not rel and not g["sny"] and cue not in cues:
        return None
    month = SEASONS[name]
    if g["sny"]:
        return _season(month, int(g["sny"])), None
    year = _day_of(now).year
    candidates = [_season(month, y) for y in range(year + 1, year - 3, -1)]  # newest first
    if rel == "next":
        span = [c for c in candidates if c[0] > now][-1]
    elif rel in ("last", "past"):
        span = next(c for c in candidates if c[1] <= now)
    elif rel == "this":
        span = next((c for c in candidates if c[0] <= now < c[1]), _season(month, year))
    else:
        span = next(c for c in candidates if c[0] <= now)
    return span, (_season(month, _day_of(span[0]).year - 1) if not rel else None)


def _season(month: int, year: int) -> Span:
    first = date(year, month, 1)
    return (_ts(first), _ts(_add_months(first, 3)))


def _quarter(n: int, year: int | None, now: float) -> Span:
    """Quarter `n` of `year`; without a year the latest one that has begun by `now`."""
    today = _day_of(now)
    for y in ((year,) if year is not None else (today.year, today.year - 1)):
        first = date(y, 3 * n - 2, 1)
        if year is not None or _ts(first) <= now:
            return (_ts(first), _ts(_add_months(first, 3)))
    raise ValueError("no such quarter")


def _add_months(first: date, n: int) -> date:
    index = first.year * 12 + first.month - 1 + n
    return date(index // 12, index % 12 + 1, 1)


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
    return _latest(cal, math.nextafter(now, math.inf))  # begun: starts at or before now


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
    """ "N units ago": `now` shifted back N units (see _shift)."""
    word = (g["agon"] or "").lower()
    n = _count(word) + (0.5 if g["agoh1"] or g["agoh2"] else 0.0)
    return _shift((now, now), -n, (g["agou"] or "day").lower(), bool(g["agofz"]) or word in VAGUE)


def _shift(anchor: Span, n: float, name: str, vague: bool) -> Span:
    """`anchor` moved by `n` units ("two weeks ago": `now` by -2 weeks; "three days after May 5"): by
    whole days, the calendar days it then touches; else the moved span, at least the unit's width
    around its middle. Widened by a quarter of the distance (at least a day) when `vague`."""
    if name == "fortnight":  # "a fortnight ago" is "two weeks ago"
        n, name = 2 * n, "week"
    unit = UNIT_DAYS[name]
    distance = n * unit * DAY
    margin = max(DAY, 0.25 * abs(distance)) if vague else 0.0
    start, end = anchor[0] + distance, anchor[1] + distance
    if unit == 1.0 and n == int(n):
        first = _day_of(start)
        last = _day_of(end)
        days = max(1, (last - first).days + (1 if _ts(last) < end else 0))
        start, end = _days(first, days)
    elif end - start < unit * DAY:
        middle = (start + end) / 2
        start, end = middle - unit * DAY / 2, middle + unit * DAY / 2
    return (start - margin, end + margin)


def _count(word: str) -> float:
    word = re.sub(r"\s+", " ", word.lower())
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else float(word)


def _relative(shift: int, unit: str, today: date) -> Span:
    """The calendar week, weekend, month, quarter or year `shift` away from this one ("last week": -1)."""
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=shift)
        return _days(monday + timedelta(days=5), 2) if unit == "weekend" else _days(monday, 7)
    if unit in ("month", "quarter"):
        months = 1 if unit == "month" else 3
        first = _add_months(date(today.year, today.month - (today.month - 1) % months, 1), shift * months)
        return (_ts(first), _ts(_add_months(first, months)))
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
