"""Every example in README.md and docs/*.md runs, and the output it shows is checked.

The conventions are in tests/docblocks.py (and docs/architecture.md, "Examples that run"): Python
blocks are doctest sessions or silent scripts, console blocks are `$ ` commands with their output,
run in one bash session per page in a fresh directory. A block that cannot run here says why
(`<!-- not run: REASON -->`); the run ends with a count per page.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from docblocks import RAN, RUN, blocks, run_page

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PG_VARIABLE = "ENGRAM_DOCS_PG_URL"  # a page that names it gets a fresh PostgreSQL database in it


@pytest.fixture
def registries(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a page registers in this process (an example embedder or LLM provider) is gone after it."""
    import engram.embed
    import engram.llm

    for plugins in (engram.embed.PLUGINS, engram.llm.PLUGINS):
        monkeypatch.setattr(plugins, "_registered", dict(plugins._registered))


# README.md runs in the fast run (`-m "not slow"`); every page runs in the full run (CI) and in
# `pytest tests/test_docs.py`.
@pytest.mark.parametrize("page", [pytest.param(p, marks=() if p.name == "README.md" else pytest.mark.slow) for p in PAGES],
                         ids=lambda p: p.name)
@pytest.mark.usefixtures("registries")
def test_page_examples_run_as_shown(page: Path, tmp_path: Path, request: pytest.FixtureRequest,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # this checkout's engram
    env["ENGRAM_DOCS_REPO"] = str(ROOT)  # for a page that runs the checkout's scripts (examples/)
    if PG_VARIABLE in page.read_text(encoding="utf-8"):
        from pg_server import fresh_database

        env[PG_VARIABLE] = fresh_database(request.getfixturevalue("pg_server"))
        monkeypatch.setenv(PG_VARIABLE, env[PG_VARIABLE])  # for the page's Python blocks too
    RAN[page.name] = run_page(page, tmp_path, env)


def test_most_examples_run() -> None:
    """Most Python and console blocks run; the ones that do not say why."""
    shown = [b for page in PAGES for b in blocks(page) if b.lang in RUN and not b.hidden]
    skipped = [b for b in shown if b.not_run]
    table = "\n".join(f"{b.page.name}:{b.line}: {b.not_run}" for b in skipped)
    assert len(skipped) <= 0.2 * len(shown), f"{len(skipped)} of {len(shown)} examples do not run:\n{table}"


def _prose(page: Path) -> str:
    """The page without its fenced blocks."""
    return re.sub(r"^\s*```.*?^\s*```\s*$", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_tests_and_files_the_pages_name_exist() -> None:
    """A page that says "tested by tests/test_x.py::test_y" names a test that is there, and the
    source files it points to exist (a rename must update the docs)."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    missing = []
    for page in PAGES:
        prose = _prose(page)
        for name in re.findall(r"\b(test_\w+)\b(?![*.]|\.\.\.)", prose):
            if not (ROOT / "tests" / f"{name}.py").exists() and not re.search(rf"def {name}\b", tests):
                missing.append(f"{page.name}: {name}")
        for path in re.findall(r"\b((?:src/)?engram/[\w/]+\.py|tests/\w+\.py|benchmarks/\w+\.py|examples/\w+\.py)\b", prose):
            if not (ROOT / path).exists() and not (ROOT / "src" / path).exists():
                missing.append(f"{page.name}: {path}")
    assert missing == []
