"""Near spellings (engram.store.spelling): a query word the subject's keyword index does not hold
stands for the nearest term it does, below an exact match, the same on both backends."""

from __future__ import annotations

import uuid

import pytest

from engram.embed.hashing import HashingEmbedder
from engram.store import Filter, keyword, open_store, spelling
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"
FACTS = ["Feature flags are handled by LaunchDarkly.", "Passport expires in November 2027.",
         "Mia's birthday is on 17 October.", "Priya Natarajan is the engineering manager.",
         "Uses Neovim as the editor for everyday coding.", "The project deadline was pushed back to 15 June.",
         "The beach house is booked for August.", "Drinks red wine with dinner.", "Runs k8s on bare metal."]


def make(text: str, subject: str = SUBJECT) -> Item:
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=1000.0, event_at=1000.0,
                valid_from=1000.0, content_hash=content_hash(text))


def stem(word: str) -> str | None:
    found = keyword.TOKENISER.words([word])[0]
    return found[0] if len(found) == 1 else None


def nearest(word: str) -> spelling.Near | None:
    counts: dict[str, int] = {}
    for doc in keyword.TOKENISER.documents(FACTS):
        for term in doc.terms:
            counts[term] = counts.get(term, 0) + 1
    return spelling.Vocabulary(counts).near(word, stem(word) or "", stem)


def near(word: str) -> tuple[str, int] | None:
    found = nearest(word)
    return None if found is None else (found.term, found.distance)


@pytest.mark.parametrize(("word", "meant"), [
    ("flgas", ("flag", 1)),  # an adjacent swap is one edit
    ("pasport", ("passport", 1)),
    ("brithday", ("birthdai", 1)),  # the word's own stem is one edit from the term
    ("manger", ("manag", 1)),  # "mang" ~ "manag", and "manag" + "er" stems to "manag"
    ("editer", ("editor", 1)),
    ("dedline", ("deadlin", 1)),
    ("lanchdrkly", ("launchdarkli", 2)),  # two edits from 9 letters on
])
def test_a_misspelt_word_finds_the_term_it_meant(word: str, meant: tuple[str, int]):
    assert near(word) == meant


@pytest.mark.parametrize(("word", "respelt"), [
    ("flgas", "flags"), ("manger", "manager"), ("brithday", "birthday"), ("dedline", "deadline"),
    ("pasport", "passport"), ("editer", "editor"),
])
def test_a_misspelt_word_is_respelt_as_a_word_of_its_term(word: str, respelt: str):
    found = nearest(word)
    assert found is not None and found.word == respelt and stem(respelt) == found.term


def test_a_term_porter_already_folds_needs_no_near_spelling():
    assert stem("enginering") == stem("engineering") and near("enginering") is None


@pytest.mark.parametrize("word", [
    "wine",  # held: an exact term is never replaced
    "line",  # under 5 letters: "wine" is one edit away, but short words are too close to each other
    "reach",  # "beach" is one edit away, but starts with another letter
    "k8ss",  # a digit: never matched
    "zebra",  # nothing near
])
def test_no_near_term_for_short_words_numbers_other_first_letters_or_held_terms(word: str):
    assert near(word) is None


def test_a_misspelling_scores_below_the_word_and_the_same_on_both_backends(tmp_path, pg_server: str):
    from pg_server import fresh_database

    results = []
    for url in (str(tmp_path / "s.db"), fresh_database(pg_server)):
        with open_store(url) as store:
            items = [make(t) for t in FACTS]
            store.put(items)
            flags = items[0].id
            exact = dict(store.keyword(SUBJECT, ["feature", "flags"], Filter(), 10))
            spelt = dict(store.keyword(SUBJECT, ["feature", "flgas"], Filter(), 10))
            alone = dict(store.keyword(SUBJECT, ["flgas"], Filter(), 10))
            assert list(alone) == [flags]  # found by the misspelling alone
            assert spelt[flags] < exact[flags]  # counted below the exact word
            # a near term counts NEAR_WEIGHT of its BM25
            assert alone[flags] == pytest.approx(spelling.NEAR_WEIGHT
                                                 * dict(store.keyword(SUBJECT, ["flags"], Filter(), 10))[flags])
            assert store.keyword(SUBJECT, ["zebra"], Filter(), 10) == []
            results.append((exact, spelt, alone))
    sqlite, postgres = results
    for a, b in zip(sqlite, postgres):
        assert [round(v, 6) for v in a.values()] == [round(v, 6) for v in b.values()]


def test_spellings_are_the_same_on_both_backends(tmp_path, pg_server: str):
    from pg_server import fresh_database

    for url in (str(tmp_path / "s.db"), fresh_database(pg_server)):
        with open_store(url) as store:
            assert store.spellings(SUBJECT, ["flgas"]) == {}  # an empty subject: nothing to respell to
            store.put([make(t) for t in FACTS])
            assert store.spellings(SUBJECT, ["Flgas", "feature", "zebra", "brithday", "k8ss"]) == {
                "Flgas": "flags", "brithday": "birthday"}


def test_recall_embeds_a_misspelt_word_respelt_when_the_model_does_not_know_it(tmp_path, minilm):
    from engram.core.memory import Memory
    from engram.core.recall import respelt

    with Memory(str(tmp_path / "m.db"), embedder=minilm) as mem:
        mem.remember_many(SUBJECT, [*FACTS, "The internal CLI tool is called finchctl."])
        store = mem.store
        assert respelt(store, minilm, SUBJECT, "feature flgas tool?", "feature flgas tool?") == "feature flags tool?"
        assert respelt(store, minilm, SUBJECT, "who is the manger?", "who is the manger?") == "who is the manager?"
        # a word the model knows is never respelt, though its keyword search counts the near term
        assert store.keyword(SUBJECT, ["medal"], Filter(), 5) and minilm.knows("medal")
        assert respelt(store, minilm, SUBJECT, "medal ceremony", "medal ceremony") == "medal ceremony"
        assert [h.text for h in mem.recall(SUBJECT, "feature flgas tool?", k=1)] == [FACTS[0]]
        # a model without a vocabulary to ask knows every word: nothing is respelt for it
        assert not minilm.knows("flgas") and HashingEmbedder(64).knows("flgas")
        assert respelt(store, HashingEmbedder(64), SUBJECT, "feature flgas tool?", "feature flgas tool?") == (
            "feature flgas tool?")


def test_the_vocabulary_follows_writes(store):
    store.put([make(t) for t in FACTS])
    assert store.keyword(SUBJECT, ["kubernets"], Filter(), 10) == []  # read and kept: nothing near
    later = make("Kubernetes runs the staging cluster.")
    store.put([later])  # the subject changed: its vocabulary is read again
    assert [i for i, _ in store.keyword(SUBJECT, ["kubernets"], Filter(), 10)] == [later.id]
    store.delete(SUBJECT, [later.id])
    assert store.keyword(SUBJECT, ["kubernets"], Filter(), 10) == []


def test_a_forgotten_word_is_never_respelt_even_when_the_subject_size_comes_back(store):
    store.put([make(t) for t in FACTS])
    gone = make("Kubernetes runs the staging cluster.")
    store.put([gone])
    assert store.spellings(SUBJECT, ["kubrenetes"]) == {"kubrenetes": "kubernetes"}  # the vocabulary is held
    store.delete(SUBJECT, [gone.id])
    store.put([make("Terraform runs the staging cluster.")])  # as many items and tokens as before
    assert keyword.TOKENISER.documents(["Kubernetes runs the staging cluster."])[0].length == (
        keyword.TOKENISER.documents(["Terraform runs the staging cluster."])[0].length)
    assert store.spellings(SUBJECT, ["kubrenetes"]) == {}
    assert store.keyword(SUBJECT, ["kubrenetes"], Filter(), 10) == []
    assert store.spellings(SUBJECT, ["terrafrom"]) == {"terrafrom": "terraform"}  # read again: the new terms


def test_a_scoped_store_respells_only_from_its_own_subjects(store):
    from engram.errors import AccessDenied
    from engram.safety.access import ScopedStore

    store.put([make(t, subject="user:2") for t in FACTS])
    assert store.spellings("user:2", ["flgas"]) == {"flgas": "flags"}
    with pytest.raises(AccessDenied):
        ScopedStore(store, SUBJECT).spellings("user:2", ["flgas"])  # another subject's words stay unseen
    assert ScopedStore(store, SUBJECT).spellings(SUBJECT, ["flgas"]) == {}


def test_a_word_the_model_knows_never_stands_for_another_term(tmp_path, pg_server: str, minilm):
    from pg_server import fresh_database

    from engram.core.ranking import keyword_terms
    from engram.core.recall import known

    facts = ["Speaks Spanish at home with the kids.", "Does not eat meat and is vegetarian."]
    # "steak" is one edit from "speak": a word of its own, so the keyword search finds nothing
    assert minilm.knows("steak") and not minilm.knows("flgas")
    assert known(minilm, keyword_terms("can I have a steak for dinner?")) >= {"steak", "dinner"}
    assert known(HashingEmbedder(64), keyword_terms("can I have a steak?")) == frozenset()  # no vocabulary: cannot tell
    for url in (str(tmp_path / "s.db"), fresh_database(pg_server)):
        with open_store(url) as store:
            items = [make(t) for t in [*facts, *FACTS]]
            store.put(items)
            assert [i for i, _ in store.keyword(SUBJECT, ["steak"], Filter(), 10)] == [items[0].id]
            assert store.keyword(SUBJECT, ["steak"], Filter(), 10, known={"steak"}) == []
            # a typo the model does not know still finds the term it meant
            assert [i for i, _ in store.keyword(SUBJECT, ["flgas"], Filter(), 10, known={"steak"})] == [items[2].id]


def test_recall_does_not_take_a_known_word_for_a_typo(tmp_path, minilm):
    from engram.core.memory import Memory

    with Memory(str(tmp_path / "m.db"), embedder=minilm) as mem:
        mem.remember_many(SUBJECT, ["Speaks Spanish at home with the kids.", "Does not eat meat and is vegetarian."])
        hits = mem.recall(SUBJECT, "can I have a steak for dinner?", k=2, explain=True)
        spanish = next(h for h in hits if h.text.startswith("Speaks"))
        assert spanish.components["keyword"] <= 0.0  # no keyword evidence from "steak" ~ "speak"
        assert hits[0].text.startswith("Does not eat meat")


def test_exact_terms_only_when_asked(store):
    store.put([make(t) for t in FACTS])
    later = make("Kubernetes runs the staging cluster.")
    store.put([later])
    assert [i for i, _ in store.keyword(SUBJECT, ["kubrenetes"], Filter(), 10)] == [later.id]
    assert store.keyword(SUBJECT, ["kubrenetes"], Filter(), 10, near=False) == []  # the write path's look-up


@pytest.mark.parametrize(("held", "now", "kept"), [
    ((640, 9000), (640, 9000), True),
    ((640, 9000), (650, 9100), True),  # grown by 10 of 640 (1/64): still served
    ((640, 9000), (651, 9110), False),  # grown by more
    ((640, 9000), (639, 8990), False),  # an item went: read again, its terms must not linger
    ((640, 9000), (640, 8990), False),  # as many items, fewer tokens: one was rewritten
    ((10, 90), (11, 99), False),  # a small subject is read again at every change
])
def test_a_vocabulary_serves_while_its_subject_only_grows_a_little(held, now, kept):
    from engram.store.spelling import current

    assert current(held, now) is kept
