"""Supersession: decide, offline and explainably, when a new fact replaces an older one.

A fact is read as a *frame*: who it is about (the holder), a single-valued *slot* and the
slot's value. "Lives in Berlin" is (self, location, berlin); "Uses Redis for caching" is
(self, uses:caching, redis). A new fact supersedes a current one when

1. **same slot, new value**: both have the same slot for compatible holders and the values
   differ ("Lives in Berlin" -> "Moved to Porto"); or
2. **negation**: the new fact says something no longer holds ("No longer uses npm",
   "Switched from Postgres to ...", "Left Acme") and every content word of what it negates
   appears in the old fact, which is similar enough (cosine >= NEGATION_MIN_SIMILARITY).

Only single-valued slots supersede: where someone lives or works, job title, age, a
favourite X, what is preferred or used *for a purpose* (or in a known category such as
"database" or "editor"), a count ("has 3 kids") and attributes ("the deploy target is AWS").
Multi-valued predicates (likes, speaks, visited, has a ...) never do, so "Likes Python" and
"Likes Rust" both stay current. Every Decision carries the rule and a one-line reason.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from engram.store.base import Filter
from engram.types import FACT, Item

if TYPE_CHECKING:
    from engram.memory import Memory

#: Generic negations ("quit coffee") need this cosine with the old fact as well as word overlap.
NEGATION_MIN_SIMILARITY = 0.35
#: Attribute slots ("standup is at 9am") are the loosest frame, so they also need this cosine.
ATTRIBUTE_MIN_SIMILARITY = 0.45
#: How many nearest current facts (by vector) are checked on each write, besides keyword hits.
NEIGHBOURS = 20

SELF = frozenset({"", "i", "me", "user", "the user", "he", "she", "they", "him", "her", "his",
                  "their", "my", "the customer", "customer"})
TEAM = frozenset({"we", "team", "the team", "our team", "us", "our company", "the company"})
DETERMINERS = ("the ", "my ", "our ", "his ", "her ", "their ", "its ", "a ", "an ", "user's ", "the user's ")
STOP = frozenset(
    "a an the to of in on at for with and or is are am was were be been being do does did not no "
    "longer anymore any more now has have had use uses using used i my me he she they we our his her "
    "their it its this that these those user from as by just still also too again".split()
)
# Known categories: two values of one category fill the same slot ("uses Postgres" / "uses MySQL").
CATEGORIES = {
    "database": "postgres postgresql mysql mariadb sqlite mongodb mongo cockroachdb oracle dynamodb "
                "cassandra sql server mssql supabase",
    "editor": "vs code vscode vim neovim emacs intellij pycharm sublime atom zed cursor",
    "phone": "iphone android pixel galaxy",
    "laptop": "macbook thinkpad laptop xps",
    "os": "ubuntu fedora debian arch windows macos linux",
    "cloud": "aws gcp azure digitalocean heroku",
    "ci": "jenkins github actions circleci travis gitlab ci buildkite",
    "chat": "slack teams discord mattermost",
    "tracker": "jira linear asana trello",
    "drink": "tea coffee",
    "theme": "dark mode light mode",
    "contact": "email phone calls phone call",
    "package manager": "npm yarn pnpm pip poetry uv",
}
_CATEGORY_WORDS = {w: cat for cat, words in CATEGORIES.items() for w in words.split()}
ATTRIBUTE_SLOTS = {"job title": "role", "title": "role", "role": "role", "position": "role", "age": "age",
                   "home": "location", "address": "location", "time zone": "timezone"}


@dataclass(frozen=True)
class Frame:
    """What a fact says: `holder`'s single-valued `slot` has `value`; `negates` no longer hold."""

    holder: str
    slot: str | None
    value: str
    negates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    """The new fact supersedes `old_id`, by `rule`, for `reason`."""

    old_id: str
    rule: str
    reason: str
    similarity: float


# -- reading a fact ------------------------------------------------------------------------
_TIME = re.compile(
    r"\b(?:(?:last|this|next) (?:week|month|year|summer|winter|spring|autumn|fall)|in (?:january|february|march|"
    r"april|may|june|july|august|september|october|november|december|\d{4})|a few (?:days|weeks|months) ago|"
    r"today|yesterday|recently|currently|these days|nowadays|at the moment|now|finally|officially|just)\b"
)
_NEGATION = re.compile(
    r"\b(?:no longer|(?:does|do|is|are|am|did) not|doesn't|don't|isn't|aren't|no more|stopped|quit|gave up(?: on)?|"
    r"left|sold|dropped|cancel+ed|uninstalled|got rid of|moved away from)\b"
)
_GONE = re.compile(r"^(?P<obj>.+?) (?:passed away|died|was sold|got sold|was cancel+ed|was shut down|shut down)\b")
_PERSONISH = re.compile(r"^(?:[A-Z][\w'-]*)(?: [A-Z][\w'-]*){0,2}$")
_VALUE_CUT = re.compile(r",| (?:as|on|in|with|since|for|at|from|during|when|because|and) ")

_LOCATION = (r"(?:lives?|living|resides?|residing|(?:is |am |are )?based|stays?|staying) in (?P<obj>.+)",
             r"(?:moved|moving|moves|relocated|relocating|relocates)(?: back)?(?: from (?P<from>.+?))? to (?P<obj>.+)")
_EMPLOYER = (r"(?:started|starts)(?: a new job| a job| working)? (?:at|with) (?P<obj>.+)",
             r"(?:works?|working) (?:at|for) (?P<obj>.+)",
             r"(?:joined|joins) (?P<obj>.+)",
             r"(?:is |am |are )?employed (?:at|by) (?P<obj>.+)",
             r"(?:got|took|accepted|landed) a (?:new )?(?:job|position|role) (?:at|with) (?P<obj>.+)",
             r"(?:was |got )hired by (?P<obj>.+)")
_ROLE = (r"(?:works?|working) as (?P<obj>.+)", r"(?:was |got |has been )?promoted to (?P<obj>.+)",
         r"joined .+? as (?P<obj>.+)")
_USES = (r"(?:switched|switching|migrated|changed|went)(?: over)?(?: from (?P<from>.+?))? to (?P<obj>.+)",
         r"(?:switched|moved|migrated|changed|converted) (?P<qual>(?!to\b|from\b|over\b).+?)(?: from (?P<from>.+?))?"
         r" to (?P<obj>.+)",
         r"replaced (?P<from>.+?) with (?P<obj>.+)",
         r"(?:uses?|using|is using|relies on|runs?|running) (?!on\b)(?P<obj>.+)")
_PREFERS = (r"(?:prefers?|preferring) (?P<obj>.+?)(?: over (?P<from>.+))?$",)
_FAVOURITE = (r"(?:favou?rite|fave) (?P<qual>[\w ]+?) (?:is|are|=|:) (?P<obj>.+)",)
_AGE = (r"(?:is|am|are|turned|turns|aged) (?P<obj>\d{1,3})(?: years old| years| yo)?$",)
_COUNT = (r"(?:has|have|owns?) (?P<obj>\d+|one|two|three|four|five|six|seven|eight|nine|ten) (?P<qual>.+)",)
_ATTRIBUTE = re.compile(r"^(?P<qual>[\w' -]+?)(?: is| are|:) (?P<obj>.+)$")


def normalise(text: str) -> str:
    """Lower case, straight quotes, no trailing punctuation, no time adverbs."""
    text = text.replace("\u2019", "'").strip().rstrip(".!;")
    text = " ".join(_TIME.sub(" ", text.lower()).split())
    return re.sub(r"\b(?:has|have) (?=moved|relocated|switched|joined|started|left|quit|stopped|been)", "", text).strip()


@functools.lru_cache(maxsize=65536)
def read(text: str) -> tuple[Frame, ...]:
    """Every frame a fact states (usually one; "Joined Globex as a data engineer" states two).

    Cached: each write compares its fact with dozens of neighbours, mostly the same texts.
    """
    return tuple(_read(text))


def _read(text: str) -> list[Frame]:
    norm = normalise(text)
    negated = _negated_part(norm)
    if negated is not None:
        return [Frame(_holder_of(text, ""), None, "", negates=(negated,))]
    frames = [f for f in (_verb_frames(text, norm)) if f is not None]
    if not frames:
        frames = [f for f in (_attribute_frame(norm),) if f is not None]
    return frames


_SLOT_PATTERNS = tuple(
    (slot, tuple(re.compile(r"(?:^|\b)" + p) for p in patterns))
    for slot, patterns in (("location", _LOCATION), ("employer", _EMPLOYER), ("role", _ROLE), ("uses", _USES),
                           ("prefers", _PREFERS), ("favourite", _FAVOURITE), ("age", _AGE), ("count", _COUNT))
)


def _verb_frames(original: str, norm: str) -> list[Frame | None]:
    found: list[Frame | None] = []
    for slot, patterns in _SLOT_PATTERNS:
        for pattern in patterns:
            match = pattern.search(norm)
            if match:
                found.append(_frame(slot, original, norm[: match.start()].strip(), match.groupdict()))
                break
    return found


def _frame(slot: str, original: str, holder: str, groups: dict[str, str | None]) -> Frame | None:
    obj, qual, old = groups.get("obj") or "", groups.get("qual"), groups.get("from")
    negates = (old,) if old else ()
    if slot == "location" and not _person_like(original, holder):
        slot, qual = "uses", holder  # "Team chat moved to Teams": a thing moved, not a person
        holder = ""
    holder = _holder_of(original, holder)
    if slot in ("location", "employer", "role"):
        value = _cut(obj)
        return Frame(holder, slot, value, negates) if value else None
    if slot in ("uses", "prefers"):
        return _purpose_frame(slot, holder, obj, qual, negates)
    if slot == "favourite":
        return Frame(holder, f"favourite:{_bare(qual or '')}", _bare(obj), negates)
    if slot == "age":  # "Age is 29": the word "age" names the slot, not a holder
        return Frame(_holder_of(original, re.sub(r"(?:^|\b)(?:the |my |her |his )?age$", "", holder)), "age", obj)
    if slot == "count":
        return Frame(holder, f"count:{_head(_cut(qual or ''))}", obj)
    return None


def _purpose_frame(slot: str, holder: str, obj: str, qual: str | None, negates: tuple[str, ...]) -> Frame | None:
    """`uses X for Y` fills slot uses:Y; without a purpose, X's known category (or X itself) is the slot."""
    if qual is None:
        parts = re.split(r" (?:for|as|on)(?: the| a| an| my| our)? ", obj, maxsplit=1)
        obj, qual = parts[0], (parts[1] if len(parts) > 1 else None)
    value = _bare(_cut(obj) if slot == "prefers" else obj)
    if not value:
        return None
    purpose = _bare(qual) if qual else (_category(value) or _head(value))
    return Frame(holder, f"{slot}:{purpose}", value, negates)


def _attribute_frame(norm: str) -> Frame | None:
    """`<attribute> is <value>`: "The deploy target is AWS", "Timezone: CET"."""
    match = _ATTRIBUTE.match(norm)
    if not match:
        return None
    name = _bare(match.group("qual"))
    if not name or len(name.split()) > 4 or name in SELF or name in TEAM:
        return None
    value = _bare(match.group("obj"))
    slot = ATTRIBUTE_SLOTS.get(name, f"attr:{name}")  # "job title is X" fills the same slot as "works as X"
    return Frame("self", slot, value) if value else None


def _negated_part(norm: str) -> str | None:
    """What a negative fact says no longer holds ("no longer uses npm" -> "uses npm"), else None."""
    gone = _GONE.match(norm)
    if gone:
        return gone.group("obj")
    if not _NEGATION.search(norm):
        return None
    rest = _NEGATION.sub(" ", norm)
    rest = re.sub(r"\b(?:any ?more|using|doing|playing)\b", " ", rest)
    return " ".join(rest.split()) or None


def _holder_of(original: str, holder: str) -> str:
    holder = re.sub(r"(?:^| )(?:is|am|are|was|were|has|have|had|will|would)$", "", holder.strip()).strip()
    if holder in SELF:
        return "self"
    if holder in TEAM:
        return "team"
    return holder


def _person_like(original: str, holder: str) -> bool:
    """Empty, a pronoun, or a capitalised name ("Alice", "Bob Smith"): someone who can live somewhere."""
    if holder in SELF or holder in TEAM:
        return True
    return bool(_PERSONISH.match(original.strip()[: len(holder)]))


def _cut(value: str) -> str:
    """The value without trailing context ("Acme on the payments team" -> "acme")."""
    return _bare(_VALUE_CUT.split(value, maxsplit=1)[0])


def _bare(text: str) -> str:
    text = text.strip().strip(".,;:'\"")
    for det in DETERMINERS:
        if text.startswith(det):
            text = text[len(det):]
    return re.sub(r"\b(?:too|as well|again|instead)$", "", text).strip()


def _head(phrase: str) -> str:
    words = phrase.split()
    return _stem(words[-1]) if words else ""


def _category(value: str) -> str | None:
    for word in value.replace("-", " ").split():
        if word in _CATEGORY_WORDS:
            return _CATEGORY_WORDS[word]
    return None


def _stem(word: str) -> str:
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning (no stop words), for negation matching."""
    words = re.findall(r"[\w@.$-]+", text.lower())
    return frozenset(_stem(w.strip(".")) for w in words if w.strip(".") and w not in STOP)


def _same_value(a: str, b: str) -> bool:
    """Values agree when one's words contain the other's ("berlin" / "berlin, germany")."""
    wa, wb = set(re.findall(r"[\w@.$-]+", a)), set(re.findall(r"[\w@.$-]+", b))
    return wa <= wb or wb <= wa


def _holders_match(a: str, b: str) -> bool:
    """The same holder; the user and their team count as one, a named person only as themself."""
    return a == b or {a, b} <= {"self", "team"}


# -- deciding --------------------------------------------------------------------------------
def detect(new_text: str, candidates: Sequence[tuple[Item, float]]) -> list[Decision]:
    """Which current candidate facts `new_text` supersedes, and why. Pure: no I/O, no model."""
    new_frames = read(new_text)
    if not new_frames:
        return []
    decisions = []
    for item, similarity in candidates:
        if not item.current or item.text == new_text:
            continue
        decision = _decide(new_frames, item, float(similarity))
        if decision is not None:
            decisions.append(decision)
    return decisions


def _decide(new_frames: list[Frame], old: Item, similarity: float) -> Decision | None:
    old_frames = read(old.text)
    for new in new_frames:
        for negated in new.negates:
            decision = _negation(new, negated, old, old_frames, similarity)
            if decision:
                return decision
        for prior in old_frames:
            if prior.slot is None or new.slot is None or new.slot != prior.slot:
                continue
            if not _holders_match(new.holder, prior.holder) or _same_value(new.value, prior.value):
                continue
            if new.slot.startswith("attr:") and similarity < ATTRIBUTE_MIN_SIMILARITY:
                continue
            return Decision(old.id, "same-slot", f"same {new.slot!r} for {new.holder}: {prior.value!r} -> "
                            f"{new.value!r}", similarity)
    return None


def _negation(new: Frame, negated: str, old: Item, old_frames: list[Frame], similarity: float) -> Decision | None:
    """The new fact negates the old one: a switched-from value, or a negated statement's words."""
    for prior in old_frames:
        if prior.slot is None or not _holders_match(new.holder, prior.holder):
            continue
        if prior.slot and prior.value and _same_value(_bare(negated), prior.value) and (
            new.slot is None or prior.slot.split(":")[0] == new.slot.split(":")[0]
        ):
            if new.slot is None:
                return Decision(old.id, "negation", f"says {prior.slot} {prior.value!r} no longer holds", similarity)
            return Decision(old.id, "replaced", f"{prior.slot} {prior.value!r} is replaced by {new.value!r}",
                            similarity)
    if new.slot is not None or any(f.slot is None for f in old_frames):
        return None
    words = content_words(negated)
    if words and words <= content_words(old.text) and similarity >= NEGATION_MIN_SIMILARITY:
        return Decision(old.id, "negation", f"says {negated!r} no longer holds", similarity)
    return None


# -- wiring into Memory ----------------------------------------------------------------------
def supersede_on_write(mem: "Memory", item: Item, vector: np.ndarray | None = None) -> dict[str, str]:
    """Old item id -> `item.id` for every current fact of the subject that `item` supersedes.

    Candidates: the NEIGHBOURS nearest current facts by vector, plus keyword hits on the words
    of the new fact's value and negations (which similarity alone misses: "Lives in Berlin"
    and "Moved to Porto" are far apart for MiniLM). Only kind 'fact' items without a key.
    """
    if item.kind != FACT or item.key is not None or not read(item.text):
        return {}
    # A duplicate is not inserted, so it must not close anything (put would point at a missing id).
    if mem.store.find(item.subject, Filter(kinds=(FACT,), content_hash=item.content_hash), limit=1):
        return {}
    scores = _similarities(mem, item, vector)
    ids = sorted(scores, key=scores.get, reverse=True)[:NEIGHBOURS]  # type: ignore[arg-type]
    ids += [i for i, _ in mem.store.keyword(item.subject, _probe_terms(item.text), Filter(kinds=(FACT,)), 50)]
    candidates = [it for it in mem.store.get(list(dict.fromkeys(ids)))
                  if it.subject == item.subject and it.kind == FACT and it.key is None and it.current]
    decisions = detect(item.text, [(it, scores.get(it.id, 0.0)) for it in candidates])
    return {d.old_id: item.id for d in decisions}


def _similarities(mem: "Memory", item: Item, vector: np.ndarray | None) -> dict[str, float]:
    embedder: Any = mem.embedder
    if embedder is None:
        return {}
    ids, matrix = mem.store.vectors(item.subject, embedder.identity)
    if not ids:
        return {}
    query = vector if vector is not None else embedder.embed_one(item.text)
    return dict(zip(ids, (matrix @ np.asarray(query, dtype=np.float32)).tolist()))


def _probe_terms(text: str) -> list[str]:
    """Words that an old fact of the same slot probably shares: slot verbs and negated values."""
    frames = read(text)
    terms: set[str] = set()
    for frame in frames:
        for negated in frame.negates:
            terms |= content_words(negated)
        slot = (frame.slot or "").split(":")[0]
        terms |= set(_SLOT_WORDS.get(slot, ()))
        if frame.slot and ":" in frame.slot:
            terms |= set(frame.slot.split(":", 1)[1].split())
        if frame.slot and frame.slot.startswith(("uses", "prefers")):
            category = _category(frame.value)
            terms |= set(CATEGORIES.get(category or "", "").split())
    return sorted(t for t in terms if t)


_SLOT_WORDS = {
    "location": ("lives", "live", "living", "based", "moved", "resides", "relocated", "home"),
    "employer": ("works", "work", "joined", "employed", "job", "hired"),
    "role": ("works", "promoted", "title", "role", "position"),
    "uses": ("uses", "use", "using", "switched", "runs", "replaced"),
    "prefers": ("prefers", "prefer"),
    "favourite": ("favourite", "favorite"),
    "age": ("years", "age", "old", "turned"),
    "count": ("has", "have"),
}
