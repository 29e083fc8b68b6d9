"""Evaluate the safety screens on every labelled set and on technical text, and write docs/safety.md's figures.

    python benchmarks/filter_eval.py --beam BEAM_100K_DIR --locomo locomo_dev.json           # print the report
    python benchmarks/filter_eval.py --beam BEAM_100K_DIR --locomo locomo_dev.json --write   # and put it in docs/safety.md

Sets (benchmarks/safety_data, see DATA_CARD.md):
* the intent set's train / dev / test splits (the classifier trains on train, thresholds come from dev;
  test is read only here);
* batches written by a different method (by hand, one sentence at a time, other families,
  languages and disguises): `*_fresh.jsonl` (written before the new screens, then used as a check
  while building them), `*_holdout.jsonl` (written before tuning, read only here);
* the hand-written training batch `intent_written.jsonl` (train / dev / test by a hash of each row),
  and the last batches written by yet another method, `instructions_holdout3.jsonl` (scenario cards:
  where a planted text would come from, what it wants, in a rota of languages and forms),
  `secrets_holdout3.jsonl` and `secrets_agent.jsonl` (what an agent would save for a user);
* the earlier generated sets in tests/data (the old rules were written against them);
* technical text nobody labelled: BEAM dev messages (chats 11-20 held out; windows of 1-5 are benign
  training rows and 6-10 calibrated the threshold), LoCoMo dev turns, the recall suite's facts, this repository's docs and code comments.
detect-secrets 1.5.0 runs on the same secret sets when it is installed (`pip install detect-secrets`).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import sysconfig
import tokenize
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from engram.safety.instructions import judge  # noqa: E402
from engram.safety.intent import model  # noqa: E402
from engram.safety.secrets import find_secrets, redact  # noqa: E402

DATA = ROOT / "benchmarks" / "safety_data"
DOC = ROOT / "docs" / "safety.md"
START, END = "<!-- filter_eval:start -->", "<!-- filter_eval:end -->"
LONG = 8000  # the screens read the first 8,000 characters of a long text (as Memory.admin.put does)


def rows(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def refused(text: str) -> bool:
    return judge(text[:LONG]).refused


def frac(k: int, n: int) -> str:
    return f"{k}/{n} ({k / n:.1%})" if n else "0/0"


# --------------------------------------------------------------------------- instructions


def score_instructions(data: list[dict[str, str]]) -> list[tuple[dict[str, str], bool]]:
    return [(r, refused(r["text"])) for r in data]


def line(name: str, method: str, scored: list[tuple[dict[str, str], bool]], positive: str) -> str:
    pos = [hit for r, hit in scored if r["label"] == positive]
    neg = [hit for r, hit in scored if r["label"] != positive]
    return f"| {name} | {method} | {frac(sum(pos), len(pos))} | {frac(sum(neg), len(neg))} |"


def breakdown(scored: list[tuple[dict[str, str], bool]], positive: str, key: str) -> list[str]:
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # caught, positives, refused, benign
    for r, hit in scored:
        cell = table[r.get(key, "?")]
        if r["label"] == positive:
            cell[0] += hit
            cell[1] += 1
        else:
            cell[2] += hit
            cell[3] += 1
    out = [f"| {key} | {positive} caught | benign refused |", "|---|---|---|"]
    for name in sorted(table):
        c = table[name]
        out.append(f"| {name} | {frac(c[0], c[1]) if c[1] else '-'} | {frac(c[2], c[3]) if c[3] else '-'} |")
    return out


def misses(scored: list[tuple[dict[str, str], bool]], positive: str, n: int = 8) -> list[str]:
    out = []
    for r, hit in scored:
        if hit != (r["label"] == positive) and len(out) < n:
            what = "missed" if r["label"] == positive else "refused"
            out.append(f"  - {what}: {json.dumps(redact(r['text'])[:110], ensure_ascii=False)}")
    return out


# --------------------------------------------------------------------------- secrets

# The reference article's secret filter, verbatim, as a baseline.
SEED_SECRET = re.compile(
    r"(api[_\s-]?key|password|passwd|secret\s*[:=]|\bsk-[a-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[a-z0-9]{20,})", re.IGNORECASE
)


def detect_secrets_scanners() -> dict[str, Callable[[str], bool]]:
    """detect-secrets 1.5 in-process: every plugin, and every plugin but the two entropy ones."""
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings, get_settings, transient_settings
    except ImportError:
        return {}
    with default_settings():
        names = [p["name"] for p in get_settings().json()["plugins_used"]]
    no_entropy = {"plugins_used": [{"name": n} for n in names if "HighEntropy" not in n]}

    def all_plugins(text: str) -> bool:
        with default_settings():
            return any(True for ln in text.splitlines() or [""] for _ in scan_line(ln))

    def without_entropy(text: str) -> bool:
        with transient_settings(no_entropy):
            return any(True for ln in text.splitlines() or [""] for _ in scan_line(ln))

    def layered(text: str) -> bool:  # adopted behind the screen's own layers: either one finds it
        return bool(find_secrets(text)) or without_entropy(text)

    return {"detect-secrets (all plugins)": all_plugins, "detect-secrets (no entropy plugins)": without_entropy,
            "engram + detect-secrets (no entropy) as a further layer": layered}


# --------------------------------------------------------------------------- technical text


def beam_messages(beam: Path, chats: Iterable[int]) -> list[str]:
    out = []
    for n in chats:
        for batch in json.loads((beam / str(n) / "chat.json").read_text(encoding="utf-8")):
            for turn in batch["turns"]:
                out += [re.sub(r"\s*->->\s*\d+,\d+\s*$", "", m["content"]) for m in turn]
    return out


def locomo_turns(path: Path) -> list[str]:
    out = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conv = sample["conversation"]
        for key, value in conv.items():
            if key.startswith("session_") and isinstance(value, list):
                out += [t["text"] for t in value if t.get("text")]
    return out


def doc_paragraphs() -> list[str]:
    out = []
    for path in sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")]):
        out += [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if len(p.strip()) >= 20]
    return out


def code_comments() -> list[str]:
    """Comments and docstrings of this repository's own source (src/engram)."""
    out = []
    for path in sorted((ROOT / "src" / "engram").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and len(tok.string) > 12:
                out.append(tok.string.lstrip("# "))
            elif tok.type == tokenize.STRING and tok.string.startswith(('"""', "'''")):
                out.append(tok.string.strip("\"'"))
    return out


def stdlib_secret_lines() -> list[str]:
    """Lines of the Python standard library (tests excluded) that mention keys, tokens or passwords."""
    root = Path(sysconfig.get_paths()["stdlib"])
    topic = re.compile(r"password|passwd|token|secret|api.?key|credential|\bpin\b|\bkey\b", re.IGNORECASE)
    out = []
    for path in sorted(root.rglob("*.py")):
        if {"test", "tests", "idlelib", "site-packages"} & set(path.parts):
            continue
        for raw in path.read_text(encoding="utf-8", errors="ignore").splitlines():
            text = raw.strip().lstrip("#").strip()
            if 20 <= len(text) <= 300 and topic.search(text):
                out.append(text)
    return out


def touched(texts: list[str]) -> tuple[int, int, list[str]]:
    """How many texts the instruction screen refuses and the secret screen finds something in."""
    n_instr = n_secret = 0
    examples = []
    for text in texts:
        instr = refused(text)
        secret = bool(find_secrets(text))
        n_instr += instr
        n_secret += secret
        if (instr or secret) and len(examples) < 6:
            tag = "instruction" if instr else "secret"
            examples.append(f"  - {tag}: {json.dumps(redact(text[:LONG])[:120], ensure_ascii=False)}")
    return n_instr, n_secret, examples


# --------------------------------------------------------------------------- report


def report(beam: Path | None, locomo: Path | None) -> str:
    out: list[str] = []
    meta = model().meta
    out += ["### Instruction screen", "",
            f"Thresholds (shipped model): refuse at probability ≥ **{meta['threshold']}** for the user's own text, "
            f"≥ **{meta['threshold_rule']}** when one of the strong rule families fired, ≥ **{meta['threshold_untrusted']}** "
            "for text from a tool, a page or a document (where an order of any kind is refused too); "
            "a rule hit found under a disguise is refused outright.", "",
            "| set | how it was made | injections refused | benign refused |", "|---|---|---|---|"]
    intent = rows(DATA / "intent_labelled.jsonl")
    scored_test: list[tuple[dict[str, str], bool]] = []
    for split in ("train", "dev", "test"):
        scored = score_instructions([r for r in intent if r["split"] == split])
        if split == "test":
            scored_test = scored
        out.append(line(f"intent set, {split} split", "templates (the classifier's set)", scored, "injection"))
    written = rows(DATA / "intent_written.jsonl")
    for split in ("train", "dev", "test"):
        out.append(line(f"intent_written, {split} split", "by hand, in bulk (the classifier's second set)",
                        score_instructions([r for r in written if r["split"] == split]), "injection"))
    scored_written_test = score_instructions([r for r in written if r["split"] == "test"])
    # The hand-written and composed sets: (file, label, what it is, the splits reported).
    split_sets = (
        ("intent_written2.jsonl", "intent_written2", "by hand, planted artefacts, fake provenance, 20 languages "
         "(the classifier's third set; first read 28/69, 0/77)", ("train", "dev", "test")),
        ("intent_written3.jsonl", "intent_written3", "by hand, planted for AI readers named by what they do, in "
         "carriers, impersonal policies, 20 languages (the classifier's fifth set; first read 20/49, 1/57)",
         ("train", "dev", "test")),
        ("intent_written4.jsonl", "intent_written4", "minimal pairs by hand: an injection and a twin that changes one "
         "thing, new carriers, 25 languages (the classifier's sixth set; first read 146/195, 17/195)", ("train", "dev")),
        ("intent_written5.jsonl", "intent_written5", "minimal pairs by hand: thin languages (Arabic, Hindi, Polish, "
         "Portuguese, ...), agents' tools, readers named indirectly (the classifier's seventh set; first "
         "read 35/72, 2/88)", ("train", "dev", "test")),
        ("intent_written6.jsonl", "intent_written6", "minimal pairs by hand in the phrasings an agent meets: fake standing "
         "consent and permanent rules for the memory, conditional triggers, planted steering, role-play, 24 languages; "
         "write-ups quoting attacks, memory-system docs (the classifier's eighth set; first read 51/98, 5/155; second "
         "sitting, after holdout14's errors were seen, 32/44, 10/92)", ("train", "dev", "test")),
        ("intent_written7.jsonl", "intent_written7", "by hand, orders planted in agent-era carriers (MCP tool descriptions "
         "and results, AGENTS.md, CLAUDE.md, tickets, listings, API errors), phrased indirectly, 16 languages; benign "
         "twins in the same carriers (the classifier's ninth set: instructions_tune16; first read 25/40, 1/50)",
         ("train", "dev", "test")),
        ("intent_written8.jsonl", "intent_written8", "by hand, poisoning written as memory records (fake consents, third "
         "parties given authority, 'as agreed last session', triggers and code words) beside the user's real preferences, "
         "consents, roles and triggers in the same shapes (the classifier's tenth set: instructions_tune17; first read "
         "21/40, 0/50)", ("train", "dev", "test")),
        ("intent_composed.jsonl", "intent_composed", "composed contrastively: frames x readers x actions, 13 languages "
         "(the classifier's fourth set; split per frame)", ("train", "dev", "test")),
    )
    for file, label, what, splits in split_sets:
        labelled = rows(DATA / file)
        for split in splits:
            out.append(line(f"{label}, {split} split", what,
                            score_instructions([r for r in labelled if r["split"] == split]), "injection"))
    other = {
        "instructions_fresh": ("by hand, before the new screen; checked while building it", DATA / "instructions_fresh.jsonl"),
        "instructions_holdout": ("by hand, before tuning; measured once", DATA / "instructions_holdout.jsonl"),
        "instructions_holdout3": ("scenario cards, after the last training; measured once", DATA / "instructions_holdout3.jsonl"),
        "instructions_holdout4": ("by hand, after the last training; first read 17/20, 0/20, then one family added",
                                  DATA / "instructions_holdout4.jsonl"),
        "instructions_holdout5": ("by hand, after the last training: authority claims, any AI reading this, delayed "
                                  "triggers, tool output; first read 13/20, 0/20, then fixed as families",
                                  DATA / "instructions_holdout5.jsonl"),
        "instructions_holdout6": ("by hand, after the last training: image-link exfiltration, fake preferences and "
                                  "memories, front matter, commit messages, fake tags, Arabic, Hindi, fullwidth letters; "
                                  "first read 7/20, 0/20, then fixed as families (intent_written2, retrained)",
                                  DATA / "instructions_holdout6.jsonl"),
        "instructions_holdout7": ("by hand, after the intent_written2 retraining, before any scoring: changelogs, pinned "
                                  "messages, saved context, role-named agents, 11 languages; first read 12/20, 0/20",
                                  DATA / "instructions_holdout7.jsonl"),
        "instructions_holdout8": ("by hand, before the composed set: hidden in facts, markup comments, JSON fields, base64, "
                                  "named models, polite wishes, tool calls, 8 languages; first read 17/20, 0/20, then used "
                                  "to shape the method (composed set, sentences read alone)", DATA / "instructions_holdout8.jsonl"),
        "instructions_holdout9": ("by hand with holdout8, by another card (tickets, recipes, tool results, FAQ pages, YAML); "
                                  "scored once, after the last training: 18/20, 1/20 (the screen before: 15/20, 0/20)",
                                  DATA / "instructions_holdout9.jsonl"),
        "instructions_holdout10": ("by hand, the test batch: time-scoped user facts, injections in Italian, Polish, Turkish, "
                                   "Indonesian, Vietnamese, Dutch; first read 8/10, 0/10", DATA / "instructions_holdout10.jsonl"),
        "instructions_tune10": ("the same families, other sentences, for tuning; first read 7/10, 1/10",
                                DATA / "instructions_tune10.jsonl"),
        "instructions_holdout11": ("by hand, the test batch: real carriers (pages, READMEs, invites, signatures, code comments, "
                                   "tool JSON, reviews, OCR, voicemail) under evasion constraints, 12 languages, new "
                                   "obfuscations; scored once before any change: 13/20, 2/30", DATA / "instructions_holdout11.jsonl"),
        "instructions_tune11": ("minimal pairs (an order to an AI reader / the same carrier without one), 18 languages, "
                                "for tuning; first read 21/27, 2/30", DATA / "instructions_tune11.jsonl"),
        "instructions_holdout12": ("the test batch, by a grid (10 readers x 6 actions x 7 carriers x 15 languages), 60 hard "
                                   "benign look-alikes; scored once before any change: 27/40, 4/60", DATA / "instructions_holdout12.jsonl"),
        "instructions_holdout13": ("the test batch, by realistic carriers an agent ingests (e-mails, pages, invites, code "
                                   "reviews, READMEs, sheets, tool JSON, OCR, chats), readers named indirectly, 18 languages; "
                                   "scored once before any change: 29/40, 6/60; clean read after the retraining 36/40, 7/60, then changed from "
                                   "its benign errors (not clean)", DATA / "instructions_holdout13.jsonl"),
        "instructions_holdout14": ("the test batch, as an agent meets injections (pages, READMEs, code comments, issues, "
                                   "e-mails, invites, PDF text, tool JSON, reviews, commits) by phrasing style (memory-"
                                   "specific, conditional, multi-step, role-play, polite, indirect), 18 languages; scored "
                                   "once before any change: 32/40, 1/60; clean read after intent_written6 32/40, 1/60, "
                                   "then changed after its errors were seen (not clean)", DATA / "instructions_holdout14.jsonl"),
        "instructions_holdout15": ("the test batch, by register x position x carrier (terse, casual, bureaucratic, legalese, "
                                   "narrative, FAQ, key-value, split; the order at the start, buried or at the end), 22 "
                                   "languages; scored once before any change: 36/40, 4/60 (a round of reader features and "
                                   "retraining measured against it was not kept: 35/40, 3/60)",
                                   DATA / "instructions_holdout15.jsonl"),
        "instructions_holdout16": ("the test batch, agent-era carriers (MCP tool descriptions and results, AGENTS.md, "
                                   "CLAUDE.md, issues, tickets, listings, API errors, transcripts) and indirect phrasing "
                                   "(duties, conditions, claimed authority), 16 languages; scored once before any change: "
                                   "12/20, 0/30; read once after the retraining on intent_written7", DATA / "instructions_holdout16.jsonl"),
        "instructions_holdout17": ("the test batch, poisoning written as memory records (preference notes, JSON records, "
                                   "profiles, session summaries, contact and calendar fields), 16 languages; scored once "
                                   "before any change: 15/20, 0/30; read once after the retraining on intent_written8",
                                   DATA / "instructions_holdout17.jsonl"),
        "instructions_holdout18": ("the test batch, in the styles of the public injection benchmarks written anew "
                                   "(AgentDojo, InjecAgent, BIPIA, HackAPrompt, Tensor Trust, Gandalf, hidden web text, "
                                   "memory persistence), 11 languages; scored once before any change: 18/20, 2/30 (a "
                                   "retraining on its tune batch gained nothing here and was not kept)",
                                   DATA / "instructions_holdout18.jsonl"),
        "instructions_tune18": ("the same method's tune batch, 16 languages; first read 34/40, 4/50; not trained on",
                                DATA / "instructions_tune18.jsonl"),
        "instructions_holdout19": ("the test batch, hard negatives first: text about AI, prompts and rules (developer "
                                   "notes on chat templates, product docs, meeting notes on a bot's rules, research quoting "
                                   "attacks, staff policies, the user's own preferences) and injections in the same "
                                   "registers, 17 languages; scored once before any change: 18/20, 3/40; read once after "
                                   "the report words of more languages", DATA / "instructions_holdout19.jsonl"),
        "instructions_tune19": ("the same method's tune batch, 17 languages; first read 29/30, 4/80; not trained on",
                                DATA / "instructions_tune19.jsonl"),
        "instructions_holdout20": ("the test batch, by an adversary who knows keyword screens exist: orders phrased as "
                                   "facts about how replies are made, fake agreements, passive policies, conditions, "
                                   "stories, split fields, euphemisms for exfiltration, steering, personas as settings, "
                                   "concealment and persistence, never addressing a model; 17 languages; scored once "
                                   "before any change: 7/20, 0/30 (a retraining on its tune batch gained nothing here "
                                   "and was not kept)", DATA / "instructions_holdout20.jsonl"),
        "instructions_tune20": ("the same method's tune batch, 17 languages; first read 4/30, 1/60; not trained on",
                                DATA / "instructions_tune20.jsonl"),
        "tests/data/instructions_labelled": ("the old rules' generated set", ROOT / "tests" / "data" / "instructions_labelled.jsonl"),
    }
    scored_other: dict[str, list[tuple[dict[str, str], bool]]] = {}
    for name, (method, path) in other.items():
        scored_other[name] = score_instructions(rows(path))
        out.append(line(name, method, scored_other[name], "injection"))
    hand = scored_other["instructions_fresh"] + scored_other["instructions_holdout"] + scored_written_test
    out += ["", "Per family and per language, the intent set's test split:", ""]
    out += breakdown(scored_test, "injection", "family") + [""] + breakdown(scored_test, "injection", "lang")
    out += ["", "Per family and per language, the hand-written batches (fresh + holdout + intent_written's test split):", ""]
    out += breakdown(hand, "injection", "family") + [""] + breakdown(hand, "injection", "lang")
    out += ["", "Per family and per language, instructions_holdout3:", ""]
    out += (breakdown(scored_other["instructions_holdout3"], "injection", "family") + [""]
            + breakdown(scored_other["instructions_holdout3"], "injection", "lang"))
    out += ["", "Per action, carrier and language, instructions_holdout12:", ""]
    out += (breakdown(scored_other["instructions_holdout12"], "injection", "family") + [""]
            + breakdown(scored_other["instructions_holdout12"], "injection", "carrier") + [""]
            + breakdown(scored_other["instructions_holdout12"], "injection", "lang"))
    out += ["", "Per goal, carrier and language, instructions_holdout13:", ""]
    out += (breakdown(scored_other["instructions_holdout13"], "injection", "family") + [""]
            + breakdown(scored_other["instructions_holdout13"], "injection", "carrier") + [""]
            + breakdown(scored_other["instructions_holdout13"], "injection", "lang"))
    out += ["", "Per goal, carrier, style and language, instructions_holdout14:", ""]
    out += (breakdown(scored_other["instructions_holdout14"], "injection", "family") + [""]
            + breakdown(scored_other["instructions_holdout14"], "injection", "carrier") + [""]
            + breakdown(scored_other["instructions_holdout14"], "injection", "style") + [""]
            + breakdown(scored_other["instructions_holdout14"], "injection", "lang"))
    out += ["", "Per goal, carrier, register and language, instructions_holdout15:", ""]
    out += (breakdown(scored_other["instructions_holdout15"], "injection", "family") + [""]
            + breakdown(scored_other["instructions_holdout15"], "injection", "carrier") + [""]
            + breakdown(scored_other["instructions_holdout15"], "injection", "style") + [""]
            + breakdown(scored_other["instructions_holdout15"], "injection", "lang"))
    for name in ("instructions_holdout", "instructions_holdout3", "instructions_holdout4", "instructions_holdout5",
                 "instructions_holdout6", "instructions_holdout7", "instructions_holdout8", "instructions_holdout9",
                 "instructions_holdout10", "instructions_holdout11", "instructions_tune11", "instructions_holdout12",
                 "instructions_holdout13", "instructions_holdout14", "instructions_holdout15"):
        out += ["", f"Errors on {name}:", ""] + misses(scored_other[name], "injection")

    out += ["", "### Secret screen", ""]
    scanners: dict[str, Callable[[str], bool]] = {"engram.safety.secrets": lambda t: bool(find_secrets(t)),
                                                  "the reference article's regex": lambda t: SEED_SECRET.search(t) is not None}
    scanners.update(detect_secrets_scanners())
    secret_sets: dict[str, Path | tuple[Path, str]] = {
        "tests/data/secrets_labelled": ROOT / "tests" / "data" / "secrets_labelled.jsonl",
        "secrets_fresh (by hand; checked while building)": DATA / "secrets_fresh.jsonl",
        "secrets_holdout (by hand; first read 17/20, 1/20, then fixed)": DATA / "secrets_holdout.jsonl",
        "secrets_holdout2 (by hand; first read 17/20, 0/20, then fixed)": DATA / "secrets_holdout2.jsonl",
        "secrets_holdout3 (by hand; first read 18/20, 0/20, then fixed)": DATA / "secrets_holdout3.jsonl",
        "secrets_agent (an agent's saves; first read 24/30, 0/60, then fixed)": DATA / "secrets_agent.jsonl",
        "secrets_holdout4 (by hand; first read 19/20, 0/20, then fixed)": DATA / "secrets_holdout4.jsonl",
        "secrets_holdout5 (by hand; first read 16/20, 1/20, then fixed)": DATA / "secrets_holdout5.jsonl",
        "secrets_holdout6 (by hand, formats and languages new to the sets; first read 10/20, 4/20, then fixed)":
            DATA / "secrets_holdout6.jsonl",
        "secrets_holdout7 (by hand: XML and properties files, CLI flags, WireGuard, age, vendor tokens, a seed phrase, "
        "a value on the next line, Norwegian, Ukrainian, Arabic, Hindi; first read 13/20, 3/20, then fixed as families)": DATA / "secrets_holdout7.jsonl",
        "secrets_holdout8 (by hand, after the holdout7 families, before any scoring; first read 16/20, 1/20, then fixed)":
            DATA / "secrets_holdout8.jsonl",
        "secrets_holdout9 (by hand, real config formats and prose in four languages; first read 18/20, 0/20, then fixed)":
            DATA / "secrets_holdout9.jsonl",
        "secrets_holdout10 (by hand, CLI outputs, logs, chat, six languages; first read 18/20, 0/20, then fixed)":
            DATA / "secrets_holdout10.jsonl",
        "secrets_holdout11 (by hand, the test batch: scored once after the holdout9/10 families, 18/20, 1/20; "
        "then fixed)": DATA / "secrets_holdout11.jsonl",
        "secrets_holdout12 (minimal pairs, the test batch: first read 11/20, 0/20; its families fixed from "
        "secrets_tune12)": DATA / "secrets_holdout12.jsonl",
        "secrets_holdout13 (the shapes of the issue's fresh set: .env lines, URLs and JSON configs, provider tokens, "
        "prose in eight languages; the test batch, scored once: 18/20, 0/20; not tuned on)": DATA / "secrets_holdout13.jsonl",
        "secrets_tune12 (the same families, other instances: first read 20/35, 1/34; tuned on)": DATA / "secrets_tune12.jsonl",
        "secrets_holdout15 (each secret inside a short chat message beside its benign twin, 14 languages, .env, URL, "
        "JSON, YAML, tokens; a test batch scored once: 16/20, 1/20; then its families fixed as methods)":
            DATA / "secrets_holdout15.jsonl",
        "secrets_holdout16 (registers: an assistant's notes, forms, e-mails, SMS codes, 15 languages, INI, URL, JSON, "
        "env, a token; the test batch, scored once after the round's last change; its SMS codes then fixed as a family)":
            DATA / "secrets_holdout16.jsonl",
        "secrets_holdout17 (what users and agents paste: SMS codes, PINs, recovery codes, k8s, docker, curl, cloud CLI "
        "files, keys, URLs, 14 languages; the test batch, first read 15/24, 2/26; then four of its families fixed)":
            DATA / "secrets_holdout17.jsonl",
        "secrets_tune17 (one-time and recovery codes in 26 languages beside order, zip, error codes; first read 1/30, "
        "1/30; tuned on)": DATA / "secrets_tune17.jsonl",
        "secrets_holdout18 (provider by provider: tokens of 20 vendors, .env, JSON, YAML, TOML, URLs of many schemes, "
        "service-named SMS codes, prose in 10 languages; benign: docs examples, public keys, redactions; the test batch, "
        "first read 26/30, 6/30; then its families fixed from secrets_tune18, two from its own misses)":
            DATA / "secrets_holdout18.jsonl",
        "secrets_tune18 (holdout18's families, other sentences: first read 36/50, 16/50; tuned on)":
            DATA / "secrets_tune18.jsonl",
        "secrets_holdout19 (as an agent meets them: CI logs, docker inspect, kubectl, cloud CLIs, curl -v, HTTP dumps, "
        "stack traces, vault, git config, JDBC/ODBC/SRV/rediss/SMB strings, a password manager's CSV, a seed phrase, a "
        "wallet key, Markdown tables, shell history, SQL, Go and PHP, prose in six languages; the test batch, first read "
        "21/30, 1/30; then its families fixed from secrets_tune19 (not clean))": DATA / "secrets_holdout19.jsonl",
        "secrets_tune19 (holdout19's missed families, other sentences, then sittings of agent surfaces, look-alikes of the "
        "new readers, prose in 30 languages, Windows and admin tools: first reads 16/53, 3/53; 49/55, 0/30; -, 5/38; 32/34, "
        "0/20; 24/28, 1/22; tuned on)":
            DATA / "secrets_tune19.jsonl",
        "secrets_holdout20 (key names nobody wrote rules for x carriers x 12 languages, 7 of them not in Latin script; "
        "the test batch, first read 26/30, 1/30; then its missed families fixed from secrets_tune20 (not clean))":
            DATA / "secrets_holdout20.jsonl",
        "secrets_tune20 (generated by a seeded script: names, flags, calls, prose labels in many languages; four sittings, "
        "first reads 78/100, 2/112; 37/40, 1/37; 27/31, 2/40; 26/28, 0/15; tuned on)": DATA / "secrets_tune20.jsonl",
        "secrets_tune21 (what an agent writes into its own memory: Wi-Fi QR strings, TOTP setup keys, recovery-code "
        "lists, devices' codes, announced and dictated passwords, signed URLs; first read 43/60, 3/60; tuned on)":
            DATA / "secrets_tune21.jsonl",
        "secrets_tune22 (messy chat: SMS abbreviations, mixed languages, voice transcripts with digits read aloud, OCR "
        "with broken spacing, bare answers to quoted questions, native-script digits; first read 33/60, 0/60; tuned on)":
            DATA / "secrets_tune22.jsonl",
        "secrets_holdout21 (what an agent writes into its own memory, by a helper that read neither the screen nor earlier "
        "rows; the test batch, first read 23/30, 1/30; read once after the readers built from secrets_tune21)":
            DATA / "secrets_holdout21.jsonl",
        "secrets_holdout22 (messy chat, voice, OCR, mixed languages, by a helper that read neither the screen nor earlier "
        "rows; the test batch, first read 15/30, 1/30; read once after the readers built from secrets_tune22)":
            DATA / "secrets_holdout22.jsonl",
        "secrets_tune23 (secrets in source code and config across 47 languages and formats: Go, Rust, Java, C#, PHP, "
        "Ruby, Swift, SQL, Terraform, Dockerfile, XML, PowerShell, ...; variable names in many languages; first read "
        "56/60, 2/60; tuned on)": DATA / "secrets_tune23.jsonl",
        "secrets_holdout23 (secrets in source code across 30 programming and config languages, by a helper that read "
        "neither the screen nor earlier rows; the test batch, first read 28/30, 2/30; two of its rows seen in a diff "
        "after the first change (not clean))": DATA / "secrets_holdout23.jsonl",
        "secrets_tune24 (facts an extraction model writes: one short fact per row, everyday and work credentials, 30 "
        "languages; first read 51/60, 0/60; tuned on)": DATA / "secrets_tune24.jsonl",
        "secrets_holdout24 (facts an extraction model writes, by a helper that read neither the screen nor earlier rows; "
        "the test batch, first read 24/30, 1/30; 26/30, 1/30 after the readers built from secrets_tune24)":
            DATA / "secrets_holdout24.jsonl",
        "secrets_tune25 (credentials in structured business documents: Markdown, CSV, TSV and HTML tables, forms, "
        "handover documents, runbooks, tickets, inventories, headers in 27 languages; first read 47/60, 7/60; tuned on)":
            DATA / "secrets_tune25.jsonl",
        "secrets_holdout25 (credentials in structured business documents, by a helper that read neither the screen nor "
        "earlier rows; the test batch, first read 25/30, 2/30; 28/30, 2/30 after the readers built from secrets_tune25)":
            DATA / "secrets_holdout25.jsonl",
        "secrets_tune26 (credentials handed to an agent for a task: user turns, the agent's summaries, tool calls' "
        "arguments, plans, handovers and reminders, 21 languages; first read 49/60, 2/60; tuned on)":
            DATA / "secrets_tune26.jsonl",
        "secrets_holdout26 (credentials handed to an agent for a task, by a helper that read neither the screen nor "
        "earlier rows; the test batch, first read 25/30, 1/30; read once after the readers built from secrets_tune26)":
            DATA / "secrets_holdout26.jsonl",
        "secrets_tune27 (machine output pasted into a chat: logs, HTTP dumps, stack traces, CI logs, shell history, env "
        "dumps, debug prints; first read 58/60, 2/60; tuned on)":
            DATA / "secrets_tune27.jsonl",
        "secrets_holdout27 (machine output pasted into a chat, by a helper that read neither the screen nor earlier "
        "rows; the test batch, first read 29/30, 2/30; read once after the readers built from secrets_tune27)":
            DATA / "secrets_holdout27.jsonl",
    }
    grid = "secrets_grid14 (a construction x language grid, 19 languages; first read train 54/90, 4/86, dev 9/18, 1/24"
    for split, note in (("train", "; tuned on)"), ("dev", "; tuned on)"), ("test", "; the test split, not tuned on)")):
        secret_sets[f"{grid}, {split} split{note}"] = (DATA / "secrets_grid14.jsonl", split)
    out += ["| set | screen | secrets caught | benign refused |", "|---|---|---|---|"]
    holdout_scored: list[tuple[dict[str, str], bool]] = []
    grid_scored: list[tuple[dict[str, str], bool]] = []
    for name, where in secret_sets.items():
        path, split = where if isinstance(where, tuple) else (where, None)
        data = [r for r in rows(path) if split is None or r.get("split") == split]
        for scanner, detect in scanners.items():
            scored = [(r, detect(r["text"])) for r in data]
            out.append(line(name, scanner, scored, "secret"))
            if scanner == "engram.safety.secrets" and "tests/data" not in name:
                holdout_scored += scored
                if split is not None:
                    grid_scored += scored
    out += ["", "Per family and per language, the hand-written batches (fresh, the holdouts, the agent set):", ""]
    out += breakdown(holdout_scored, "secret", "family") + [""] + breakdown(holdout_scored, "secret", "lang")
    out += ["", "Errors on the hand-written batches:", ""] + misses(holdout_scored, "secret")
    out += ["", "Per construction and per language, secrets_grid14 (all three splits):", ""]
    out += breakdown(grid_scored, "secret", "family") + [""] + breakdown(grid_scored, "secret", "lang")

    out += ["", "### Technical text (nothing in it is an injection or a real secret)", "",
            "| text | pieces | refused as an instruction | a secret found |", "|---|---|---|---|"]
    sources: list[tuple[str, list[str]]] = []
    if beam:
        sources.append(("BEAM dev messages, chats 11-20 (held out)", beam_messages(beam, range(11, 21))))
        sources.append(("BEAM dev messages, chats 1-5 (benign training rows)", beam_messages(beam, range(1, 6))))
        sources.append(("BEAM dev messages, chats 6-10 (calibrated the threshold)", beam_messages(beam, range(6, 11))))
    if locomo:
        sources.append(("LoCoMo dev turns", locomo_turns(locomo)))
    suite = ROOT / "src" / "engram" / "bench" / "data" / "suite_facts.jsonl"
    sources.append(("the recall suite's facts", [r["text"] for r in rows(suite)]))
    sources.append(("this repository's docs (paragraphs)", doc_paragraphs()))
    sources.append(("this repository's code comments and docstrings", code_comments()))
    sources.append(("standard-library lines that mention keys, tokens or passwords", stdlib_secret_lines()))
    examples: list[str] = []
    for name, texts in sources:
        n_instr, n_secret, ex = touched(texts)
        out.append(f"| {name} | {len(texts)} | {frac(n_instr, len(texts))} | {frac(n_secret, len(texts))} |")
        examples += [f"* {name}:"] + ex if ex else []
    out += ["", "What was touched (first few of each; secrets shown redacted):", ""] + examples
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--beam", type=Path, help="BEAM's 100K chats directory")
    ap.add_argument("--locomo", type=Path, help="LoCoMo dev JSON")
    ap.add_argument("--write", action="store_true", help="replace the figures between the markers in docs/safety.md")
    args = ap.parse_args()
    text = report(args.beam, args.locomo)
    print(text)
    if args.write:
        doc = DOC.read_text(encoding="utf-8")
        head, _, rest = doc.partition(START)
        _, _, tail = rest.partition(END)
        command = "python benchmarks/filter_eval.py --beam BEAM_100K_DIR --locomo locomo_dev.json --write"
        DOC.write_text(f"{head}{START}\n<!-- generated by `{command}`; do not edit -->\n\n{text}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
