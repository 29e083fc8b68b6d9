"""The memory-augmented agent: tool schemas and handlers, prompt assembly, MemoryAgent, extraction.

    from engram.agent import MemoryAgent, assemble, tools_for
"""

from __future__ import annotations

from engram.agent.agent import MemoryAgent, TurnReport
from engram.agent.extract import Extraction, extract_facts
from engram.agent.prompt import Context, Entry, assemble
from engram.agent.tools import MemoryTools, ToolSpec, tools_for

__all__ = [
    "Context",
    "Entry",
    "Extraction",
    "MemoryAgent",
    "MemoryTools",
    "ToolSpec",
    "TurnReport",
    "assemble",
    "extract_facts",
    "tools_for",
]
