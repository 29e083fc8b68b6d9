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
from engram.language.dates import WEEKDAYS, spans
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
