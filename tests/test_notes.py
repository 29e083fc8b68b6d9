"""Research notes with verifiable provenance: canonical URL, stable source id, checked quotes,
shown by items/recall/CLI and forgotten by source, on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import InvalidInput
from engram.interfaces.cli import main
from engram.core.notes import canonical_url, html_text, normalise_text, quote_found, source_id
from engram.store.base import Filter

JOB = "job:report-42"
PAGE_HTML = (Path(__file__).parent / "data" / "pages" / "trial_report.html").read_text(encoding="utf-8")
URL = "https://Example.org:443/reports/wheat-2026/?utm_source=newsletter&utm_medium=email&fbclid=IwAR0x#results"
CANONICAL = "https://example.org/reports/wheat-2026"


# -- URLs ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("given, expected", [
    (URL, CANONICAL),
    ("HTTP://EXAMPLE.org:80/", "http://example.org/"),
    ("http://example.org", "http://example.org/"),
    ("https://example.org:8443/a/./b/../c/", "https://example.org:8443/a/c"),
    ("https://example.org/search?q=wheat&gclid=abc&page=2&utm_campaign=x", "https://example.org/search?page=2&q=wheat"),
    ("https://example.org/search?page=2&q=wheat", "https://example.org/search?page=2&q=wheat"),
    ("https://user:secret@example.org/a", "https://example.org/a"),
    ("https://example.org/%7ejane/notes%20v2", "https://example.org/~jane/notes%20v2"),
    ("https://bücher.example/Katalog", "https://xn--bcher-kva.example/Katalog"),
])
def test_canonical_url(given: str, expected: str) -> None:
    assert canonical_url(given) == expected


def test_source_id_is_stable_and_shared_by_every_form_of_the_url() -> None:
    ids = {source_id(u) for u in (URL, CANONICAL, CANONICAL + "/", "https://example.org/reports/wheat-2026#top")}
    assert len(ids) == 1
    (sid,) = ids
    assert sid.startswith("src:") and len(sid) == 20
    assert sid == "src:" + __import__("hashlib").blake2b(CANONICAL.encode(), digest_size=8).hexdigest()
    assert source_id("https://example.org/reports/wheat-2025") != sid


@pytest.mark.parametrize("bad", ["", "example.org/page", "ftp://example.org/file", "mailto:a@example.org",
                                 "https://", "https://example.org:99999/"])
def test_a_non_http_url_is_refused(bad: str) -> None:
    with pytest.raises(InvalidInput, match="URL|port"):
        canonical_url(bad)


# -- quotes ----------------------------------------------------------------------------------------
def test_quotes_are_found_in_text_derived_from_html() -> None:
    text = html_text(PAGE_HTML)
    assert "window.dataLayer" not in text and "font-size" not in text and "&ldquo;" not in text
    # straight quotes for curly ones, a line break and a no-break space inside the quote
    assert quote_found('yielded 12 % more grain than the control under "moderate drought" conditions', text)
    assert quote_found("'We did not expect the gap to close\nso quickly,' said Dr. Okafor.", text)
    assert quote_found("conditions-but only 3 % more", text)  # em dash typed as a hyphen
    assert quote_found("Trials ran in Kenya, Spain and Australia between 2023-2025.", text)  # soft hyphen, en dash
    assert not quote_found("the new variety yielded 21 % more grain", text)
    assert not quote_found("not on the page", text)  # it is in a <script>, not on the page
    assert not quote_found("   ", text)


def test_cells_and_blocks_do_not_glue_words_together() -> None:
    text = html_text("<table><tr><th>Site</th><th>Yield</th></tr><tr><td>Kenya</td><td>+12%</td></tr></table>")
    assert quote_found("Kenya +12%", text) and not quote_found("Kenya+12%", text)


def test_normalise_text_folds_unicode_forms() -> None:
    assert normalise_text("“Ｆｕｌｌ‑width”\u00a0—\tdash\u200b") == '"Full-width" - dash'


# -- the verb --------------------------------------------------------------------------------------
def test_a_note_gets_its_canonical_url_and_source_id(memory: Memory) -> None:
    saved = memory.remember_note(JOB, "The new wheat yielded 12% more grain in moderate drought.", url=URL,
                                 quote="yielded 12 % more grain than the control under “moderate drought”",
                                 page_html=PAGE_HTML, agent="agent:researcher-2")
    assert saved.saved, saved.reason
    item = memory.get(saved.id)  # type: ignore[arg-type]
    assert item.kind == "note" and item.source == f"{CANONICAL} {source_id(URL)}"
    assert item.agent == "agent:researcher-2"
    assert item.metadata["url"] == CANONICAL and item.metadata["source_id"] == source_id(URL)
    assert item.metadata["quote_checked"] is True and "moderate drought" in item.metadata["quote"]
    assert "utm_source" not in json.dumps(item.to_dict())  # tracking parameters are not stored anywhere
    hit = memory.recall(JOB, "How much more grain did the wheat yield?", k=1)[0]
    assert hit.item.metadata["source_id"] == source_id(URL) and hit.item.source == f"{CANONICAL} {source_id(URL)}"


def test_a_quote_missing_from_the_page_is_refused_with_a_reason(memory: Memory) -> None:
    saved = memory.remember_note(JOB, "The new wheat yielded 21% more grain.", url=URL,
                                 quote="yielded 21 % more grain", page_html=PAGE_HTML)
    assert not saved.saved and saved.reason is not None
    assert "quote not found on the page" in saved.reason and CANONICAL in saved.reason
    assert memory.items(JOB) == []


def test_a_quote_is_checked_against_plain_page_text_too(memory: Memory) -> None:
    page = "Across the 40 field trials, the new variety yielded\n12\u00a0% more grain than the control."
    assert memory.remember_note(JOB, "Forty field trials were run.", url=CANONICAL,
                                quote="Across the 40 field trials", page_text=page).saved
    assert not memory.remember_note(JOB, "Fifty field trials were run.", url=CANONICAL,
                                    quote="Across the 50 field trials", page_text=page).saved


def test_a_quote_without_the_page_is_kept_but_marked_unchecked(memory: Memory) -> None:
    saved = memory.remember_note(JOB, "Trials ran in three countries.", url=CANONICAL, quote="Kenya, Spain and Australia")
    assert saved.saved and memory.get(saved.id).metadata["quote_checked"] is False  # type: ignore[arg-type]


def test_the_same_note_from_the_same_page_is_one_note_and_from_another_page_two(memory: Memory) -> None:
    text = "Drought-resistant wheat was tested in Kenya."
    first = memory.remember_note(JOB, text, url=URL)
    again = memory.remember_note(JOB, text, url=CANONICAL + "/")
    other = memory.remember_note(JOB, text, url="https://example.net/kenya-trials")
    assert first.saved and not again.saved and again.reason == "duplicate" and again.id == first.id
    assert other.saved
    assert {it.metadata["source_id"] for it in memory.notes(JOB)} == {source_id(URL), source_id("https://example.net/kenya-trials")}


def test_forgetting_a_source_removes_every_note_from_that_page(memory: Memory) -> None:
    for text in ("The trials covered 40 sites.", "Yield rose 12% under drought.", "The gap closed with irrigation."):
        assert memory.remember_note(JOB, text, url=URL).saved
    kept = memory.remember_note(JOB, "A different page says rain matters most.", url="https://example.net/rain")
    plain = memory.remember(JOB, "The report is due on Friday.")
    assert memory.forget_source(JOB, "https://EXAMPLE.org/reports/wheat-2026/#top") == 3
    left = memory.store.find(JOB, Filter(include_superseded=True))
    assert {it.id for it in left} == {kept.id, plain.id}
    assert memory.forget_source(JOB, source_id("https://example.net/rain")) == 1
    assert memory.forget_source(JOB, source_id("https://example.net/rain")) == 0
    with pytest.raises(InvalidInput, match="not a source id"):
        memory.forget_source(JOB, "src:nothex")


def test_a_secret_in_the_url_is_refused(memory: Memory) -> None:
    saved = memory.remember_note(JOB, "The private dashboard lists the trials.",
                                 url="https://example.org/dash?token=ghp_8fK2mQ9xLp4Rt7Vb3NzW6yHc1JdE5sUa0GiO")
    assert not saved.saved and "secret" in (saved.reason or "")


# -- the command line --------------------------------------------------------------------------------
def test_cli_note_list_recall_and_forget_source(tmp_path: Path) -> None:
    db = str(tmp_path / "n.db")
    page = tmp_path / "page.html"
    page.write_text(PAGE_HTML, encoding="utf-8")
    base = ["--db", db, "--embedder", "hashing:256"]
    run = CliRunner().invoke
    out = run(main, [*base, "note", JOB, "Yield rose 12% under moderate drought.", "--url", URL,
                     "--quote", 'under "moderate drought" conditions', "--page", str(page), "--html", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["saved"] and data["source_id"] == source_id(URL) and data["url"] == CANONICAL
    refused = run(main, [*base, "note", JOB, "Yield rose 30%.", "--url", URL, "--quote", "30 % more",
                         "--page", str(page), "--html", "--json"])
    assert refused.exit_code == 0 and json.loads(refused.output)["saved"] is False
    listed = run(main, [*base, "list", JOB])
    assert source_id(URL) in listed.output and CANONICAL in listed.output
    recalled = run(main, [*base, "recall", JOB, "drought yield", "--json"])
    assert json.loads(recalled.output)[0]["metadata"]["source_id"] == source_id(URL)
    preview = run(main, [*base, "forget-source", JOB, source_id(URL)])
    assert "1 note(s) would be forgotten" in preview.output
    gone = run(main, [*base, "forget-source", JOB, CANONICAL, "--yes", "--json"])
    assert json.loads(gone.output) == {"forgotten": 1}
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        assert mem.items(JOB) == []


def test_rest_shows_the_source_id_and_url(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from engram.interfaces.rest import create_app
    from engram.safety.keys import KeyRing
    from engram.store import open_store

    db = str(tmp_path / "rest.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        assert mem.remember_note(JOB, "Yield rose 12% under moderate drought.", url=URL).saved
    store = open_store(db)
    token = KeyRing(store).create(admin=True)[0]
    store.close()
    headers = {"Authorization": f"Bearer {token}"}
    with TestClient(create_app(lambda: Memory(db, embedder="hashing:256"))) as client:
        listed = client.get("/v1/memories", params={"subject": JOB}, headers=headers).json()
        hits = client.post("/v1/recall", json={"subject": JOB, "query": "drought yield"}, headers=headers).json()
    for item in (listed[0], hits[0]):
        assert item["metadata"]["source_id"] == source_id(URL) and item["metadata"]["url"] == CANONICAL
        assert source_id(URL) in item["source"] and CANONICAL in item["source"]


def test_mcp_shows_the_source_id_and_url(tmp_path: Path) -> None:
    """The model-facing brief form of an item keeps `source`, which names the page and its id."""
    try:  # the one serialisation of items (engram.verbs), once it is merged
        from engram.verbs.replies import item_json  # type: ignore[import-not-found]

        def brief(item: object) -> dict[str, object]:
            return item_json(item, brief=True)  # type: ignore[no-any-return]
    except ImportError:  # today: the MCP server's own brief form
        from engram.interfaces.mcp import _brief as brief

    db = str(tmp_path / "mcp.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        mem.remember_note(JOB, "Yield rose 12% under moderate drought.", url=URL)
        shown = brief(mem.recall(JOB, "drought yield", k=1)[0].item)
    assert shown["source"] == f"{CANONICAL} {source_id(URL)}"
