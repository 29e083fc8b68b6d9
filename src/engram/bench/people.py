"""Synthetic one-sentence facts about many people, with questions that name the person.

    from engram.bench.people import generate
    facts = generate(10_000, people=800, seed=1)             # zero true updates
    facts = generate(1_000, people=200, updates=100, seed=2)  # plus 100 true updates
    [(f.text, f.questions[0]) for f in facts[:2]]
    # [('Bruno Chen uses Emacs as a code editor.', 'What text editor does Bruno Chen prefer?'), ...]

Full names come from first- and last-name lists, so many people share a first name ("Bruno
Chen", "Bruno Sharma": two people). Each attribute (`ATTRIBUTES`) has several phrasings and
several questions; it is *single-valued* (where someone lives, their employer, their editor)
or *multi-valued* (languages being learned, planned trips, allergies, hobbies). Without
updates every (person, attribute) pair is stated at most once, so a store of these facts has
nothing to supersede. With `updates=n`, n extra facts each change a single-valued attribute
stated earlier ("Bruno Chen moved to Lisbon." after "Bruno Chen lives in Oslo."); such a fact's
`updates` is the index of the fact it replaces. Deterministic for a given seed.

Used by the supersession precision test and `benchmarks/supersede_eval.py --people`, and by
recall measurements (questions paraphrase the fact and name the person).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

__all__ = ["ATTRIBUTES", "Attribute", "PersonFact", "generate", "names"]

FIRST = ("Bruno Hiro Kofi Omar Aisha Lena Mateo Priya Sven Yuki Amara Diego Elif Farah Grace Hana Ivan Jonas "
         "Keiko Liam Maya Nadia Oskar Paula Quentin Rosa Sami Tara Umar Vera Wei Ximena Yara Zane Ada Bilal "
         "Chloe Dmitri Esther Felix Gita Hugo Ines Jamal Kira Luca Mina Nico Olga Pablo").split()
LAST = ("Chen Sharma Haddad Tanaka Silva Okafor Novak Garcia Kowalski Nguyen Rossi Schmidt Petrov Mensah "
        "Larsen Dubois Yilmaz Costa Ivanova Kim Patel Moreau Jensen Santos Fischer Ali Tran Popescu Berg "
        "Hoffmann Nakamura Osei Ruiz Lindqvist Weber Murphy Abe Castro Horvat Bianchi").split()


@dataclass(frozen=True)
class Attribute:
    """One thing a person can have: phrasings and questions use `{name}` and `{value}`
    (`update_phrasings` may also use `{old}`); `single` says whether a new value replaces the old."""

    name: str
    single: bool
    values: tuple[str, ...]
    phrasings: tuple[str, ...]
    questions: tuple[str, ...]
    update_phrasings: tuple[str, ...] = ()


def _a(name: str, single: bool, values: str, phrasings: tuple[str, ...], questions: tuple[str, ...],
       updates: tuple[str, ...] = ()) -> Attribute:
    return Attribute(name, single, tuple(v.strip() for v in values.split(",")), phrasings, questions, updates)


CITIES = ("Oslo, Lisbon, Nairobi, Osaka, Lima, Toronto, Krakow, Accra, Hanoi, Porto, Munich, Seoul, Dublin, "
          "Austin, Cairo, Bogota, Tallinn, Perth, Valencia, Montreal")
COUNTRIES = ("Canada, Kenya, Japan, Peru, Norway, Vietnam, Morocco, Chile, Iceland, Greece, Portugal, Mexico, "
             "India, Ghana, Scotland, Argentina, Egypt, Thailand, Finland, Brazil")
LANGUAGES = ("Swahili, Finnish, Hindi, Japanese, Portuguese, Korean, Arabic, Turkish, Dutch, Polish, Greek, "
             "Italian, Mandarin, Spanish, German, French, Norwegian, Vietnamese, Hungarian, Czech")

ATTRIBUTES: tuple[Attribute, ...] = (
    # -- single-valued: a new value replaces the old one --------------------------------
    _a("home city", True, CITIES,
       ("{name} lives in {value}.", "{name} is based in {value}.", "{name} resides in {value}."),
       ("Where does {name} live?", "Which city is {name} based in?", "What is {name}'s home city?"),
       ("{name} moved to {value}.", "{name} relocated from {old} to {value}.", "{name} now lives in {value}.")),
    _a("employer", True, "Acme, Globex, Initech, Umbrella Health, Hooli, Stark Logistics, Wayne Foods, Cyberdyne, "
       "Soylent Labs, Tyrell Energy, Vandelay Imports, Pied Piper, Oscorp, Aperture Science, Massive Dynamic",
       ("{name} works at {value}.", "{name} is employed by {value}.", "{name} works for {value}."),
       ("Where does {name} work?", "Which company employs {name}?", "Who is {name}'s employer?"),
       ("{name} left {old} and joined {value}.", "{name} started a new job at {value}.",
        "{name} now works at {value}.")),
    _a("job title", True, "nurse, data engineer, architect, chef, pilot, accountant, teacher, pharmacist, "
       "product manager, electrician, journalist, dentist, translator, carpenter, lawyer",
       ("{name} works as a {value}.", "{name}'s job title is {value}.", "{name} is employed as a {value}."),
       ("What does {name} do for a living?", "What is {name}'s job?", "What is {name}'s profession?"),
       ("{name} was promoted to {value}.", "{name} now works as a {value}.")),
    _a("code editor", True, "Emacs, Vim, VS Code, Neovim, Sublime Text, IntelliJ, PyCharm, Zed",
       ("{name} uses {value} as a code editor.", "{name} writes code in {value}.",
        "{name} prefers {value} for editing code."),
       ("What text editor does {name} prefer?", "Which code editor does {name} use?",
        "What does {name} write code in?"),
       ("{name} switched from {old} to {value} for editing code.", "{name} now prefers {value} for editing code.")),
    _a("favourite colour", True, "teal, crimson, ochre, navy, lilac, emerald, amber, charcoal, coral, indigo",
       ("{name}'s favourite colour is {value}.", "{name}'s favorite color is {value}."),
       ("What is {name}'s favourite colour?", "Which colour does {name} like best?"),
       ("{name}'s favourite colour is now {value}.",)),
    _a("morning drink", True, "coffee, green tea, black tea, matcha, hot chocolate, espresso",
       ("{name} drinks {value} every morning.", "{name} starts the day with {value}."),
       ("What does {name} drink in the morning?", "How does {name} start the day?"),
       ("{name} switched from {old} to {value} in the mornings.",)),
    _a("diet", True, "vegetarian, vegan, pescatarian, keto, halal, kosher",
       ("{name} is {value}.", "{name} follows a {value} diet."),
       ("What diet does {name} follow?", "Does {name} have any dietary rules?"),
       ("{name} is no longer {old}; {name} is {value} now.",)),
    _a("car", True, "Toyota Corolla, Tesla Model 3, Volvo XC40, Honda Civic, Ford Focus, Kia Niro, VW Golf",
       ("{name} drives a {value}.", "{name}'s car is a {value}."),
       ("What car does {name} drive?", "What kind of car does {name} have?"),
       ("{name} sold the {old} and now drives a {value}.", "{name} now drives a {value}.")),
    _a("commute", True, "bike, bus, train, tram, car, ferry, scooter",
       ("{name} commutes to work by {value}.", "{name} gets to the office by {value}."),
       ("How does {name} get to work?", "How does {name} commute?"),
       ("{name} now commutes to work by {value}.",)),
    _a("phone", True, "iPhone 15, Pixel 8, Galaxy S24, Fairphone 5, OnePlus 12",
       ("{name} uses a {value} as a phone.", "{name}'s phone is a {value}."),
       ("What phone does {name} use?", "Which phone does {name} have?"),
       ("{name} switched to a {value}.",)),
    _a("team", True, "payments, search, infrastructure, billing, onboarding, mobile, data platform, security",
       ("{name} is on the {value} team.", "{name} belongs to the {value} team."),
       ("Which team is {name} on?", "What team does {name} belong to?"),
       ("{name} moved to the {value} team.",)),
    _a("hometown", True, CITIES,
       ("{name} grew up in {value}.", "{name} was raised in {value}."),
       ("Where did {name} grow up?", "What is {name}'s hometown?")),
    _a("birthday", True, "March 3, June 14, September 9, January 21, July 30, November 2, April 18",
       ("{name}'s birthday is on {value}.", "{name} was born on {value}."),
       ("When is {name}'s birthday?", "When was {name} born?")),
    # -- multi-valued: values accumulate, none replaces another ----------------------------
    _a("language being learned", False, LANGUAGES,
       ("{name} is learning {value}.", "{name} is taking {value} lessons.", "{name} studies {value} in the evenings."),
       ("Which language is {name} learning?", "What language does {name} study?")),
    _a("language spoken", False, LANGUAGES,
       ("{name} speaks {value} fluently.", "{name} is fluent in {value}."),
       ("Which languages does {name} speak?", "What is {name} fluent in?")),
    _a("planned trip", False, COUNTRIES,
       ("{name} is planning a trip to {value} next spring.", "{name} wants to visit {value} this year.",
        "{name} has booked a holiday in {value}."),
       ("Where is {name} travelling next?", "Which country does {name} plan to visit?")),
    _a("country visited", False, COUNTRIES,
       ("{name} has been to {value}.", "{name} visited {value} a few years ago."),
       ("Which countries has {name} visited?", "Has {name} been abroad?")),
    _a("allergy", False, "gluten, peanuts, shellfish, pollen, cats, penicillin, dairy, eggs, latex, bee stings",
       ("{name} is allergic to {value}.", "{name} has an allergy to {value}.",
        "{name} cannot have {value} because of an allergy."),
       ("What is {name} allergic to?", "Does {name} have any allergies?")),
    _a("hobby", False, "pottery, rock climbing, birdwatching, chess, sailing, knitting, baking, photography, "
       "gardening, salsa dancing",
       ("{name} enjoys {value} in their free time.", "One of {name}'s hobbies is {value}.",
        "{name} spends weekends on {value}."),
       ("What does {name} do for fun?", "What are {name}'s hobbies?")),
    _a("sport", False, "tennis, football, badminton, volleyball, cricket, squash, basketball, rugby",
       ("{name} plays {value} on weekends.", "{name} is in a {value} club."),
       ("Which sport does {name} play?", "Does {name} play any sport?")),
    _a("instrument", False, "piano, violin, guitar, cello, drums, flute, trumpet, ukulele",
       ("{name} plays the {value}.", "{name} is learning to play the {value}."),
       ("Which instrument does {name} play?", "Does {name} play music?")),
    _a("pet", False, "Biscuit, Luna, Pepper, Mochi, Rex, Ziggy, Olive, Nemo",
       ("{name} has a dog named {value}.", "{name} has a cat called {value}."),
       ("What is the name of {name}'s pet?", "Does {name} have a pet?")),
    _a("favourite cuisine", False, "Thai, Ethiopian, Lebanese, Mexican, Korean, Georgian, Peruvian, Sicilian",
       ("{name} loves {value} food.", "{name} enjoys eating {value} food."),
       ("What food does {name} like?", "Which cuisine does {name} enjoy?")),
    _a("book being read", False, "Dune, Middlemarch, The Hobbit, Beloved, Solaris, Emma, Ulysses, Kindred",
       ("{name} is reading {value}.", "{name} is halfway through {value}."),
       ("What book is {name} reading?", "What is {name} reading at the moment?")),
    _a("course", False, "statistics, woodworking, first aid, French cooking, astronomy, public speaking",
       ("{name} signed up for a {value} course.", "{name} is taking a course on {value}."),
       ("Which course is {name} taking?", "What is {name} studying?")),
    _a("volunteering", False, "a food bank, an animal shelter, a library, a hospice, a youth club",
       ("{name} volunteers at {value}.", "{name} helps out at {value} on Saturdays."),
       ("Where does {name} volunteer?", "Does {name} do any volunteering?")),
)


@dataclass(frozen=True)
class PersonFact:
    """One generated fact: who, which attribute, the value, the sentence and questions answering it.

    `updates` is the index (in the returned list) of the fact this one replaces, or None."""

    person: str
    attribute: str
    value: str
    text: str
    questions: tuple[str, ...]
    single: bool
    updates: int | None = None


def names(count: int, seed: int = 0) -> list[str]:
    """`count` distinct full names ("Bruno Chen"), shuffled; at most len(FIRST) * len(LAST)."""
    every = [f"{first} {last}" for first in FIRST for last in LAST]
    if not 0 < count <= len(every):
        raise ValueError(f"count must be from 1 to {len(every)}, not {count}")
    random.Random(seed).shuffle(every)
    return every[:count]


def generate(count: int, *, people: int = 800, updates: int = 0, seed: int = 0) -> list[PersonFact]:
    """`count` facts, each a new (person, attribute) pair, about `people` people; then `updates`
    true updates of single-valued attributes (placed after the fact they replace, in random order).

    Raises ValueError when `count` exceeds people x attributes or `updates` exceeds the
    updatable facts generated."""
    rng = random.Random(seed)
    who = names(people, seed)
    pairs = [(person, attribute) for person in who for attribute in ATTRIBUTES]
    if not 0 <= count <= len(pairs):
        raise ValueError(f"count must be from 0 to {len(pairs)} ({people} people x {len(ATTRIBUTES)} attributes)")
    chosen = rng.sample(pairs, count)
    facts = [_fact(rng, person, attribute) for person, attribute in chosen]
    updatable = [i for i, (_, attribute) in enumerate(chosen) if attribute.update_phrasings]
    if not 0 <= updates <= len(updatable):
        raise ValueError(f"updates must be from 0 to {len(updatable)} (single-valued facts generated)")
    placed: list[tuple[float, PersonFact, int | None]] = [(float(i), f, None) for i, f in enumerate(facts)]
    for old_index in rng.sample(updatable, updates):
        old = facts[old_index]
        attribute = next(a for a in ATTRIBUTES if a.name == old.attribute)
        value = rng.choice([v for v in attribute.values if v != old.value])
        text = rng.choice(attribute.update_phrasings).format(name=old.person, value=value, old=old.value)
        new = PersonFact(old.person, old.attribute, value, text, _questions(attribute, old.person), True)
        placed.append((rng.uniform(old_index + 0.01, count), new, old_index))
    placed.sort(key=lambda entry: entry[0])
    where = {int(key): position for position, (key, _, replaces) in enumerate(placed) if replaces is None}
    return [fact if replaces is None else dataclasses.replace(fact, updates=where[replaces])
            for _, fact, replaces in placed]


def _fact(rng: random.Random, person: str, attribute: Attribute) -> PersonFact:
    value = rng.choice(attribute.values)
    text = rng.choice(attribute.phrasings).format(name=person, value=value)
    return PersonFact(person, attribute.name, value, text, _questions(attribute, person), attribute.single)


def _questions(attribute: Attribute, person: str) -> tuple[str, ...]:
    return tuple(q.format(name=person) for q in attribute.questions)
