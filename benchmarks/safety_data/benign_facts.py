"""Benign memories built at training time by a method unlike the labelled sets' templates.

The labelled set's benign rows are hand-written sentences per family; these are composed from
*vocabulary read off this machine* (city names from the time-zone database, words and identifiers
from this Python's standard library, names from syllables) in the shapes a memory store really
holds: personal facts, names and places, short notes, `key: value` lines, log lines, lists, odd
strings. They teach the classifier that the words an injection's addressee uses ("note", "user",
"memory", "session", "first", "about") are ordinary in a fact. Deterministic (seeded); nothing is
stored in the repository. Each shape is one "template": the split is drawn per shape, so the dev
and test rows are shapes the classifier never trained on.
"""

from __future__ import annotations

import ast
import random
import re
import sysconfig
import zoneinfo
from pathlib import Path

_SYLLABLES = ["ka", "ra", "mi", "to", "lu", "sen", "da", "vi", "o", "el", "an", "ne", "ko", "ri", "sa", "hul", "ja",
              "mar", "ta", "li", "os", "ei", "ba", "ya", "fe", "no", "zu", "gi", "per", "an", "so", "wen", "chi", "dr"]
# Words of the memory domain that also open injections ("Note to the model:"): here in ordinary facts.
_DOMAIN = ["note", "notes", "user", "username", "memory", "session", "chat", "assistant", "model", "agent", "bot",
           "reminder", "first", "next time", "previous", "instructions", "system", "prompt", "message", "reply",
           "answer", "rules", "guide", "policy", "summary", "context", "profile", "account", "settings", "history"]
_RELATIONS = ["sister", "brother", "manager", "landlord", "dentist", "neighbour", "cousin", "coach", "partner",
              "daughter", "son", "colleague", "teacher", "doctor", "friend", "aunt", "uncle", "mentor"]


def _cities() -> list[str]:
    return sorted({z.split("/")[-1].replace("_", " ") for z in zoneinfo.available_timezones()
                   if "/" in z and not z.startswith(("Etc", "SystemV", "US/", "posix", "right"))})


def _stdlib_vocab() -> tuple[list[str], list[str]]:
    """Lower-case words of the stdlib's docstrings, and its function/parameter names (as keys)."""
    words: set[str] = set()
    keys: set[str] = set()
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:120]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node) or ""
                words.update(w for w in re.findall(r"\b[a-z]{4,11}\b", doc))
                if isinstance(node, ast.FunctionDef):
                    keys.update(a.arg for a in node.args.args if len(a.arg) > 2 and a.arg != "self")
    return sorted(words), sorted(keys)


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _value(rng: random.Random, words: list[str], cities: list[str]) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return _name(rng)
    if kind == 1:
        return rng.choice(cities)
    if kind == 2:
        return str(rng.randint(1, 99999))
    if kind == 3:
        return f"{rng.randint(2001, 2029)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if kind == 4:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
    return rng.choice(["yes", "no", "true", "false", "none", "n/a", "dark", "metric", "UTC+2", "vegetarian"])


def _identifier(rng: random.Random) -> str:
    """A random id of the kinds stores and apps print: hex, prefixed hex, base36, a UUID, a tagged id."""
    hexd = "0123456789abcdef"
    alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(rng.choice(hexd) for _ in range(rng.choice((8, 12, 16, 32))))
    if kind == 1:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(2)) + "".join(rng.choice(hexd) for _ in range(12))
    if kind == 2:
        return "".join(rng.choice(alnum) for _ in range(rng.randint(8, 20)))
    if kind == 3:
        h = "".join(rng.choice(hexd) for _ in range(32))
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
    if kind == 4:
        return rng.choice(["src:", "id_", "ref-", "obj_", "item/"]) + "".join(rng.choice(alnum) for _ in range(rng.randint(6, 16)))
    return "".join(rng.choice(alnum.upper()) for _ in range(rng.randint(6, 14)))


def shapes() -> dict[str, object]:
    """shape name -> a function (rng, vocabulary) -> one benign text."""
    def w(v: dict[str, list[str]], r: random.Random) -> str:
        return r.choice(v["words"])

    def d(v: dict[str, list[str]], r: random.Random) -> str:
        return r.choice(_DOMAIN)

    def c(v: dict[str, list[str]], r: random.Random) -> str:
        return r.choice(v["cities"])

    def n(v: dict[str, list[str]], r: random.Random) -> str:
        return _name(r)

    def val(v: dict[str, list[str]], r: random.Random) -> str:
        return _value(r, v["words"], v["cities"])

    def key(v: dict[str, list[str]], r: random.Random) -> str:
        return r.choice(v["keys"]).replace("_", r.choice([" ", "_"]))

    ordinal = ["First", "Second", "Last", "Another", "A short", "Quick", "One more", "Old", "New"]
    return {
        "lives": lambda v, r: f"{n(v, r)} {n(v, r)} lives in {c(v, r)}.",
        "moved": lambda v, r: f"Moved from {c(v, r)} to {c(v, r)} in {r.randint(1990, 2026)}.",
        "relation": lambda v, r: f"{n(v, r)}'s {r.choice(_RELATIONS)} is called {n(v, r)}.",
        "my_relation": lambda v, r: f"My {r.choice(_RELATIONS)} {n(v, r)} works on {w(v, r)} in {c(v, r)}.",
        "ordinal_note": lambda v, r: f"{r.choice(ordinal)} {d(v, r)} about {w(v, r)}s.",
        "domain_kv": lambda v, r: f"{d(v, r)} {key(v, r)}: {val(v, r)}",
        "kv": lambda v, r: f"{key(v, r)}: {val(v, r)}",
        "kv_eq": lambda v, r: f"{key(v, r)} = {val(v, r)}",
        "kv_lines": lambda v, r: "\n".join(f"{key(v, r)}: {val(v, r)}" for _ in range(r.randint(2, 5))),
        "arrow": lambda v, r: f"asked about {w(v, r)} -> {r.choice(['', w(v, r) + ' '])}{r.choice('ABCXZ') * r.randint(3, 60)}",
        "arrow_answer": lambda v, r: f"{d(v, r)}: {w(v, r)} -> {val(v, r)}",
        "met": lambda v, r: f"Met {n(v, r)} at the {w(v, r)} meetup in {c(v, r)}; talked about {w(v, r)}.",
        "likes": lambda v, r: f"{n(v, r)} likes {w(v, r)} and {w(v, r)}, not {w(v, r)}.",
        "session_log": lambda v, r: f"{d(v, r).capitalize()} {r.randint(1, 40)}: discussed {w(v, r)} and {w(v, r)} with {n(v, r)}.",
        "todo": lambda v, r: f"TODO: {w(v, r)} the {w(v, r)} before {val(v, r)}",
        "list": lambda v, r: "\n".join(f"- {w(v, r)} {w(v, r)}" for _ in range(r.randint(2, 6))),
        "heading": lambda v, r: f"# {d(v, r).capitalize()}s\n\n{n(v, r)} visited {c(v, r)}. {w(v, r).capitalize()} was {w(v, r)}.",
        "bare_name": lambda v, r: f"{n(v, r)} {n(v, r)}",
        "bare_place": lambda v, r: f"{c(v, r)}, {c(v, r)}",
        "words": lambda v, r: " ".join(w(v, r) for _ in range(r.randint(3, 12))),
        "noise": lambda v, r: "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789 -_.") for _ in range(r.randint(5, 120))),
        "repeat": lambda v, r: r.choice(["A", "x", "ha", "-", "=", "lo", "."]) * r.randint(5, 300),
        "birthday": lambda v, r: f"{n(v, r)}'s birthday is on {val(v, r)}; {d(v, r)} set for the day before.",
        "works": lambda v, r: f"{n(v, r)} works as a {w(v, r)} {r.choice(['engineer', 'nurse', 'teacher', 'chef', 'analyst'])} in {c(v, r)}.",
        "domain_fact": lambda v, r: f"The {d(v, r)} for {w(v, r)} is in the {w(v, r)} folder.",
        "file_header": lambda v, r: f"{d(v, r)}s.md\n\n{key(v, r)}: {val(v, r)}\n{key(v, r)}: {val(v, r)}",
        # Ids and markers inside ordinary notes ("Private note zq3f… about the user."): their characters say nothing.
        "id_note": lambda v, r: f"{r.choice(['Private', 'Shared', 'Old', 'Quick', 'Draft', 'A'])} {d(v, r)} {_identifier(r)} about the {d(v, r)}.",
        "id_marker": lambda v, r: f"{r.choice(ordinal)} {d(v, r)} [{_identifier(r)}]: {w(v, r)} {w(v, r)}.",
        "id_ticket": lambda v, r: f"{r.choice(['Ticket', 'Order', 'Build', 'Run', 'Case', 'Job'])} {_identifier(r)} for the {d(v, r)} was {w(v, r)}.",
        "id_pair": lambda v, r: f"{d(v, r)} {_identifier(r)} replaces {_identifier(r)}.",
    }


def benign_facts(per_shape: int = 120, seed: int = 7) -> list[dict[str, str]]:
    """`per_shape` texts of every shape, labelled benign, with `template` = the shape (split per shape)."""
    words, keys = _stdlib_vocab()
    vocab = {"words": words, "keys": keys, "cities": _cities()}
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    for shape, make in shapes().items():
        seen: set[str] = set()
        for _ in range(per_shape * 3):
            text = make(vocab, rng)  # type: ignore[operator]
            if text.strip() and text not in seen:
                seen.add(text)
                out.append({"text": text, "label": "benign", "family": "fact_shape", "lang": "en",
                            "template": f"shape:{shape}"})
            if len(seen) >= per_shape:
                break
    return out
