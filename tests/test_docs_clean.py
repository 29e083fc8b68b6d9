"""User docs hold no development-machine paths and no project history (CHANGELOG.md holds that)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MACHINE = re.compile(r"/work/|/home/[a-z]|/root/|/mnt/data")
HISTORY = re.compile(r"\b[Ii]ssue \d+|\b(?:first|second|third|fourth|fifth|previous|last|this|next|earlier) rounds?\b"
                     r"|\b\d(?:st|nd|rd|th) round\b|\bthis branch\b")


def _hits(pattern: re.Pattern[str]) -> list[str]:
    return [f"{page.name}:{n}: {line.strip()[:100]}" for page in PAGES
            for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]


def test_no_development_machine_paths():
    assert _hits(MACHINE) == []


def test_no_project_history():
    assert _hits(HISTORY) == []


def test_the_patterns_catch_what_they_are_for():
    assert MACHINE.search("--data /work/shared/data/x.json") and not MACHINE.search("/Users/you/.local/share")
    assert HISTORY.search("(issue 13: 0.86)") and HISTORY.search("the fourth round's run")
    assert not HISTORY.search("a tool_use round trip") and not HISTORY.search("round(value, 3)")
