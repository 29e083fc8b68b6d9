"""What a question asks about, without how it asks (`topic`), and whose words it asks for (`speaker`).

A question put to a memory often wraps its topic in a request: a lead ("Can you walk me
through ..."), the shape of the answer ("the order in which I brought up ...", "a comprehensive
summary of ..."), where it was said ("... across our conversations") and how to answer
("Mention only five items."). Those words are about the answer, not about any memory: searched,
they dilute the query's embedding and match memories that merely say "order" or "summary".
`topic` takes them out, so recall searches for what is asked about; the cues that read the whole
question (its tense, its dates, "when") still read it whole.

A question can also say who said what it asks for: "What profession did I mention I work in?"
asks for the user's own words, "How did you recommend structuring my week?" for the assistant's
(`speaker`). Asking what would be said ("What would you suggest?") names no one: it asks for
advice now, not for words said before. English only.
"""

from __future__ import annotations

import re

_YOU = r"(?:can|could|would|will)\s+you\s+"
# A request put to the assistant: "can you", "could you please", "please would you".
_MODAL = rf"(?:please\s+)?{_YOU}(?:please\s+)?"
# Verbs that ask when they lead a query: "Tell me where I work.", "Show me an example of ...".
ASKING_VERBS = ("tell", "show", "give", "remind", "name", "list", "explain", "describe")
# An imperative lead ("tell me", "can you show us", "please remind me about"): what follows is the
# question (`engram.core.ranking.question` reads its shape without it). It is searched all the same:
# `topic` takes a lead out only when it asks the assistant (`_MODAL`), as a bare "Tell me about our
# internal CLI." lost its answer on the robustness suite when searched without its lead.
ASKING = re.compile(rf"\W*(?:please\s+)?(?:{_YOU})?(?:please\s+)?"
                    rf"(?:{'|'.join(ASKING_VERBS)})\s+(?:me|us)\b(?:\s+about\b)?", re.IGNORECASE)
_COUNT = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)"
_TALKS = r"(?:conversations?|discussions?|chats?|sessions?|exchanges?)"
_FRAMING = re.compile("|".join([
    # a request's lead: "Can you list", "Could you please give me", "Would you walk me through"
    rf"^\W*{_MODAL}"
    r"(?:(?:tell|show|give|remind|walk)\s+(?:me|us)(?:\s+(?:about|through))?"
    r"|list|name|summari[sz]e|recap|outline|describe|provide)\b",
    # how to answer: "Mention ONLY and ONLY five items.", "in three sentences", "in bullet points"
    rf"\b(?:mention|list|name|give|include)\s+only(?:\s+and\s+only)?\s+{_COUNT}\s+(?:items?|things?|points?|events?)\b\.?",
    rf"\bin\s+(?:{_COUNT}\s+)?(?:sentences?|bullet\s+points?|bullets)\b",
    # where it was said: "across our conversations", "throughout all of our previous sessions"
    rf"\b(?:across|throughout|during|over|in)\s+(?:all\s+)?(?:of\s+)?our\s+(?:previous\s+|past\s+|earlier\s+)?{_TALKS}\b",
    # the answer's shape: "the order in which I brought up", "in chronological order", "a brief summary of"
    r"\b(?:the\s+)?order\s+in\s+which\s+(?:i|we)\s+(?:brought\s+up|mentioned|discussed|raised|talked\s+about)\b",
    r"\bin\s+(?:chronological\s+)?order\b",
    r"\b(?:an?\s+)?(?:comprehensive\s+|brief\s+|short\s+|quick\s+|detailed\s+|overall\s+)?(?:summary|overview|recap)\s+of\b",
    r"\b(?:the\s+)?(?:different|various|key)\s+aspects\s+of\b",
]), re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_SPACE = re.compile(r"\s+")
_DANGLING = re.compile(r"[\s,;:]+([?.!])|\s+(?=[,;:])")  # "deployment , ?" -> "deployment?"
#: The fewest words a topic keeps; with fewer, the question is searched whole.
MIN_WORDS = 2


def topic(query: str) -> str:
    """`query` without its request framing ("Can you list the order in which I brought up
    different aspects of my app's deployment across our conversations?" -> "my app's
    deployment?"); the query itself when it has none, or when too little would be left."""
    rest = _FRAMING.sub(" ", query)
    if rest == query:
        return query
    rest = _DANGLING.sub(r"\1", _SPACE.sub(" ", rest)).strip(" ,;")
    return rest if len(_WORD.findall(rest)) >= MIN_WORDS else query


# Words said before, asked about: "did I mention", "have you ever suggested", "the order in which I brought up".
_SAID_BEFORE = r"\b(?:(?:did|have|had)\s+{who}\s+(?:\w+\s+)?|(?:which|that|when|where)\s+{who}\s+(?:first\s+)?)"
# What the user said: "did I mention", "have I ever said", "did I tell you", "which I brought up".
_USER_SAID = re.compile(_SAID_BEFORE.format(who="i") + r"(?:say|said|mention(?:ed)?|tell|told|ask(?:ed)?|"
                        r"bring\s+up|brought\s+up)\b", re.IGNORECASE)
# What the assistant said: "did you recommend", "had you suggested", "what did you tell me", "that you proposed".
_ASSISTANT_SAID = re.compile(_SAID_BEFORE.format(who="you") + r"(?:recommend(?:ed)?|suggest(?:ed)?|advise[d]?|"
                             r"propose[d]?|say|said|tell|told|mention(?:ed)?|explain(?:ed)?|outline[d]?|give|gave)\b",
                             re.IGNORECASE)


def speaker(query: str) -> str | None:
    """"user" when the question asks what the user said before ("What did I mention about ...?"),
    "assistant" when it asks what the assistant said ("What did you recommend for ...?"), else
    None (both, or neither: "What would you suggest?" asks for advice, not for earlier words)."""
    user, assistant = bool(_USER_SAID.search(query)), bool(_ASSISTANT_SAID.search(query))
    return "user" if user and not assistant else "assistant" if assistant and not user else None
