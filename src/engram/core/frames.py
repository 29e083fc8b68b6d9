"""Reading an English fact as frames: who it is about, a single-valued slot, its value, and what it
says no longer holds (the parser behind `engram.core.supersede`).

"Lives in Berlin" is (self, location, berlin); "Bruno Chen uses Emacs as a code editor" is
(bruno chen, choice:editor, emacs); "No longer uses npm" negates "npm". The holder is the user,
the team, or a named person (a full name is one entity). Only single-valued slots are read:
where someone lives or works, team, job title, diet, relationship status, car, commute, age, a
favourite X, what is used or preferred for a purpose (or in a known category such as "database"),
a count and attributes of things. Multi-valued predicates (states, activities, likes, visits)
give no frame. Pure functions of the text, cached.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from engram.language.quotes import straighten
from engram.language.stem import stem
from engram.language.stopwords import STOP_WORDS

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
                   "home": "location", "home city": "location", "city": "location",
                   # A street address sits inside a city: "Lives in Leeds" and "My address is 12 Park Row" both hold.
                   "address": "address",
                   "time zone": "timezone", "employer": "employer", "company": "employer", "team": "team",
                   "diet": "diet", "car": "car", "commute": "commute", "phone": "choice:phone",
                   "editor": "choice:editor", "code editor": "choice:editor", "text editor": "choice:editor"}


@dataclass(frozen=True)
class Frame:
    """What a fact says: `holder`'s single-valued `slot` has `value`; `negates` no longer hold.

    `adds`: the value is stated as an addition or under a condition ("too", "sometimes", "when it
    is sunny") with no sign of change, so it sits beside the old value instead of replacing it.
    `ceased`: what it negates ended in a role ("Alan retired"): it ends only a fact whose value it
    is, not every fact that names it."""

    holder: str
    slot: str | None
    value: str
    negates: tuple[str, ...] = ()
    adds: bool = False
    ceased: bool = False



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
#: A person or thing that ceased in a role, said as the clause's last words ("Alan retired; ...", "The band
#: split up, ...", "the shop closed down in May"; not "split up the work"): it ends a fact whose value it is
#: ("My boss is Alan Reeves"), never one that merely mentions it ("Alan lives in Spain": `Frame.ceased`).
_CEASED = re.compile(r"^(?P<obj>.+?) (?:retired|split up|closed down|went (?:bust|under|out of business)|disbanded)"
                     r"(?=\s*(?:$|[.,;:!]|(?:in|on|at|last|this|after|before|because|when|and|so)\b))")
#: A name: capitalised words, not starting with a determiner or pronoun ("Bruno Chen", "Alice").
_NAME = re.compile(r"^(?!(?:The|A|An|My|Our|His|Her|Their|Its|This|That|These|Those|I|We|He|She|They|It)\b)"
                   r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3}$")
#: Where a sentence holds a second statement about the same holder: "; ", "left Acme and joined Globex".
_CLAUSE = re.compile(r"\s*;\s*|,? (?:and|but) (?=(?:then |now |also )?(?:is|are|am|was|lives|moved|relocated|joined|"
                     r"started|works|uses|switched|drives|bought|prefers|eats|took|got|became|went|left|quit|sold|"
                     r"stopped|has|now)\b)")
_VALUE_CUT = re.compile(r",| (?:as|on|in|with|since|for|at|from|during|when|because|and) ")
#: A place and the larger place it lies in ("islington, london", "porto, portugal"): one value, so
#: a later "moved to London" agrees with it. The second part is one to three words and ends the clause.
_PLACE_WITHIN = re.compile(r"^([^,]+?), ((?:(?!(?:and|but|with|since|for|at|from|as|on|in|when|because|which|who|"
                           r"where|now|then)\b)[a-z][\w'-]*)(?: (?!(?:and|but|with|since|for|at|from|as|on|in|when|"
                           r"because|which|who|where|now|then)\b)[a-z][\w'-]*){0,2})\s*(?:[.;,]|$)")
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
    if _ADDITION.search(lowered) and not CHANGE.search(lowered):
        frames = [dataclasses.replace(f, adds=True) for f in frames]
    return frames


#: A value stated beside others: an addition, a condition, a habit that is not exclusive.
_ADDITION = re.compile(r"\b(?:too|also|as well|in addition|additionally|another|sometimes|occasionally|when|whenever|"
                       r"if|unless|on (?:weekends|rainy days|the side)|at weekends|part[- ]time)\b")
#: Words that say a value changed, whatever else the sentence adds (English; also read by
#: engram.core.restated for a conversation's restated values).
CHANGE = re.compile(r"\b(?:now|new|newly|no longer|any ?more|switch(?:ed|ing)?|mov(?:ed|ing)|relocated|chang(?:ed|ing)|"
                    r"replac(?:ed|ing)|migrated|started|joined|left|quit|promoted|became|these days|nowadays|instead|"
                    r"updat(?:ed|ing)|reschedul(?:ed|ing)|postponed|delayed|pushed back|brought forward|"
                    r"extend(?:ed|ing)|shortened|increas(?:ed|ing)|decreas(?:ed|ing)|raised|lowered|reduc(?:ed|ing)|"
                    r"gr(?:ew|own|owing)|dropped|rose|risen|improv(?:ed|ing)|boosted|adjust(?:ed|ing)|revised|"
                    r"reach(?:ed|ing)|up to|down to|went (?:up|down)|bumped|expand(?:ed|ing)|upgraded|downgraded|"
                    r"latest|recently|currently|shift(?:ed|ing))\b")


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
    elif slot == "location" and (category_of(_cut(obj)) or re.search(r"\d", _cut(obj))):
        slot = "uses"  # "moved to Vim", "moved to Python 3.12": a tool or version, not a place
    if slot in ("employer", "location", "uses") and (_UNIT.match(_cut(obj)) or _CLUB.search(_cut(obj))):
        return None  # "joined the payments team", "moved to the billing department": the team frame says it
    if slot == "employer" and _joined_a_thing(original, obj):
        return None  # "joined the climbing wall": one joins many things; an employer is joined by name
    holder = _holder_of(before, default)
    if slot == "location" and " in " in obj:  # "a house in porto": the place is porto
        obj = obj.rsplit(" in ", 1)[1]
    if slot == "location" and (within := _PLACE_WITHIN.match(obj)):  # "islington, london": one place
        return Frame(holder, slot, f"{bare(within.group(1))}, {within.group(2)}", negates)
    if slot in ("team", "location", "employer", "role", "diet", "relationship", "car", "commute"):
        value = _cut(obj)
        return Frame(holder, slot, value, negates) if value else None
    if slot == "uses":
        return _purpose_frame(holder, obj, qual, negates)
    if slot == "favourite":
        return Frame(holder, f"favourite:{bare(qual or '')}", bare(obj), negates)
    if slot == "age":  # "Age is 29": the word "age" names the slot, not a holder
        return Frame(_holder_of(re.sub(r"(?:^|\b)(?:the |my |her |his )?age$", "", before), default), "age", obj)
    if slot == "count":
        return Frame(holder, f"count:{_head(_cut(qual or ''))}", obj)
    return None


_JOINED = re.compile(r"\bjoin(?:ed|s)\s+(?P<obj>[\w'’-]+)", re.IGNORECASE)


def _joined_a_thing(original: str, obj: str) -> bool:
    """True when `obj` is what the text says was joined ("joined <obj>") and it is not written as
    a name: "joined the climbing wall", "joined a running group", not "joined Globex"."""
    first = obj.split()[0] if obj.split() else ""
    for match in _JOINED.finditer(straighten(original)):
        word = match.group("obj")
        if word.lower() == first:
            return not word[:1].isupper() and not any(ch.isdigit() for ch in word)
    return False


def _purpose_frame(holder: str, obj: str, qual: str | None, negates: tuple[str, ...]) -> Frame | None:
    """What is used or preferred *for a purpose* is one choice: "uses X for Y", "prefers X for Y"
    and "switched to X for Y" all fill slot choice:Y; without a purpose, X's known category (or X
    itself) is the slot ("uses Postgres" / "switched to MySQL": choice:database)."""
    if qual is None:
        parts = re.split(r" (?:for|as|on|in)(?: the| a| an| my| our)? ", obj, maxsplit=1)
        obj, qual = parts[0], (parts[1] if len(parts) > 1 else None)
    value = bare(_cut(obj))
    if not value:
        return None
    category = category_of(value)
    purpose = bare(qual) if qual else (category or _head(value))
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
    name = bare(match.group("qual"))
    holder = default
    if "'s " in name:  # "bruno chen's favourite colour": the possessor holds it
        owner, name = name.rsplit("'s ", 1)
        holder = _holder_of(owner, default)
    if not name or len(name.split()) > 4 or name in SELF or name in TEAM or _MANY.search(name):
        return None
    value = bare(match.group("obj"))
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
    ceased = _CEASED.match(norm)
    if ceased:
        return Frame(default, None, "", negates=(ceased.group("obj"),), ceased=True)
    match = _NEGATION.search(norm)
    if not match:
        return None
    rest = _NEGATION.sub(" ", norm[match.end():])
    rest = " ".join(re.sub(r"\b(?:any ?more|using|doing|playing)\b", " ", rest).split())
    return Frame(_holder_of(norm[: match.start()], default), None, "", negates=(rest,)) if rest else None


def sentence_holder(text: str) -> str:
    """Who a sentence is about, read from its start: "self" (no subject, or I / the user), "team",
    or a lower-cased name ("Bruno Chen is ..." -> "bruno chen"). Anything else is "self" too."""
    words = straighten(text).strip().split()
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
    return bare(_VALUE_CUT.split(value, maxsplit=1)[0])


def bare(text: str) -> str:
    text = text.strip().strip(".,;:'\"")
    for det in DETERMINERS:
        if text.startswith(det):
            text = text[len(det):]
    return re.sub(r"\b(?:too|as well|again|instead)$", "", text).strip()


def _head(phrase: str) -> str:
    words = phrase.split()
    return stem(words[-1]) if words else ""


def category_of(value: str) -> str | None:
    for word in value.replace("-", " ").split():
        if word in _CATEGORY_WORDS:
            return _CATEGORY_WORDS[word]
    return None


@functools.lru_cache(maxsize=65536)
def matters(text: str) -> frozenset[str]:
    """What a fact is about, as far as the frames tell: the slots it fills ("location",
    "choice:editor", ...) and the known categories of the things it names ("Sublime Text" and
    "Zed" are both "category:editor"). Empty for most sentences; cached like `read`."""
    slots = {f.slot for f in read(text) if f.slot}
    return frozenset(slots | {f"category:{_CATEGORY_WORDS[name[0].lower()]}" for name in _names(text)
                              if name[0].lower() in _CATEGORY_WORDS})


_TOKEN = re.compile(r"[A-Za-z0-9][\w.+#'-]*")


def _names(text: str) -> list[list[str]]:
    """The names a text writes: runs of words with a capital or a digit ("VS Code", "Pixel 8",
    "Sublime Text", "MySQL"), not a capital that only starts the sentence ("Code reviews ...").
    A category word counts only where it begins a name: "Fira Code" is a font, not the editor."""
    runs: list[list[str]] = []
    current: list[str] = []
    for n, match in enumerate(_TOKEN.finditer(straighten(text))):
        word = match.group(0).rstrip(".'")
        inner = any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() for ch in word)
        if inner or (n > 0 and word[:1].isupper()):
            current.append(word)
            continue
        if current:
            runs.append(current)
        current = []
    if current:
        runs.append(current)
    return runs


def same_matter(a: str, b: str) -> bool:
    """Two facts fill one slot or name things of one known category (`matters`): "I write code in
    Sublime Text" and "Set up Zed, it's my editor now"; "I'm on the payments team" and "Got moved
    to the search team". A hint that the later one answers the earlier one's question."""
    return not matters(a).isdisjoint(matters(b))


@functools.lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning (no stop words), for negation matching. Cached like `read`."""
    words = re.findall(r"[\w@.$-]+", text.lower())
    return frozenset(stem(w.strip(".")) for w in words if w.strip(".") and w not in STOP)


def same_value(a: str, b: str) -> bool:
    """Values agree when one's words contain the other's ("berlin" / "berlin, germany")."""
    wa, wb = set(re.findall(r"[\w@.$-]+", a)), set(re.findall(r"[\w@.$-]+", b))
    return wa <= wb or wb <= wa


def holders_match(a: str, b: str) -> bool:
    """The same holder; the user and their team count as one, a named person only as themself
    (a full name is one entity: "bruno chen" is not "bruno sharma")."""
    return a == b or {a, b} <= {"self", "team"}
