"""Docs that list facts of the code are generated from it (cog) and are current."""

import re
from pathlib import Path

from cogapp import Cog

from engram.config import VARIABLES

ROOT = Path(__file__).resolve().parent.parent
GENERATED = [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))] if "[[[cog" in p.read_text()]


def test_generated_docs_are_current():
    """`cog --check`: regenerate with `cog -r FILE` after changing a command or a setting."""
    assert {p.name for p in GENERATED} >= {"cli.md", "production.md"}
    assert Cog().main(["cog", "--check", *map(str, GENERATED)]) == 0


def test_every_variable_the_code_reads_is_listed():
    read = set()
    for path in (ROOT / "src" / "engram").rglob("*.py"):
        read |= set(re.findall(r"\bENGRAM_[A-Z][A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    listed = {v.name for v in VARIABLES}
    assert read - listed == set(), "add these to engram.config.VARIABLES, then `cog -r docs/production.md`"
    assert listed - read == set()
