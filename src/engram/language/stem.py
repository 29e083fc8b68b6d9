"""A light English stemmer and the possessive fold."""

from __future__ import annotations

IRREGULAR = {"children": "child", "people": "person", "men": "man", "women": "woman", "feet": "foot",
             "mice": "mouse", "teeth": "tooth", "geese": "goose", "wives": "wife", "knives": "knife"}
SUFFIXES = ("ies", "ing", "ed", "es", "s")


def stem(word: str) -> str:
    """A lower-case word without its plural or verb ending, keeping at least three letters
    ("stories" -> "story", "drinking" -> "drink", "children" -> "child", "bus" -> "bus")."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def name_key(word: str) -> str:
    """A word as names are keyed: lower case, possessive stripped ("Melanie's" -> "melanie")."""
    return word.lower().removesuffix("'s").removesuffix("\u2019s")
