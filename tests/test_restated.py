"""Newest first when the user restates a value (engram.core.restated), on a real store with the
bundled model: which questions may reorder, which later messages restate an earlier one, and
where the restatements go."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.core.restated import DEEP, TOP, asked_kinds, asks_value, names_past, newest_first, quantities, restates
from engram.types import Hit
from message_hits import message_hit

AT = "2024-04-10T09:00:00Z"
# A job search: the count of interviews restated without a change word, a deadline moved, and
# other turns about the same search in between.
SEARCH = [
    {"role": "user", "id": 1, "content": "I'm kinda worried that I only secured 3 interviews for executive producer "
                                         "roles between April 25 and May 1, is that a good sign for my resume?"},
    {"role": "assistant", "id": 2, "content": "Three interviews in a week is a solid response rate for senior roles."},
    {"role": "user", "id": 3, "content": "My portfolio deadline for the Island Media application is April 20, "
                                         "can you help me plan the edits?"},
    {"role": "assistant", "id": 4, "content": "Start with the reel, then the case studies, then the cover letter."},
    {"role": "user", "id": 5, "content": "I want my cover letter to mention my work with Caribbean media teams."},
    {"role": "assistant", "id": 6, "content": "Lead with the documentary series and the team you built for it."},
    {"role": "user", "id": 7, "content": "How can I leverage the fact that I secured 5 interviews so far "
                                         "to get more callbacks on my resume?"},
    {"role": "user", "id": 8, "content": "I have 4 case studies left to polish for the Island Media portfolio."},
    {"role": "user", "id": 9, "content": "Good news, the portfolio deadline for Island Media is now April 25."},
]


@pytest.fixture
def search(tmp_path: Path, minilm: object):
    mem = Memory(str(tmp_path / "memory.db"), embedder=minilm)  # type: ignore[arg-type]
    mem.add_messages("user:1", SEARCH, at=AT)  # one time: the turn orders them
    yield mem
    mem.close()


def _ids(hits: list[Hit]) -> list[str]:
    return [str(h.item.metadata["message_id"]) for h in hits]


def test_a_count_restated_without_a_change_word_comes_first(search: Memory):
    hits = search.recall("user:1", "How many interviews have I secured for executive producer roles?", k=5,
                         explain=True)
    assert _ids(hits)[:2] == ["7", "1"]
    assert hits[0].components["newest"] > 0  # moved there
    assert [h.rank for h in hits] == sorted((h.rank for h in hits), reverse=True)


def test_a_moved_date_comes_first_and_a_count_in_between_does_not_restate_it(search: Memory):
    hits = search.recall("user:1", "When is the portfolio deadline for my Island Media application?", k=5)
    ids = _ids(hits)
    assert ids.index("9") < ids.index("3")
    # "4 case studies" is a count, not a date: it never goes above the deadline for restating it.
    assert "8" not in ids or ids.index("8") > ids.index("3")


@pytest.mark.parametrize("question", [
    "How many interviews did I secure for executive producer roles?",  # the past
    "How many interviews for executive producer roles had I secured before?",
    "What would you suggest I do with my executive producer interviews?",  # advice asked of the assistant
    "How many different interviews for executive producer roles came up across my sessions?",  # a count over it all
    "How many interviews have I secured for executive producer roles between April 25 and May 1?",  # a date
])
def test_questions_not_asking_for_the_present_value_keep_the_order(search: Memory, question: str):
    hits = search.recall("user:1", question, k=5, explain=True)
    assert all(h.components.get("newest", 0.0) == 0.0 for h in hits), question


@pytest.mark.parametrize(("query", "expected"), [
    ("How many sources are in my Zotero library?", True),
    ("When is my Zoom call with the creative director scheduled?", True),
    ("By what date am I aiming to complete my onboarding modules?", True),
    ("Can you tell me how many sources I have?", True),  # an asking lead, then the question
    ("I'm updating my portfolio. What types of content would you suggest I add?", False),
    ("Can you help me plan my writing sessions for the week?", False),
    ("What are some good options I can use to help me with writing?", False),
    ("How should I format my resume for the UK?", False),
    ("How many different features did I mention across my sessions?", False),
    ("How have my essay goals evolved since the first draft?", False),
])
def test_a_question_for_a_value(query: str, expected: bool):
    assert asks_value(query) is expected


@pytest.mark.parametrize(("query", "expected"), [
    ("What time should I join the Zoom meeting with Professor Danielle?", {"time"}),
    ("When is my Zoom call with the creative director scheduled?", {"date", "time", "year"}),
    ("What deadline should I aim for with my draft?", {"date", "time", "year"}),
    ("How many interviews have I secured?", {"count", "percent"}),
    ("What is my monthly budget for books?", {"money", "count"}),
    ("What is the test coverage percentage of my API module?", {"percent", "count"}),
    ("What is the daily call quota of my API key?", None),  # no kind named: any
])
def test_the_kinds_of_value_a_question_asks_for(query: str, expected: set[str] | None):
    assert asked_kinds(query) == (None if expected is None else frozenset(expected))


def test_a_count_does_not_restate_a_date_for_a_question_about_a_count():
    earlier = "I secured 3 interviews for producer roles between April 25 and May 1."
    later = "I submitted my producer roles budget proposal on July 11."
    assert restates(earlier, later)  # a new date, about the same roles
    assert not restates(earlier, later, asked_kinds("How many interviews have I secured for producer roles?"))


@pytest.mark.parametrize(("sentence", "expected"), [
    ("We moved the call to April 22 at 11 AM.", {("date", "apr22"), ("time", "11am")}),
    ("The call is on the 22nd of April at 16:30, 2024.", {("date", "apr22"), ("time", "16:30"), ("year", "2024")}),
    ("It costs $1,200 a month, 15% more, for 3 rooms.", {("money", "1200"), ("percent", "15"), ("count", "3")}),
    ("Nothing here is a value.", set()),
])
def test_quantities_by_kind(sentence: str, expected: set[tuple[str, str]]):
    assert quantities(sentence) == expected


@pytest.mark.parametrize(("earlier", "later", "restated"), [
    ("I secured 3 interviews for producer roles.", "I secured 5 interviews for producer roles so far.", True),
    ("My test coverage is at 65% on the API module.", "The API module test coverage is 78%.", True),
    ("The deadline for the draft is April 20.", "The draft deadline is April 25 now.", True),
    ("The deadline for the draft is April 20.", "I have 3 chapters of the draft left.", False),  # a count, not a date
    ("The deadline for the draft is April 20.", "The deadline for the draft is April 20, still.", False),  # same
    ("My Zotero library has 45 sources.", "I moved to a new flat with 3 rooms.", False),  # another matter
])
def test_a_restatement_is_a_new_value_of_a_kind_the_earlier_one_states(earlier: str, later: str, restated: bool):
    assert restates(earlier, later) is restated


_hit = message_hit


def test_every_restatement_goes_above_the_message_it_restates_in_its_own_order():
    earlier = _hit("I've reached 65% test coverage on my API integration module.", 9.0, 1.0)
    answer = _hit("To reach 100% coverage, test the error paths of the API module.", 8.0, 2.0, role="assistant")
    core = _hit("I've currently reached 85% test coverage on my core modules, API fetch included.", 7.0, 4.0)
    api = _hit("The test coverage of my API integration has recently improved to 78%.", 6.0, 3.0)
    other = _hit("My API integration module has 12 endpoints.", 5.0, 5.0)
    hits = newest_first([earlier, answer, core, api, other], "What is the test coverage of my API integration module?",
                        10.0)
    assert [h.id for h in hits] == [core.id, api.id, earlier.id, answer.id, other.id]
    assert [h.rank for h in hits] == sorted((h.rank for h in hits), reverse=True)
    assert hits[0].components["newest"] > 0 and hits[1].components["newest"] > 0
    # Below an unrelated best hit, the restatements go just under it.
    top = _hit("Which CI service should run the API tests?", 12.0, 0.5)
    below = newest_first([top, earlier, answer, api], "What is the test coverage of my API integration module?", 10.0)
    assert [h.id for h in below] == [top.id, api.id, earlier.id, answer.id]
    assert below[0].rank > below[1].rank > below[2].rank > below[3].rank


def test_below_the_first_hits_a_restatement_must_be_closer():
    earlier = _hit("I'm worried about my April 20 deadline for the peer-reviewed draft for the writing group.", 9.0, 1.0)
    filler = [_hit(f"Some advice on editing, part {n}.", 8.0 - n, 1.5 + n / 10, role="assistant")
              for n in range(TOP - 1)]
    close = _hit("The writing group moved my peer-reviewed draft deadline to April 25.", 2.0, 3.0)
    loose = _hit("I'll ask the group, maybe we could meet on April 28.", 2.0, 3.0)
    question = "What deadline should I aim for to submit my peer-reviewed draft to the writing group?"
    assert len([earlier, *filler]) == TOP and DEEP > TOP
    moved = newest_first([earlier, *filler, close], question, 10.0)
    assert moved[0].id == close.id and moved[1].id == earlier.id
    kept = newest_first([earlier, *filler, loose], question, 10.0)  # shares too few words that far down
    assert [h.id for h in kept] == [h.id for h in [earlier, *filler, loose]]
    # The same loose restatement within the first TOP hits is enough.
    near = newest_first([earlier, loose, *filler], question, 10.0)
    assert near[0].id == loose.id


def test_a_time_still_to_come_keeps_the_step_and_a_time_that_is_over_turns_it_off(search: Memory):
    now = 1712739600.0 + 86400  # the day after AT (2024-04-10 09:00 UTC)
    ahead = search.recall("user:1", "When is the portfolio deadline for my Island Media application this month?",
                          k=5, now=now)
    assert _ids(ahead)[:2] == ["9", "3"]  # "this month" is still running: part of the present question
    assert names_past("What was the portfolio deadline on April 1, 2024?", now)
    assert names_past("What time was the call last week?", now)
    assert not names_past("How many books will I read this year?", now)
    assert not names_past("What is my budget for next Saturday?", now)
    assert not names_past("How many sources are in my library?", now)


def test_a_restatement_goes_above_an_earlier_higher_hit_stating_the_same_old_value():
    question = "How long does the probate process usually take in Montserrat?"
    told = _hit("Stephanie explained the probate timeline, which typically takes 6-9 months in Montserrat.", 9.0, 1.0)
    answer = _hit("Probate in Montserrat has several steps.", 8.5, 1.5, role="assistant")
    again = _hit("I'm worried about the probate process taking 6-9 months, so I'll prepare my documents.", 8.0, 2.0)
    other = _hit("My will names my two children as beneficiaries.", 7.5, 2.5)
    shorter = _hit("Good news: the probate process in Montserrat was shortened to 5-7 months.", 7.0, 3.0)
    hits = newest_first([told, answer, again, other, shorter], question, 10.0)
    assert [h.id for h in hits] == [shorter.id, told.id, answer.id, again.id, other.id]
    assert [h.rank for h in hits] == sorted((h.rank for h in hits), reverse=True)
    # A higher hit said after the restatement, or stating another value, keeps its place above it.
    later = _hit("I've heard the probate process takes 6-9 months in Montserrat, is that right?", 9.0, 4.0)
    kept = newest_first([later, answer, again, other, shorter], question, 10.0)
    assert [h.id for h in kept][:3] == [later.id, answer.id, shorter.id]
    unlike = _hit("The probate court for Montserrat sits in Brades, near the ferry port.", 9.0, 1.0)
    apart = newest_first([unlike, answer, again, other, shorter], question, 10.0)
    assert [h.id for h in apart][:3] == [unlike.id, answer.id, shorter.id]


def test_the_span_a_value_runs_for_is_not_a_time_the_question_asks_about():
    now = 1725148800.0  # 2024-09-01
    assert not names_past("What is the budget for prototype refinement through August?", now)
    assert not names_past("How many hours a week do I work until June?", now)
    assert names_past("What was the budget for prototype refinement in August?", now)
