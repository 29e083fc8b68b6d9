"""Engram inside the frameworks agents are built on, one module per framework:

    engram.integrations.langgraph          EngramStore, a LangGraph BaseStore     engramdb[langgraph]
    engram.integrations.openai_agents      EngramSession, an OpenAI Agents SDK Session   engramdb[openai-agents]
    engram.integrations.anthropic_memory   EngramMemoryTool (and EngramAsyncMemoryTool), Claude's memory tool   engramdb[anthropic]
    engram.integrations.langchain          EngramRetriever and the memory tools for LangChain   engramdb[langchain]

Each takes an `engram.Memory` (or a database path or URL) first and uses only Memory's public
verbs. Importing `engram` imports none of these frameworks; a module whose framework is missing
raises MissingDependency with the pip command.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engram.core.memory import Memory


def as_memory(db: "Memory | str | os.PathLike[str]") -> "Memory":
    """The Memory given, or a Memory over the database path or URL given."""
    from engram.core.memory import Memory

    return db if isinstance(db, Memory) else Memory(db)
