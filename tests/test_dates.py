"""Dates as people write them (engram.language.dates), read relative to `now`; and recall finding
the look-alike episode from the date a question names (real MiniLM, real SQLite file)."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engram.core.memory import Memory
from engram.embed import get_embedder
from engram.language.dates import MONTH_NAMES, WEEKDAYS, spans
from engram.types import EPISODE

DAY = 86400.0
U = "user:dates"


def ts(text: str) -> float:
    """UNIX seconds of a UTC "YYYY-MM-DD[ HH:MM]"."""
    fmt = "%Y-%m-%d %H:%M" if " " in text else "%Y-%m-%d"
    return datetime.strptime(text, fmt).replace(tzinfo=timezone.utc).timestamp()


def day_span(text: str) -> tuple[float, float]:
    return (ts(text), ts(text) + DAY)


def contains(found: tuple[tuple[float, float], ...], moment: float) -> bool:
    return any(start <= moment < end for start, end in found)


NOW = ts("2024-06-14 12:00")  # a Friday
nows = st.floats(min_value=ts("1990-01-01"), max_value=ts("2090-01-01"), allow_nan=False)
dates = st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31))


@given(nows, st.integers(min_value=0, max_value=3650))
def test_n_days_ago_contains_now_minus_n_days(now: float, n: int) -> None:
    assert contains(spans(f"What did I do {n} days ago?", now), now - n * DAY)


@given(nows, st.integers(min_value=1, max_value=20))
def test_counted_weeks_in_words_contain_their_point_and_about_widens(now: float, n: int) -> None:
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
             "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
    exact = spans(f"{words[n - 1]} weeks ago", now)
    about = spans(f"about {words[n - 1]} and a half weeks ago", now)
    assert contains(exact, now - 7 * n * DAY)
    assert contains(about, now - 7 * (n + 0.5) * DAY)
    assert (about[0][1] - about[0][0]) > (exact[0][1] - exact[0][0])


@given(dates, nows)
def test_iso_dates_round_trip(day: date, now: float) -> None:
    assert spans(f"on {day.isoformat()}", now) == (day_span(day.isoformat()),)
    first = day.replace(day=1)
    (start, end), = spans(f"in {first.isoformat()[:7]}", now)
    assert start == ts(first.isoformat()) and datetime.fromtimestamp(end, tz=timezone.utc).day == 1
    assert end - start in {28 * DAY, 29 * DAY, 30 * DAY, 31 * DAY}


@given(dates.filter(lambda d: d.day > 12), nows)
def test_unambiguous_numeric_dates_read_in_either_order(day: date, now: float) -> None:
    want = (day_span(day.isoformat()),)
    assert spans(f"{day.day:02d}/{day.month:02d}/{day.year}", now) == want
    assert spans(f"{day.month:02d}/{day.day:02d}/{day.year}", now) == want


@given(dates.filter(lambda d: d.day <= 12 and d.day != d.month), nows)
def test_ambiguous_numeric_dates_read_day_first_unless_only_month_first_has_begun(day: date, now: float) -> None:
    (start, _), = spans(f"{day.day}/{day.month}/{day.year}", now)
    swapped = date(day.year, day.day, day.month)
    if ts(day.isoformat()) > now and ts(swapped.isoformat()) <= now:
        assert start == ts(swapped.isoformat())
    else:
        assert start == ts(day.isoformat())


@given(nows, st.sampled_from(WEEKDAYS))
def test_last_weekday_is_that_weekday_in_the_seven_days_before_today(now: float, name: str) -> None:
    (start, end), = spans(f"What did I cook last {name}?", now)
    # The day `now` falls in: floored, as the module reads it (fromtimestamp rounds to the microsecond,
    # so 23:59:59.9999995 would be the next day).
    today = datetime.fromtimestamp(math.floor(now), tz=timezone.utc).date()
    got = datetime.fromtimestamp(start, tz=timezone.utc).date()
    assert end - start == DAY and WEEKDAYS[got.weekday()] == name
    assert today - timedelta(days=7) <= got < today


PLAIN = ["what", "did", "i", "eat", "the", "team", "may", "march", "will", "can", "you", "tell", "me", "about",
         "dinner", "project", "deploy", "postgres", "alice", "went", "hiking", "with", "bob", "days",
         "weeks", "a", "many", "and", "is", "a", "mayor", "monthly"]


@given(st.lists(st.sampled_from(PLAIN), max_size=12), nows)
def test_a_query_without_a_date_yields_nothing(words: list[str], now: float) -> None:
    assert spans(" ".join(words) + "?", now) == ()


@given(st.text(max_size=80), nows)
def test_any_text_gives_well_formed_spans(text: str, now: float) -> None:
    for start, end in spans(text, now):
        assert start < end


@pytest.mark.parametrize(("query", "start", "end"), [
    ("What did I do on 2024-03-15?", "2024-03-15", "2024-03-16"),
    ("Anything in 2024-03?", "2024-03-01", "2024-04-01"),
    ("on 15/03/2024", "2024-03-15", "2024-03-16"),
    ("on 03/15/2024", "2024-03-15", "2024-03-16"),
    ("on 03/04/2024", "2024-04-03", "2024-04-04"),  # ambiguous: day-first
    ("on 03/07/2024", "2024-03-07", "2024-03-08"),  # day-first (3 July) is after now: month-first
    ("on 15.03.24", "2024-03-15", "2024-03-16"),
    ("What did I do in April?", "2024-04-01", "2024-05-01"),
    ("What did I do in July?", "2023-07-01", "2023-08-01"),  # this July has not begun
    ("in April 2023", "2023-04-01", "2023-05-01"),
    ("on March 15th", "2024-03-15", "2024-03-16"),
    ("on the 3rd of May", "2024-05-03", "2024-05-04"),
    ("last Tuesday", "2024-06-11", "2024-06-12"),
    ("last Friday", "2024-06-07", "2024-06-08"),
    ("on Monday", "2024-06-10", "2024-06-11"),
    ("yesterday", "2024-06-13", "2024-06-14"),
    ("today", "2024-06-14", "2024-06-15"),
    ("the day before yesterday", "2024-06-12", "2024-06-13"),
    ("3 days ago", "2024-06-11", "2024-06-12"),
    ("two weeks ago", "2024-05-28 00:00", "2024-06-04 00:00"),
    ("last November", "2023-11-01", "2023-12-01"),
    ("last June", "2023-06-01", "2023-07-01"),
    ("last week", "2024-06-03", "2024-06-10"),
    ("last month", "2024-05-01", "2024-06-01"),
    ("last year", "2023-01-01", "2024-01-01"),
    ("between March 3 and March 10", "2024-03-03", "2024-03-11"),
    ("from May to July 2023", "2023-05-01", "2023-08-01"),
    ("from November to February", "2023-11-01", "2024-03-01"),
])
def test_examples(query: str, start: str, end: str) -> None:
    assert spans(query, NOW) == ((ts(start), ts(end)),)


def test_about_widens_a_counted_span_by_a_quarter_of_the_distance() -> None:
    (start, end), = spans("about two and a half weeks ago", NOW)
    point = NOW - 17.5 * DAY
    assert start == pytest.approx(point - 3.5 * DAY - 0.25 * 17.5 * DAY)
    assert end == pytest.approx(point + 3.5 * DAY + 0.25 * 17.5 * DAY)


def test_words_that_look_like_months_are_not_dates() -> None:
    assert spans("You may want to march on.", NOW) == ()
    assert spans("What did April say?", NOW) == ()
    assert spans("On 31 February, 2023?", NOW) == ()



# Dates as people write them (issue #22 item 3), read on a Thursday evening.
THURSDAY = ts("2024-06-20 18:00")


@pytest.mark.parametrize(("query", "start", "end"), [
    ("the Tuesday before last", "2024-06-11", "2024-06-12"),
    ("the week before last", "2024-06-03", "2024-06-10"),
    ("the Friday after next", "2024-06-28", "2024-06-29"),
    ("the day after tomorrow", "2024-06-22", "2024-06-23"),
    ("on the 4th", "2024-06-04", "2024-06-05"),
    ("What happened the 11th?", "2024-06-11", "2024-06-12"),
    ("on the 20th", "2024-06-20", "2024-06-21"),  # today has begun
    ("on the 21st", "2024-05-21", "2024-05-22"),  # this month's has not
    ("on the 31st", "2024-05-31", "2024-06-01"),
    ("from the 4th to the 11th", "2024-06-04", "2024-06-12"),
    ("in mid-May", "2024-05-11", "2024-05-21"),
    ("early June", "2024-06-01", "2024-06-11"),
    ("at the end of May", "2024-05-21", "2024-06-01"),
    ("late May", "2024-05-21", "2024-06-01"),
    ("late June", "2023-06-21", "2023-07-01"),  # this June's end has not begun
    ("the middle of last month", "2024-05-11", "2024-05-21"),
    ("the first week of June", "2024-06-01", "2024-06-08"),
    ("the second week of May", "2024-05-08", "2024-05-15"),
    ("the last week of May", "2024-05-25", "2024-06-01"),
    ("the beginning of June", "2024-06-01", "2024-06-11"),
    ("the second half of May", "2024-05-16", "2024-06-01"),
    ("the first half of May 2023", "2023-05-01", "2023-05-16"),
    ("early 2023", "2023-01-01", "2023-05-01"),
    ("mid-2023", "2023-05-01", "2023-09-01"),
    ("the second half of last year", "2023-07-01", "2024-01-01"),
    ("between early May and mid-June", "2024-05-01", "2024-06-21"),
    ("last week on Tuesday", "2024-06-11", "2024-06-12"),
    ("on Tuesday last week", "2024-06-11", "2024-06-12"),
    ("Tuesday of last week", "2024-06-11", "2024-06-12"),
    ("on Monday this week", "2024-06-17", "2024-06-18"),
    ("on Tuesday two weeks ago", "2024-06-04", "2024-06-05"),
    ("from Monday to Wednesday last week", "2024-06-10", "2024-06-13"),
    ("Tuesday 11 June", "2024-06-11", "2024-06-12"),
    ("on Tuesday the 11th", "2024-06-11", "2024-06-12"),
    ("Tuesday, June 11", "2024-06-11", "2024-06-12"),
    ("Tue, 4 June", "2024-06-04", "2024-06-05"),
    ("Wednesday 4 June", "2024-06-04", "2024-06-05"),  # they disagree: the date wins
    ("over the weekend", "2024-06-15", "2024-06-17"),
    ("at the weekend", "2024-06-15", "2024-06-17"),
    ("this past weekend", "2024-06-15", "2024-06-17"),
    ("the weekend before last", "2024-06-08", "2024-06-10"),
    ("this morning", "2024-06-20", "2024-06-21"),
    ("this afternoon", "2024-06-20", "2024-06-21"),
    ("this evening", "2024-06-20", "2024-06-21"),
    ("tonight", "2024-06-20", "2024-06-21"),
    ("last night", "2024-06-19", "2024-06-20"),
    ("a fortnight ago", "2024-06-03 06:00", "2024-06-10 06:00"),
    ("3 weeks back", "2024-05-27 06:00", "2024-06-03 06:00"),
    ("two days back", "2024-06-18", "2024-06-19"),
    ("on 6/11", "2024-06-11", "2024-06-12"),  # 6 November has not begun, 11 June has
    ("on 11/6", "2024-06-11", "2024-06-12"),  # day-first
    ("on 3/12", "2024-03-12", "2024-03-13"),
    ("since 3/12", "2024-03-12", "2024-06-20 18:00"),  # an open range: to now
    ("until 25/12", "1970-01-01", "2023-12-26"),  # from the beginning
    ("in the spring", "2024-03-01", "2024-06-01"),
    ("in the summer", "2024-06-01", "2024-09-01"),
    ("in the autumn", "2023-09-01", "2023-12-01"),
    ("in the fall", "2023-09-01", "2023-12-01"),
    ("in the winter", "2023-12-01", "2024-03-01"),
    ("last summer", "2023-06-01", "2023-09-01"),
    ("last spring", "2024-03-01", "2024-06-01"),
    ("next winter", "2024-12-01", "2025-03-01"),
    ("summer 2021", "2021-06-01", "2021-09-01"),
    ("at the end of the summer", "2023-08-01", "2023-09-01"),
    ("in the first quarter", "2024-01-01", "2024-04-01"),
    ("in the third quarter", "2023-07-01", "2023-10-01"),
    ("Q1 2024", "2024-01-01", "2024-04-01"),
    ("in Q3", "2023-07-01", "2023-10-01"),
    ("the last quarter of 2023", "2023-10-01", "2024-01-01"),
    ("last quarter", "2024-01-01", "2024-04-01"),
])
def test_dates_as_people_write_them(query: str, start: str, end: str) -> None:
    assert spans(query, THURSDAY) == ((ts(start), ts(end)),)


@pytest.mark.parametrize("text", [
    "Upgrade to v1.2.3", "Add 3/4 cup of flour", "3/4", "reduce by 1/2", "on 1/2 of the nights", "release 1.2",
    "since 1.2", "They won 2-1", "See you at 10:30", "ticket 4/11", "ticket ENG-1104", "ID 11/06", "order 6.11", "on the 4th floor",
    "the 4th edition", "4th edition", "the 21st century", "the 3rd time", "Python 3.12", "since 3.12",
    "the other day", "recently", "the last night of the trip", "spring rolls", "in spring water",
    "what aspect of autumn", "rise and fall", "I may fall", "the spring of my life", "Q1", "in the first quarter of the game",
    "the weekend", "the last week of school", "we are on 24/7 support",
])
def test_things_that_are_not_dates(text: str) -> None:
    assert spans(text, THURSDAY) == ()


def test_the_weekend_before_a_date_is_the_weekend_before_it_not_the_latest_weekend() -> None:
    # 4 October 2023 is a Wednesday: the weekend before it is 30 September - 1 October.
    assert spans("over the weekend before 4th October, 2023", THURSDAY) == ((ts("2023-09-30"), ts("2023-10-02")),)


def test_a_season_needs_its_own_cue() -> None:
    assert spans("in 2021 summer camp was fun", THURSDAY) == ((ts("2021-01-01"), ts("2022-01-01")),)


@given(nows, st.sampled_from(WEEKDAYS))
def test_the_weekday_before_last_is_a_week_before_last_weekday(now: float, name: str) -> None:
    (last_start, last_end), = spans(f"last {name}", now)
    assert spans(f"the {name} before last", now) == ((last_start - 7 * DAY, last_end - 7 * DAY),)


@given(nows, st.integers(min_value=1, max_value=31))
def test_a_day_of_the_month_is_the_latest_that_has_begun(now: float, day: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day, "th")
    (start, end), = spans(f"What did I do on the {day}{suffix}?", now)
    got = datetime.fromtimestamp(start, tz=timezone.utc).date()
    assert end - start == DAY and got.day == day and start <= now
    assert now - start < 62 * DAY  # no later month has that day begun


@given(nows, st.sampled_from(WEEKDAYS), st.sampled_from(["last", "this", "next"]))
def test_a_weekday_placed_by_a_week_is_that_weeks_day(now: float, name: str, which: str) -> None:
    (week_start, week_end), = spans(f"{which} week", now)
    for query in (f"on {name} {which} week", f"{which} week on {name}", f"{name} of {which} week"):
        (start, end), = spans(query, now)
        assert week_start <= start < week_end and end - start == DAY
        assert WEEKDAYS[datetime.fromtimestamp(start, tz=timezone.utc).weekday()] == name


@given(dates, nows, st.sampled_from(WEEKDAYS))
def test_a_weekday_next_to_a_date_adds_nothing(day: date, now: float, name: str) -> None:
    month = day.strftime("%B")
    want = spans(f"{day.day} {month} {day.year}", now)
    assert spans(f"{name.title()} {day.day} {month} {day.year}", now) == want
    assert spans(f"on {name.title()}, {month} {day.day}, {day.year}", now) == want


@given(st.integers(min_value=1, max_value=2000), st.integers(min_value=1, max_value=12),
       st.sampled_from(["early", "mid", "late"]))
def test_early_mid_late_tile_a_month(year: int, month: int, part: str) -> None:
    now = ts("2099-01-01")
    y = 1990 + year % 100
    (month_start, month_end), = spans(f"in {MONTH_NAMES[month - 1].title()} {y}", now)
    early, = spans(f"early {MONTH_NAMES[month - 1]} {y}", now)
    mid, = spans(f"in mid-{MONTH_NAMES[month - 1]} {y}", now)
    late, = spans(f"at the end of {MONTH_NAMES[month - 1]} {y}", now)
    assert (early[0], early[1], mid[1], late[1]) == (month_start, mid[0], late[0], month_end)
    assert early[1] - early[0] == 10 * DAY and mid[1] - mid[0] == 10 * DAY


@given(nows, st.sampled_from(["spring", "summer", "autumn", "winter"]))
def test_a_season_without_a_year_has_begun_and_last_one_has_ended(now: float, season: str) -> None:
    (start, end), = spans(f"in the {season}", now)
    (last_start, last_end), = spans(f"last {season}", now)
    assert start <= now < start + 366 * DAY and last_end <= now and last_start <= start
    assert 89 * DAY <= end - start <= 92 * DAY


@given(nows, st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=31))
def test_a_year_less_numeric_date_has_begun(now: float, a: int, b: int) -> None:
    for start, end in spans(f"on {a}/{b}", now):
        got = datetime.fromtimestamp(start, tz=timezone.utc).date()
        assert start <= now and end - start == DAY and {got.day, got.month} == {a, b}
        assert spans(f"since {a}/{b}", now) == (((start, now) if start < now else (start, end)),)


@given(nows, st.integers(min_value=1, max_value=20))
def test_back_is_ago_and_a_fortnight_is_two_weeks(now: float, n: int) -> None:
    assert spans(f"{n} weeks back", now) == spans(f"{n} weeks ago", now)
    assert spans(f"{n} days back", now) == spans(f"{n} days ago", now)
    assert spans("a fortnight ago", now) == spans("two weeks ago", now)


PHRASES = ["the Tuesday before last", "on the 4th", "the 31st", "in mid-May", "late June", "the last week of",
           "February", "the first half of", "2023", "last week on Friday", "Sunday 29 February", "over the weekend",
           "last night", "a fortnight ago", "3 weeks back", "on 31/2", "on 6/11", "in the winter", "last summer",
           "Q4", "in Q1", "the first quarter of", "between", "and", "from", "to", "in", "the", "next", "of"]


@given(st.lists(st.sampled_from(PHRASES), max_size=8), nows)
def test_date_phrases_in_any_order_give_well_formed_spans(words: list[str], now: float) -> None:
    for start, end in spans(" ".join(words), now):
        assert start < end

# Look-alike episodes: the same words on different days. Each question names one day.
EPISODE_TEXT = "Had dinner with Sam at the Italian place."
EPISODE_DAYS = ["2024-03-15", "2024-04-03", "2024-03-04", "2024-06-13", "2024-06-11", "2024-06-10", "2024-05-27",
                "2024-05-10", "2023-11-20", "2024-01-20", "2023-04-20", "2024-06-05"]
QUESTIONS = [
    ("Who did I have dinner with on 2024-03-15?", "2024-03-15"),
    ("Who did I have dinner with on 15/03/2024?", "2024-03-15"),
    ("Who did I have dinner with on 03/15/2024?", "2024-03-15"),
    ("Who did I have dinner with on 03/04/2024?", "2024-04-03"),
    ("Who did I have dinner with on March 4th?", "2024-03-04"),
    ("Who did I have dinner with yesterday?", "2024-06-13"),
    ("Who did I have dinner with last Tuesday?", "2024-06-11"),
    ("Who did I have dinner with on Monday?", "2024-06-10"),
    ("Who did I have dinner with about two and a half weeks ago?", "2024-05-27"),
    ("Who did I have dinner with five weeks ago?", "2024-05-10"),
    ("Who did I have dinner with last November?", "2023-11-20"),
    ("Who did I have dinner with between January 15 and January 25?", "2024-01-20"),
    ("Who did I have dinner with in April 2023?", "2023-04-20"),
    ("Who did I have dinner with last week?", "2024-06-05"),
    ("Who did I have dinner with at the end of May?", "2024-05-27"),
    ("Who did I have dinner with in early May?", "2024-05-10"),
    ("Who did I have dinner with on the 5th?", "2024-06-05"),
]


@pytest.fixture(scope="module")
def dinners(tmp_path_factory):
    mem = Memory(str(tmp_path_factory.mktemp("dates") / "dinners.db"), embedder=get_embedder("minilm"))
    for day in EPISODE_DAYS:
        at = ts(f"{day} 19:00")
        mem.remember(U, EPISODE_TEXT, kind=EPISODE, event_at=at, now=at)
    yield mem
    mem.close()


@pytest.mark.parametrize(("question", "day"), QUESTIONS)
def test_recall_finds_the_episode_on_the_named_date_first(dinners, question: str, day: str) -> None:
    hits = dinners.recall(U, question, k=3, now=NOW, explain=True)
    assert len(dinners.recall(U, "dinner with Sam", k=20, now=NOW)) == len(EPISODE_DAYS)
    assert hits[0].item.event_at == ts(f"{day} 19:00")
    assert hits[0].components["date"] > hits[1].components["date"]


def test_without_a_date_the_date_term_is_inert(dinners) -> None:
    hits = dinners.recall(U, "Who did I have dinner with?", k=5, now=NOW, explain=True)
    assert all(h.components["date"] == 0.0 for h in hits)


# Dates counted from another date, and ranges open at one end (issue #22 item 3), read on THURSDAY.
@pytest.mark.parametrize(("query", "start", "end"), [
    ("the week before August 3, 2023", "2023-07-27", "2023-08-03"),
    ("the week after 2024-06-03", "2024-06-04", "2024-06-11"),
    ("the weekend before 4th October, 2023", "2023-09-30", "2023-10-02"),
    ("last weekend before April 10, 2023", "2023-04-08", "2023-04-10"),  # a Monday: the weekend just ended
    ("the weekend after May 3", "2024-05-04", "2024-05-06"),
    ("the Sunday before October 25, 2022", "2022-10-23", "2022-10-24"),
    ("on the Monday before July 24, 2023", "2023-07-17", "2023-07-18"),  # a Monday: the one a week before
    ("the Saturday after October 28, 2023", "2023-11-04", "2023-11-05"),  # a Saturday: the next one
    ("the Friday after June 11", "2024-06-14", "2024-06-15"),
    ("the Monday before last Friday", "2024-06-10", "2024-06-11"),
    ("two weeks before August 11, 2023", "2023-07-25", "2023-08-01"),  # 7 days around 28 July
    ("about two weeks before August 11, 2023", "2023-07-21 12:00", "2023-08-04 12:00"),
    ("a fortnight after 1 May", "2024-05-12", "2024-05-19"),
    ("three days after August 3", "2023-08-06", "2023-08-07"),
    ("3 days before yesterday", "2024-06-16", "2024-06-17"),
    ("a week before yesterday", "2024-06-09", "2024-06-16"),
    ("the day before August 3, 2023", "2023-08-02", "2023-08-03"),
    ("the day after 2024-06-03", "2024-06-04", "2024-06-05"),
    ("the night before May 3", "2024-05-02", "2024-05-03"),
    ("the day before last Friday", "2024-06-13", "2024-06-14"),
    ("the month before August 3, 2023", "2023-07-01", "2023-08-01"),
    ("the month after June", "2024-07-01", "2024-08-01"),
    ("the year before 2023", "2022-01-01", "2023-01-01"),
    ("the week before last Friday", "2024-06-07", "2024-06-14"),  # not "the week before last"
    ("since May 3", "2024-05-03", "2024-06-20 18:00"),
    ("after May 3", "2024-05-03", "2024-06-20 18:00"),
    ("ever since last week", "2024-06-10", "2024-06-20 18:00"),
    ("since early June", "2024-06-01", "2024-06-20 18:00"),
    ("since 2020", "2020-01-01", "2024-06-20 18:00"),
    ("since the day before yesterday", "2024-06-18", "2024-06-20 18:00"),
    ("after the Sunday before June 11", "2024-06-09", "2024-06-20 18:00"),
    ("until May 3", "1970-01-01", "2024-05-04"),
    ("till last week", "1970-01-01", "2024-06-17"),
    ("up to 2023", "1970-01-01", "2024-01-01"),
    ("by 7 November, 2022", "1970-01-01", "2022-11-08"),
    ("by the end of May", "1970-01-01", "2024-06-01"),
    ("before May 3", "1970-01-01", "2024-05-03"),
    ("prior to 2023", "1970-01-01", "2023-01-01"),
    ("from May until July", "2023-05-01", "2023-08-01"),  # a range, as before
    ("between June 1 and June 10", "2024-06-01", "2024-06-11"),
    ("the day before yesterday", "2024-06-18", "2024-06-19"),
    ("the Tuesday before last", "2024-06-11", "2024-06-12"),
    ("the weekend before last", "2024-06-08", "2024-06-10"),
])
def test_dates_from_another_date_and_open_ranges(query: str, start: str, end: str) -> None:
    assert spans(query, THURSDAY) == ((ts(start), ts(end)),)


def test_a_since_date_not_yet_begun_is_itself() -> None:
    assert spans("since next week", THURSDAY) == ((ts("2024-06-24"), ts("2024-07-01")),)
    assert spans("before 1950", THURSDAY) == ((ts("1950-01-01"), ts("1951-01-01")),)


@pytest.mark.parametrize("text", [
    "before 3.12", "by 2 points", "after 10:30", "since 1.2", "up to 5 people", "by the way",
    "the day before the meeting", "two weeks before the trip", "since then", "until further notice",
    "the week after we met", "a day after the party",
])
def test_offsets_and_open_ranges_without_a_date_are_not_dates(text: str) -> None:
    assert spans(text, THURSDAY) == ()


ANCHORS = ["August 11, 2023", "4th October, 2023", "2023-05-04", "10/07/2022", "the 4th", "yesterday", "last Friday",
           "today", "March 15th", "Tuesday of last week", "two weeks ago"]


@given(nows, st.sampled_from(ANCHORS), st.sampled_from(WEEKDAYS), st.booleans())
def test_an_anchored_weekday_is_that_weekday_within_seven_days_of_its_anchor(
        now: float, anchor: str, name: str, before: bool) -> None:
    (a, b), = spans(anchor, now)
    (start, end), = spans(f"the {name.title()} {'before' if before else 'after'} {anchor}", now)
    got = datetime.fromtimestamp(start, tz=timezone.utc)
    assert end - start == DAY and WEEKDAYS[got.weekday()] == name and got.hour == 0
    if before:
        assert end <= a and a - start <= 8 * DAY
    else:
        assert start >= b and start - b < 8 * DAY


@given(nows, st.sampled_from(ANCHORS), st.booleans())
def test_the_weekend_week_and_day_next_to_a_date_touch_it(now: float, anchor: str, before: bool) -> None:
    (a, b), = spans(anchor, now)
    word = "before" if before else "after"
    (ws, we), = spans(f"the weekend {word} {anchor}", now)
    (ks, ke), = spans(f"the week {word} {anchor}", now)
    (ds, de), = spans(f"the day {word} {anchor}", now)
    assert datetime.fromtimestamp(ws, tz=timezone.utc).weekday() == 5 and we - ws == 2 * DAY
    assert ke - ks == 7 * DAY and de - ds == DAY
    if before:
        assert we <= a < we + 7 * DAY and a - DAY < ke <= a and ke == de
    else:
        assert ws >= b > ws - 7 * DAY and b <= ks < b + DAY and ks == ds


UNITS = {"day": 1.0, "week": 7.0, "month": 30.44, "year": 365.25}


@given(nows, st.sampled_from(ANCHORS), st.integers(min_value=1, max_value=12), st.sampled_from(list(UNITS)),
       st.booleans(), st.booleans())
def test_n_units_before_a_date_is_n_units_from_that_dates_anchor(
        now: float, anchor: str, n: int, unit: str, before: bool, about: bool) -> None:
    (a, b), = spans(anchor, now)
    fuzz = "about " if about else ""
    (start, end), = spans(f"{fuzz}{n} {unit}s {'before' if before else 'after'} {anchor}", now)
    (ago_start, ago_end), = spans(f"{fuzz}{n} {unit}s ago", now)
    point = (a + b) / 2 + (-1 if before else 1) * n * UNITS[unit] * DAY
    assert start <= point < end
    if unit != "day" and b - a <= UNITS[unit] * DAY:  # as wide as "n units ago" is around its point
        assert end - start == pytest.approx(ago_end - ago_start)


@given(nows, st.sampled_from(ANCHORS + ["2023", "last April", "last week", "the summer of 2021", "summer 2021", "mid-May"]))
def test_open_ranges_keep_their_anchors_side(now: float, anchor: str) -> None:
    (a, b), = spans(anchor, now)
    for word in ("since", "after"):
        assert spans(f"{word} {anchor}", now) == (((a, now) if a < now else (a, b)),)
    for word in ("until", "till", "up to", "by"):
        assert spans(f"{word} {anchor}", now) == (((0.0, b) if b > 0 else (a, b)),)
    assert spans(f"before {anchor}", now) == (((0.0, a) if a > 0 else (a, b)),)


OFFSET_PHRASES = ["the week before", "the Sunday after", "last weekend before", "two weeks before", "about",
                  "the day after", "since", "until", "by", "before", "after", "up to", "August 3, 2023",
                  "yesterday", "last Friday", "the 4th", "between", "and", "from", "to", "the month before"]


@given(st.lists(st.sampled_from(OFFSET_PHRASES), max_size=8), nows)
def test_offsets_and_open_ranges_in_any_order_give_well_formed_spans(words: list[str], now: float) -> None:
    for start, end in spans(" ".join(words), now):
        assert start < end
