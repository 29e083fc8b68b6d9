"""Supersession: decide, offline and explainably, when a new fact replaces an older one.

A false supersession hides a true fact from recall, so the rule is narrow and, in doubt, both
facts stay current. A fact is read clause by clause as *frames*: who it is about (the holder:
the user, the team, or a named person; a full name is one entity), a single-valued *slot* and
the slot's value. "Lives in Berlin" is (self, location, berlin); "Bruno Chen uses Emacs as a
code editor" is (bruno chen, choice:editor, emacs). A new fact supersedes a current one when

1. **same slot, new value**: both have the same slot for the same holder and the values
   differ ("Lives in Berlin" -> "Moved to Porto", "Prefers tabs for indentation" -> "Switched
   to spaces for indentation"); or
2. **negation**: the new fact says something no longer holds ("No longer uses npm", "Is no
   longer vegetarian", "Switched from Postgres to ...", "Left Acme") for the same holder, and
   its value fills the old fact's slot, or every content word of what it negates appears in
   the old fact, which is similar enough (cosine >= NEGATION_MIN_SIMILARITY).

Only single-valued slots supersede: where someone lives or works, team, job title, diet,
relationship status, car, commute, age, a favourite X, what is used or preferred *for a
purpose* (or in a known category such as "database" or "editor"), a count ("has 3 kids") and
attributes of things ("the deploy target is AWS"). Multi-valued predicates never do: a person's
states and activities ("is learning Swahili", "is allergic to gluten", "is planning a trip"),
likes, speaks, visited, has a ..., one of several hobbies. Every Decision carries the rule and a
one-line reason. Checking a write costs a bounded number of candidates (`Batch`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from engram.core import ann
from engram.core import vectors as nearest
from engram.core.recall import positions
from engram.embed.base import Embedder
from engram.language.quotes import straighten
from engram.language.stem import stem
from engram.language.stopwords import STOP_WORDS
from engram.store.base import Filter, SearchesVectors, Store
from engram.types import FACT, Item, dedupe_key

if TYPE_CHECKING:
    from engram.core.memory import Memory

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
#: Words that say a value changed or who holds it, not what it is: with the English function
#: words, left out of the content words negations are matched on.
CHANGE_WORDS = frozenset("longer anymore still also use uses using used user".split())
STOP = STOP_WORDS | CHANGE_WORDS
# Known categories: two values of one category fill the same slot ("uses Postgres" / "uses MySQL").
CATEGORIES = {
    "database": "postgres postgresql mysql mariadb sqlite mongodb mongo cockroachdb oracle dynamodb "
                "cassandra sql server mssql supabase",
    "editor": "vs code vscode vim neovim emacs intellij pycharm sublime atom zed cursor",
    "phone": "iphone android pixel galaxy oneplus fairphone nokia motorola xiaomi",
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
ATTRIBUTE_SLOTS = {"job title": "role", "title": "role", "role": "role", "position": "role", "job": "role",
                   "age": "age",
                   "home": "location", "address": "location", "home city": "location", "city": "location",
                   "time zone": "timezone", "employer": "employer", "company": "employer", "team": "team",
                   "diet": "diet", "car": "car", "commute": "commute", "phone": "choice:phone",
                   "editor": "choice:editor", "code editor": "choice:editor", "text editor": "choice:editor"}


@dataclass(frozen=True)
class Frame:
    """What a fact says: `holder`'s single-valued `slot` has `value`; `negates` no longer hold.

    `adds`: the value is stated as an addition or under a condition ("too", "sometimes", "when it
    is sunny") with no sign of change, so it sits beside the old value instead of replacing it."""

    holder: str
    slot: str | None
    value: str
    negates: tuple[str, ...] = ()
    adds: bool = False


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
    r"\b(?:no longer|not any ?more|(?:does|do|is|are|am|did|has|have) not|doesn't|don't|isn't|aren't|hasn't|haven't|"
    r"no more|stopped|quit|gave up(?: on)?|left|sold|dropped|cancel+ed|uninstalled|got rid of|moved away from)\b"
)
_GONE = re.compile(r"^(?P<obj>.+?) (?:passed away|died|was sold|got sold|was cancel+ed|was shut down|shut down)\b")
#: A name: capitalised words, not starting with a determiner or pronoun ("Bruno Chen", "Alice").
_NAME = re.compile(r"^(?!(?:The|A|An|My|Our|His|Her|Their|Its|This|That|These|Those|I|We|He|She|They|It)\b)"
                   r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3}$")
#: Where a sentence holds a second statement about the same holder: "; ", "left Acme and joined Globex".
_CLAUSE = re.compile(r"\s*;\s*|,? (?:and|but) (?=(?:then |now |also )?(?:is|are|am|was|lives|moved|relocated|joined|"
                     r"started|works|uses|switched|drives|bought|prefers|eats|took|got|became|went|left|quit|sold|"
                     r"stopped|has|now)\b)")
_VALUE_CUT = re.compile(r",| (?:as|on|in|with|since|for|at|from|during|when|because|and) ")
#: Groups inside an organisation: "joined the payments team" changes team, not employer or city.
_UNIT = re.compile(r"^(?:the )?(?P<obj>.+?) (?:team|department|group|squad|division|unit)$")

#: What one joins besides an employer, many at a time: "joined the chess club", "joined a choir".
_CLUB = re.compile(r"\b(?:club|society|choir|gym|band|league|community|class|course|program|programme|waitlist|"
                   r"association|union|church|orchestra|meetup|circle|forum|discord|server|chat)$")
_LOCATION = (r"(?:lives?|living|resides?|residing|(?:is |am |are )?based|stays?|staying) in (?P<obj>.+)",
             r"(?:moved|moving|moves|relocated|relocating|relocates)(?: back)?(?: from (?P<from>.+?))? to (?P<obj>.+)")
_TEAM = (r"(?:is |am |are )?(?:on|in|part of|a member of) the (?P<obj>.+?) (?:team|department|group|squad)\b",
         r"belongs? to the (?P<obj>.+?) (?:team|department|group|squad)\b",
         r"(?:joined|moved to|transferred to|switched to) the (?P<obj>.+?) (?:team|department|group|squad)\b")
_EMPLOYER = (r"(?:started|starts)(?: a new job| a job| working)? (?:at|with) (?P<obj>.+)",
             r"(?:works?|working) (?:at|for) (?P<obj>.+)",
             r"(?:joined|joins) (?P<obj>.+)",
             r"(?:is |am |are )?employed (?:at|by) (?P<obj>.+)",
             r"(?:got|took|accepted|landed) a (?:new )?(?:job|position|role) (?:at|with) (?P<obj>.+)",
             r"(?:was |got )hired by (?P<obj>.+)")
_ROLE = (r"(?:works?|working) as (?P<obj>.+)", r"(?:was |got |has been )?promoted to (?P<obj>.+)",
         r"(?:is |am |are )?employed as (?P<obj>.+)", r"joined .+? as (?P<obj>.+)")
_USES = (r"(?:switched|switching|migrated|changed|went)(?: over)?(?: from (?P<from>.+?))? to (?P<obj>.+)",
         r"(?:switched|moved|migrated|changed|converted) (?P<qual>(?!to\b|from\b|over\b).+?)(?: from (?P<from>.+?))?"
         r" to (?P<obj>.+)",
         r"replaced (?P<from>.+?) with (?P<obj>.+)",
         r"(?:uses?|using|is using|relies on|runs?|running) (?!on\b)(?P<obj>.+)",
         r"(?:prefers?|preferring) (?P<obj>.+?)(?: over (?P<from>.+))?$")
_FAVOURITE = (r"(?:favourite|fave) (?P<qual>[\w ]+?) (?:is|are|=|:) (?P<obj>.+)",)
_DIET = (r"(?:is |am |are )?(?:a |an )?(?P<obj>vegetarian|vegan|pescatarian|carnivore|omnivore)$",
         r"(?:follows?|is on|eats) an? (?P<obj>[\w-]+) diet\b")
_RELATIONSHIP = (r"got (?P<obj>married|engaged|divorced)\b",
                 r"(?:is |am |are )?(?P<obj>single|married|engaged|divorced|widowed)\b(?! to\b| from\b)")
_CAR = (r"(?:drives?|driving) (?:a|an) (?P<obj>.+)",)
_COMMUTE = (r"(?:commutes?|commuting|gets|goes|travels)(?: in)?(?: to (?:work|the office|school|campus))?"
            r" by (?P<obj>.+)",)
_AGE = (r"(?:is|am|are|turned|turns|aged) (?P<obj>\d{1,3})(?: years old| years| yo)?$",)
_COUNT = (r"(?:has|have|owns?) (?P<obj>\d+|one|two|three|four|five|six|seven|eight|nine|ten) (?P<qual>.+)",)
_ATTRIBUTE = re.compile(r"^(?P<qual>[\w' -]+?)(?: is| are|:) (?P<obj>.+)$")
#: How a state or activity reads ("learning X", "allergic to X", "in a choir", "a member of X"):
#: several hold at once, so "<someone> is <state>" is no single-valued attribute ("Hiro is ...").
_STATE = re.compile(
    r"^(?:\w+ing\b|\w+ (?:to|in|of|at|about|with|by|from)\b|"
    r"(?:in|on|at|into|from|with) (?:a|an|the|my|his|her|their)\b|"
    r"(?:a|an) (?:\w+ )?(?:member|fan|lover|friend|speaker|learner|player|student|client|customer|user)\b)")
#: Attributes that hold many values at once: "one of her hobbies is ...", "allergies are ...".
_MANY = re.compile(r"^(?:one|some|all|each|any|many|most) of\b|(?<!s)s$|\b(?:hobbies|allergies|languages)\b")


def normalise(text: str) -> str:
    """Lower case, straight quotes, British spelling of a few slot words, no trailing punctuation,
    no time adverbs."""
    text = straighten(text).strip().rstrip(".!;")
    text = " ".join(_TIME.sub(" ", text.lower()).split())
    text = re.sub(r"\bfavou?rite\b", "favourite", re.sub(r"\bcolou?r\b", "colour", text))
    return re.sub(r"\b(?:has|have) (?=moved|relocated|switched|joined|started|left|quit|stopped|been)", "", text).strip()


@functools.lru_cache(maxsize=65536)
def read(text: str) -> tuple[Frame, ...]:
    """Every frame a fact states (usually one; "Joined Globex as a data engineer" states two,
    "Left Acme and joined Globex" a negation and a frame). A clause without its own holder
    ("...; eats fish now") speaks of the first clause's holder.

    Cached: each write compares its fact with dozens of neighbours, mostly the same texts.
    """
    frames: list[Frame] = []
    holder = "self"
    for n, clause in enumerate(c for c in _CLAUSE.split(text.strip()) if c):
        found = _read_clause(clause, holder)
        if n == 0:
            holder = found[0].holder if found else sentence_holder(clause)
        frames += found
    return tuple(frames)


def _read_clause(text: str, default: str) -> list[Frame]:
    norm = normalise(text)
    negation = _negation_frame(norm, default)
    if negation is not None:
        return [negation]
    frames = [f for f in _verb_frames(text, norm, default) if f is not None]
    if not frames:
        frames = [f for f in (_attribute_frame(text, norm, default),) if f is not None]
    lowered = text.lower()
    if _ADDITION.search(lowered) and not _CHANGE.search(lowered):
        frames = [dataclasses.replace(f, adds=True) for f in frames]
    return frames


#: A value stated beside others: an addition, a condition, a habit that is not exclusive.
_ADDITION = re.compile(r"\b(?:too|also|as well|in addition|additionally|another|sometimes|occasionally|when|whenever|"
                       r"if|unless|on (?:weekends|rainy days|the side)|at weekends|part[- ]time)\b")
#: Words that say the value changed, whatever else the sentence adds.
_CHANGE = re.compile(r"\b(?:now|no longer|any ?more|switched|moved|relocated|changed|replaced|migrated|started|"
                     r"joined|left|quit|promoted|became|these days|nowadays|instead)\b")


_SLOT_PATTERNS = tuple(
    (slot, tuple(re.compile(r"(?:^|\b)" + p) for p in patterns))
    for slot, patterns in (("team", _TEAM), ("location", _LOCATION), ("employer", _EMPLOYER), ("role", _ROLE),
                           ("uses", _USES), ("favourite", _FAVOURITE), ("diet", _DIET),
                           ("relationship", _RELATIONSHIP), ("car", _CAR), ("commute", _COMMUTE), ("age", _AGE),
                           ("count", _COUNT))
)


def _verb_frames(original: str, norm: str, default: str) -> list[Frame | None]:
    found: list[Frame | None] = []
    for slot, patterns in _SLOT_PATTERNS:
        for pattern in patterns:
            match = pattern.search(norm)
            if match:
                found.append(_frame(slot, original, norm[: match.start()].strip(), match.groupdict(), default))
                break
    return found


def _frame(slot: str, original: str, before: str, groups: dict[str, str | None], default: str) -> Frame | None:
    obj, qual, old = groups.get("obj") or "", groups.get("qual"), groups.get("from")
    negates = (old,) if old else ()
    if slot == "location" and not _person_like(original, before):
        slot, qual = "uses", before  # "Team chat moved to Teams": a thing moved, not a person
        before = ""
    elif slot == "location" and (_category(_cut(obj)) or re.search(r"\d", _cut(obj))):
        slot = "uses"  # "moved to Vim", "moved to Python 3.12": a tool or version, not a place
    if slot in ("employer", "location", "uses") and (_UNIT.match(_cut(obj)) or _CLUB.search(_cut(obj))):
        return None  # "joined the payments team", "moved to the billing department": the team frame says it
    holder = _holder_of(before, default)
    if slot == "location" and " in " in obj:  # "a house in porto": the place is porto
        obj = obj.rsplit(" in ", 1)[1]
    if slot in ("team", "location", "employer", "role", "diet", "relationship", "car", "commute"):
        value = _cut(obj)
        return Frame(holder, slot, value, negates) if value else None
    if slot == "uses":
        return _purpose_frame(holder, obj, qual, negates)
    if slot == "favourite":
        return Frame(holder, f"favourite:{_bare(qual or '')}", _bare(obj), negates)
    if slot == "age":  # "Age is 29": the word "age" names the slot, not a holder
        return Frame(_holder_of(re.sub(r"(?:^|\b)(?:the |my |her |his )?age$", "", before), default), "age", obj)
    if slot == "count":
        return Frame(holder, f"count:{_head(_cut(qual or ''))}", obj)
    return None


def _purpose_frame(holder: str, obj: str, qual: str | None, negates: tuple[str, ...]) -> Frame | None:
    """What is used or preferred *for a purpose* is one choice: "uses X for Y", "prefers X for Y"
    and "switched to X for Y" all fill slot choice:Y; without a purpose, X's known category (or X
    itself) is the slot ("uses Postgres" / "switched to MySQL": choice:database)."""
    if qual is None:
        parts = re.split(r" (?:for|as|on|in)(?: the| a| an| my| our)? ", obj, maxsplit=1)
        obj, qual = parts[0], (parts[1] if len(parts) > 1 else None)
    value = _bare(_cut(obj))
    if not value:
        return None
    category = _category(value)
    purpose = _bare(qual) if qual else (category or _head(value))
    if category and _names_category(purpose, category):  # "as a code editor", "for editing code": the editor
        purpose = category
    return Frame(holder, f"choice:{purpose}", value, negates)


def _names_category(purpose: str, category: str) -> bool:
    """The stated purpose is the value's category in other words ("code editor", "editing code",
    "the main database" for an editor or a database): every word shares the category's four-letter
    stem or is a generic modifier ("analytics database" names a purpose of its own)."""
    stems = {w[:4] for w in category.split() if len(w) >= 4}
    words = purpose.split()
    return any(w[:4] in stems for w in words) and all(w[:4] in stems or w in _GENERIC for w in words)


#: Modifiers that do not change what a choice is for ("the main database" is the database).
_GENERIC = frozenset("main primary default usual daily preferred favourite code text source go-to".split())


def _attribute_frame(original: str, norm: str, default: str) -> Frame | None:
    """`<attribute> is <value>`: "The deploy target is AWS", "Timezone: CET", "Bruno Chen's car is
    a Volvo". A person's "is" ("Bruno Chen is learning Swahili", "Is allergic to gluten") states
    something about them, not an attribute: no slot, so it never supersedes anything."""
    match = _ATTRIBUTE.match(norm)
    if not match:
        return None
    name = _bare(match.group("qual"))
    holder = default
    if "'s " in name:  # "bruno chen's favourite colour": the possessor holds it
        owner, name = name.rsplit("'s ", 1)
        holder = _holder_of(owner, default)
    if not name or len(name.split()) > 4 or name in SELF or name in TEAM or _MANY.search(name):
        return None
    value = _bare(match.group("obj"))
    named = _NAME.match(original.strip()[: len(match.group("qual"))].strip())
    if (named and " " in named.group(0)) or _STATE.match(value):
        return None  # "Bruno Chen is ...", "her daughter is learning Swahili": a state, not an attribute
    slot = ATTRIBUTE_SLOTS.get(name, f"attr:{name}")  # "job title is X" fills the same slot as "works as X"
    return Frame(holder, slot, value) if value else None


def _negation_frame(norm: str, default: str) -> Frame | None:
    """What a negative clause says no longer holds ("no longer uses npm" -> "uses npm"), and whose."""
    gone = _GONE.match(norm)
    if gone:
        return Frame(default, None, "", negates=(gone.group("obj"),))
    match = _NEGATION.search(norm)
    if not match:
        return None
    rest = _NEGATION.sub(" ", norm[match.end():])
    rest = " ".join(re.sub(r"\b(?:any ?more|using|doing|playing)\b", " ", rest).split())
    return Frame(_holder_of(norm[: match.start()], default), None, "", negates=(rest,)) if rest else None


def sentence_holder(text: str) -> str:
    """Who a sentence is about, read from its start: "self" (no subject, or I / the user), "team",
    or a lower-cased name ("Bruno Chen is ..." -> "bruno chen"). Anything else is "self" too."""
    words = text.replace("\u2019", "'").strip().split()
    for size in range(min(4, len(words) - 1), 0, -1):
        name = " ".join(words[:size]).removesuffix("'s")
        follows, first = words[size].lower(), words[0].lower()
        # One capitalised word is a name before an auxiliary ("Hiro is"), or before a verb when it
        # does not read as a verb itself ("Rex loves", not "Changed jobs", "Attends classes").
        verb_next = follows in _AUXILIARIES or (follows.endswith(("s", "ed")) and not follows.endswith("ss")
                                                and not first.endswith(("s", "ed", "ing")))
        if (_NAME.match(name) and first not in _NOT_NAMES
                and (words[size - 1].endswith("'s") or (follows[:1].islower() and (size > 1 or verb_next)))):
            return _holder_of(name.lower(), "self")
    return _holder_of(words[0].lower() if words and words[0].lower() in SELF | TEAM else "", "self")


_AUXILIARIES = frozenset("is was has had does did will can would could should may might".split())
#: Words a subject-less fact starts with ("Lives in Berlin", "Manager is Carol"): never a name.
_NOT_NAMES = frozenset(
    "lives moved relocated works worked joined started uses used prefers switched is was has had owns drinks eats "
    "plays speaks likes loves enjoys quit stopped left sold got became went turned runs deploys smokes goes "
    "favourite favorite age timezone manager budget release primary job no never does doesn't".split()
)


def _holder_of(holder: str, default: str) -> str:
    holder = re.sub(r"(?:^| )(?:is|am|are|was|were|has|have|had|will|would|does|do|did)$", "", holder.strip()).strip()
    holder = re.sub(r"'s$", "", holder)
    if not holder:
        return default
    if holder in SELF:
        return "self"
    if holder in TEAM:
        return "team"
    return holder


def _person_like(original: str, holder: str) -> bool:
    """Empty, a pronoun, or a capitalised name ("Alice", "Bob Smith"): someone who can live somewhere."""
    holder = _holder_of(holder, "self")
    if holder in ("self", "team"):
        return True
    return bool(_NAME.match(original.strip()[: len(holder)]))


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
    return stem(words[-1]) if words else ""


def _category(value: str) -> str | None:
    for word in value.replace("-", " ").split():
        if word in _CATEGORY_WORDS:
            return _CATEGORY_WORDS[word]
    return None


@functools.lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning (no stop words), for negation matching. Cached like `read`."""
    words = re.findall(r"[\w@.$-]+", text.lower())
    return frozenset(stem(w.strip(".")) for w in words if w.strip(".") and w not in STOP)


def _same_value(a: str, b: str) -> bool:
    """Values agree when one's words contain the other's ("berlin" / "berlin, germany")."""
    wa, wb = set(re.findall(r"[\w@.$-]+", a)), set(re.findall(r"[\w@.$-]+", b))
    return wa <= wb or wb <= wa


def _holders_match(a: str, b: str) -> bool:
    """The same holder; the user and their team count as one, a named person only as themself
    (a full name is one entity: "bruno chen" is not "bruno sharma")."""
    return a == b or {a, b} <= {"self", "team"}


# -- deciding --------------------------------------------------------------------------------
def detect(new_text: str, candidates: Sequence[tuple[Item, float]]) -> list[Decision]:
    """Which current candidate facts `new_text` supersedes, and why. Pure: no I/O, no model."""
    new_frames = read(new_text)
    if not new_frames:
        return []
    # Without a negation only an old fact with one of the new slots can be superseded (`_decide`).
    slots = None if any(f.negates for f in new_frames) else {f.slot for f in new_frames if f.slot}
    decisions = []
    for item, similarity in candidates:
        if not item.current or item.text == new_text:
            continue
        if slots is not None and not any(f.slot in slots for f in read(item.text)):
            continue
        decision = _decide(new_frames, item, float(similarity))
        if decision is not None:
            decisions.append(decision)
    return decisions


def _decide(new_frames: Sequence[Frame], old: Item, similarity: float) -> Decision | None:
    old_frames = read(old.text)
    for new in new_frames:
        for negated in new.negates:
            decision = _negation(new, negated, old, old_frames, similarity)
            if decision:
                return decision
        for prior in old_frames:
            if prior.slot is None or new.slot is None or new.slot != prior.slot:
                continue
            if new.adds or not _holders_match(new.holder, prior.holder) or _same_value(new.value, prior.value):
                continue
            if new.slot.startswith("attr:") and similarity < ATTRIBUTE_MIN_SIMILARITY:
                continue
            return Decision(old.id, "same-slot", f"same {new.slot!r} for {new.holder}: {prior.value!r} -> "
                            f"{new.value!r}", similarity)
    return None


def _negation(new: Frame, negated: str, old: Item, old_frames: Sequence[Frame], similarity: float) -> Decision | None:
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
    # Word overlap: an old fact we cannot frame ("Drinks coffee every morning") that holds every
    # content word of what the new one ends ("Quit coffee", "Switched from coffee to tea"). A move
    # "from Nairobi" ends where someone lived, not that they grew up there: only a switched-from
    # choice ends an unframed fact.
    if any(f.slot is None for f in old_frames) or (new.slot is not None and (
            old_frames or not new.slot.startswith("choice:"))):
        return None
    words = content_words(negated)
    if (words and words <= content_words(old.text) and similarity >= NEGATION_MIN_SIMILARITY
            and _holders_match(new.holder, sentence_holder(old.text))):
        if new.slot is not None:
            return Decision(old.id, "replaced", f"{negated!r} is replaced by {new.value!r}", similarity)
        return Decision(old.id, "negation", f"says {negated!r} no longer holds", similarity)
    return None


# -- wiring into Memory ----------------------------------------------------------------------
def supersede_on_write(mem: Memory, item: Item, vector: np.ndarray | None = None) -> dict[str, str]:
    """Old item id -> `item.id` for every current fact of the subject that `item` supersedes.

    `item` written alone: a batch of one (see `Batch`). Only kind 'fact' items without a key.
    """
    return Batch(mem.store, mem.embedder, [item], {item.id: vector} if vector is not None else {}).facts(item)


class Batch:
    """Supersession for items written together, decided as if each were written in turn.

    Only a fact with a frame or a negation is checked. Its candidates: the NEIGHBOURS nearest
    facts from recall's vector search (`engram.core.vectors.scores`; below the ANN crossover a
    batch shares one product per 64 facts), plus the top 50 keyword hits on its probe terms (a
    named holder's whole name; for the user's own facts the slot's words and negated values,
    which similarity alone misses: "Lives in Berlin" and "Moved to Porto" are far apart for
    MiniLM), plus every fact written earlier in the batch; only current, unkeyed facts. So the
    work per write is bounded by those counts, not by the subject's size. The store is read
    once, before the batch changes it: one vector search per fact, one keyword search per
    distinct set of probe terms, one fetch of every candidate. A fact closed earlier in the batch is no longer
    current for later ones, and a duplicate is not written, so it closes nothing. Where this can
    differ from `remember` one by one is the cut-off of the top hits: an earlier fact of the batch
    that shares a slot is always a candidate, where a sequential write sees it only if it ranks in
    the top NEIGHBOURS / top 50 keyword hits, and the store's hits are taken without the batch's
    own facts competing (on 1,000 synthetic bench facts, 2 outcomes of 1,000 differed in an empty
    subject and 9 in a subject of 10,000; the batch closed 2-3 facts more).

    Use: for each item in order, `facts(item)` (or `keyed(item)`), then `add(item, closed ids)`.
    """

    def __init__(self, store: Store, embedder: Embedder | None, check: Sequence[Item],
                 vectors: Mapping[str, np.ndarray]) -> None:
        self.store = store
        self._embedder = embedder
        self._vectors = dict(vectors)
        self._written: list[Item] = []
        self._position: dict[str, int] = {}
        self._facts: dict[str, list[int]] = {}  # subject -> positions of its unkeyed facts
        self._by_slot: dict[tuple[str, str], list[int]] = {}  # (subject, slot) -> positions of those facts
        self._closed: dict[str, int] = {}  # old id -> position of the batch item that closed it
        self._duplicate: dict[str, bool] = {}
        self._found: dict[str, list[tuple[Item, float]]] = {}
        checked = [it for it in check if it.kind == FACT and it.key is None and read(it.text)]
        for subject in dict.fromkeys(it.subject for it in checked):
            self._look_up(subject, [it for it in checked if it.subject == subject])

    # -- reading the store once -----------------------------------------------------------
    def _look_up(self, subject: str, items: list[Item]) -> None:
        """Each new fact's candidates in the store as it is before the batch, with cosines."""
        if self._embedder is not None and isinstance(self.store, SearchesVectors):
            return self._look_up_in_store(subject, items, self.store)
        ids, matrix = self._subject_vectors(subject, items)
        rows = positions(ids)  # recall's id -> row map, cached with the store's id list
        near = self._neighbours(subject, ids, matrix, items)
        hits = self._keyword_hits(subject, items)
        wanted = {it.id: list(dict.fromkeys(near.get(it.id, []) + hits[it.id])) for it in items}
        current = self._current_facts(subject, wanted)
        for item in items:
            self._found[item.id] = list(zip(current[item.id], self._cosines(matrix, rows, current[item.id], item)))

    def _look_up_in_store(self, subject: str, items: list[Item], finder: SearchesVectors) -> None:
        """`_look_up` on a store that searches its vectors itself (PostgreSQL + pgvector): one
        nearest query per fact brings back its NEIGHBOURS nearest (cosine, then write order, as
        the exact scan ranks them) and the cosines of its keyword hits; no matrix leaves the store."""
        assert self._embedder is not None  # checked by the caller
        model = self._embedder.identity
        hits = self._keyword_hits(subject, items)
        missing = [it for it in items if it.id not in self._vectors]
        if missing and finder.vector_ids(subject, model):
            self._vectors.update(zip((it.id for it in missing), self._embedder.embed([it.text for it in missing])))
        wanted: dict[str, list[str]] = {}
        cosines: dict[str, Mapping[str, float]] = {}
        for item in items:
            vector = self._vectors.get(item.id)
            answer = None if vector is None else finder.nearest(
                subject, model, np.asarray(vector, dtype=np.float32), NEIGHBOURS, hits[item.id])
            cosines[item.id] = answer.cosines if answer is not None else {}
            wanted[item.id] = list(dict.fromkeys([*(answer.nearest if answer is not None else ()), *hits[item.id]]))
        for item_id, found in self._current_facts(subject, wanted).items():
            self._found[item_id] = [(old, cosines[item_id].get(old.id, 0.0)) for old in found]

    def _current_facts(self, subject: str, wanted: Mapping[str, list[str]]) -> dict[str, list[Item]]:
        """New fact id -> its wanted candidates that are current unkeyed facts of the subject (one fetch)."""
        fetched = {it.id: it for it in self.store.get(list(dict.fromkeys(i for w in wanted.values() for i in w)))
                   if it.subject == subject and it.kind == FACT and it.key is None and it.current}
        return {new: [fetched[i] for i in ids if i in fetched] for new, ids in wanted.items()}

    def _subject_vectors(self, subject: str, items: list[Item]) -> tuple[Sequence[str], np.ndarray]:
        """The subject's stored vectors; new facts without a vector are embedded (one call)."""
        if self._embedder is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        ids, matrix = self.store.vectors(subject, self._embedder.identity)
        missing = [it for it in items if it.id not in self._vectors]
        if ids and missing:
            self._vectors.update(zip((it.id for it in missing), self._embedder.embed([it.text for it in missing])))
        return ids, matrix

    def _neighbours(self, subject: str, ids: Sequence[str], matrix: np.ndarray,
                    items: list[Item]) -> dict[str, list[str]]:
        """The NEIGHBOURS nearest stored vectors of each new fact, from recall's vector search
        (`engram.core.vectors.scores`: an exact scan below the ANN crossover, the subject's ANN
        index above it). Below the crossover a batch of facts shares one product per 64 facts."""
        if not ids or self._embedder is None:
            return {}
        near: dict[str, list[str]] = {}
        if len(items) == 1 or len(ids) > ann.EXACT_MAX_ITEMS:
            for item in items:
                vector = np.asarray(self._vectors[item.id], dtype=np.float32)
                scores = nearest.scores(self.store, subject, self._embedder.identity, ids, matrix, vector, NEIGHBOURS)
                found = np.sort(scores.nearest(NEIGHBOURS))  # row order first: ties stay in write order
                near[item.id] = [ids[i] for i in found[top_stable(scores.at(found), NEIGHBOURS)]]
            return near
        for start in range(0, len(items), 64):  # bounds the block of cosines at 64 x subject size
            block = items[start : start + 64]
            queries = np.stack([np.asarray(self._vectors[it.id], dtype=np.float32) for it in block])
            for item, cosines in zip(block, queries @ matrix.T):
                near[item.id] = [ids[i] for i in top_stable(cosines, NEIGHBOURS)]
        return near

    def _keyword_hits(self, subject: str, items: list[Item]) -> dict[str, list[str]]:
        """Keyword hits on each fact's probe terms; facts of one slot share one search."""
        searched: dict[tuple[str, ...], list[str]] = {}
        hits = {}
        for item in items:
            terms = tuple(_probe_terms(item.text))
            if terms not in searched:
                found = self.store.keyword(subject, list(terms), Filter(kinds=(FACT,)), 50)
                searched[terms] = [item_id for item_id, _ in found]
            hits[item.id] = searched[terms]
        return hits

    def _cosines(self, matrix: np.ndarray, rows: Mapping[str, int], found: list[Item], item: Item) -> list[float]:
        """Cosine of `item` with each stored candidate (0.0 without vectors, as for a scan)."""
        if not rows or not found:
            return [0.0] * len(found)
        picked = [rows.get(old.id, -1) for old in found]
        cosines = matrix[[max(r, 0) for r in picked]] @ np.asarray(self._vectors[item.id], dtype=np.float32)
        return [float(c) if r >= 0 else 0.0 for r, c in zip(picked, cosines.tolist())]

    # -- deciding in order ------------------------------------------------------------------
    def facts(self, item: Item) -> dict[str, str]:
        """Old id -> `item.id` for every current fact that `item`, written next, supersedes."""
        if item.id not in self._found:  # not an unkeyed fact with a frame: it supersedes nothing
            return {}
        candidates = [(old, s) for old, s in self._found[item.id] if old.id not in self._closed]
        candidates += [(old, self._similarity(old, item)) for old in self._earlier_facts(item)
                       if old.id not in self._closed]
        decisions = detect(item.text, candidates)
        # A duplicate is not inserted, so it closes nothing and was never a candidate.
        if not decisions or self._is_duplicate(item):
            return {}
        return {d.old_id: item.id for d in decisions
                if d.old_id not in self._position or not self._is_duplicate(self._written[self._position[d.old_id]])}

    def keyed(self, item: Item) -> Item | None:
        """The current item with `item`'s subject, kind and key, as of `item`'s turn in the batch."""
        for old in reversed(self._written):
            if ((old.subject, old.kind, old.key) == (item.subject, item.kind, item.key)
                    and old.id not in self._closed and not self._is_duplicate(old)):
                return old
        found = self.store.find(item.subject, Filter(kinds=(item.kind,), key=item.key), limit=1)
        return found[0] if found and found[0].id not in self._closed else None

    def add(self, item: Item, closes: Sequence[str]) -> None:
        """`item` is written next and closes `closes` (ids), so later items see it and not them."""
        position = len(self._written)
        self._position[item.id] = position
        self._written.append(item)
        for old_id in closes:
            self._closed.setdefault(old_id, position)
        if item.kind == FACT and item.key is None:
            self._facts.setdefault(item.subject, []).append(position)
            for slot in dict.fromkeys(f.slot for f in read(item.text) if f.slot):
                self._by_slot.setdefault((item.subject, slot), []).append(position)

    def _earlier_facts(self, item: Item) -> list[Item]:
        """The batch's earlier unkeyed facts that `item` could supersede: all of them for a
        negation, else those sharing one of its slots (`_decide` needs one or the other)."""
        frames = read(item.text)
        if any(f.negates for f in frames):
            positions = self._facts.get(item.subject, [])
        else:
            positions = sorted({p for f in frames if f.slot for p in self._by_slot.get((item.subject, f.slot), [])})
        return [self._written[p] for p in positions]

    def _similarity(self, old: Item, item: Item) -> float:
        a, b = self._vectors.get(old.id), self._vectors.get(item.id)
        return 0.0 if a is None or b is None else float(np.dot(a, b))

    def _is_duplicate(self, item: Item) -> bool:
        """A current item, as of just before `item`'s turn, has its text and kind (so it is not inserted)."""
        if item.id in self._duplicate:
            return self._duplicate[item.id]
        position = self._position.get(item.id, len(self._written))
        key = dedupe_key(item.kind, item.content_hash)

        def current(old_id: str) -> bool:
            return self._closed.get(old_id, position) >= position

        duplicate = key is not None and (
            any(old.subject == item.subject and dedupe_key(old.kind, old.content_hash) == key
                and current(old.id) and not self._is_duplicate(old) for old in self._written[:position])
            or any(current(old.id) for old in self.store.find(
                item.subject, Filter(kinds=(item.kind,), content_hash=item.content_hash), limit=1)))
        self._duplicate[item.id] = duplicate
        return duplicate


def top_stable(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores, highest first, ties in index order (as a stable sort)."""
    if len(scores) > k:
        threshold = scores[np.argpartition(-scores, k - 1)[:k]].min()
        above = np.flatnonzero(scores >= threshold)
    else:
        above = np.arange(len(scores))
    return above[np.argsort(-scores[above], kind="stable")][:k]


def _probe_terms(text: str) -> list[str]:
    """Words that an old fact of the same slot probably shares: the named holder (one term, so
    "bruno chen" must appear whole, not every Bruno's facts), negated values; for the user's own
    facts, slot verbs and purpose words as well. Kept selective: the search costs per match."""
    frames = read(text)
    terms: set[str] = set()
    for frame in frames:
        for negated in frame.negates:
            terms |= content_words(negated)
        if frame.holder not in ("self", "team"):
            terms.add(frame.holder)
            continue
        slot = (frame.slot or "").split(":")[0]
        terms |= set(_SLOT_WORDS.get(slot, ()))
        if frame.slot and ":" in frame.slot:
            terms |= set(frame.slot.split(":", 1)[1].split())
        if frame.slot and frame.slot.startswith("choice:"):
            category = _category(frame.value)
            terms |= set(CATEGORIES.get(category or "", "").split())
    return sorted(t for t in terms if t)


_SLOT_WORDS = {
    "location": ("lives", "live", "living", "based", "moved", "resides", "relocated", "home"),
    "employer": ("works", "work", "joined", "employed", "job", "hired"),
    "role": ("works", "promoted", "title", "role", "position"),
    "choice": ("uses", "use", "using", "switched", "runs", "replaced", "prefers", "prefer"),
    "favourite": ("favourite", "favorite"),
    "age": ("years", "age", "old", "turned"),
    "team": ("team", "department", "group", "squad"),
    "diet": ("vegetarian", "vegan", "pescatarian", "diet"),
    "relationship": ("single", "married", "engaged", "divorced", "widowed"),
    "car": ("drives", "car"),
    "commute": ("commutes", "commute", "office", "work"),
    "count": ("has", "have"),
}
