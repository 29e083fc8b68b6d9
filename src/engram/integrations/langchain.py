"""LangChain: a retriever over recall, and the memory tools (`pip install 'engramdb[langchain]'`).

    retriever = EngramRetriever("memory.db", subject="user:42", k=5)
    retriever.invoke("Which database do we use?")        # [Document(page_content=..., metadata=...)]
    tools = memory_tools("memory.db", subject="user:42")  # remember, recall, forget as LangChain tools
    model.bind_tools(tools)

The tools are Engram's one definition per verb (engram.verbs, through engram.agent.tools): the
same names, descriptions, JSON schemas, validation, handlers and one-line replies the agent, MCP
and REST use; nothing is restated here. An agent that reads untrusted input gets recall only
(`untrusted_input=True`), as everywhere else.
"""

from __future__ import annotations

import os
from typing import Any

from engram import validate
from engram.agent.tools import MemoryTools
from engram.errors import require
from engram.integrations import as_memory

require("langchain_core", "langchain")

from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402 (after the check naming the extra)
from langchain_core.documents import Document  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.tools import BaseTool, StructuredTool  # noqa: E402
from pydantic import ConfigDict  # noqa: E402

from engram.core.memory import Memory  # noqa: E402 (a pydantic field's type is read at run time)

__all__ = ["EngramRetriever", "memory_tools"]


class EngramRetriever(BaseRetriever):
    """A LangChain retriever: the k memories of a subject most relevant to the query (Memory.recall)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Memory
    subject: str
    k: int = 5
    kinds: list[str] | None = None

    def __init__(self, memory: "Memory | str | os.PathLike[str]", *, subject: str, k: int = 5,
                 kinds: list[str] | None = None, **options: Any) -> None:
        # BaseRetriever's typed __init__ knows its own fields only; pydantic takes these as well.
        fields: dict[str, Any] = {"memory": as_memory(memory), "subject": validate.subject(subject),
                                  "k": validate.count(k), "kinds": kinds}
        super().__init__(**fields, **options)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.memory.recall(self.subject, query, k=self.k, kinds=self.kinds)
        return [Document(page_content=h.text, id=h.id, metadata={
            "id": h.id, "score": h.score, "kind": h.item.kind, "source": h.item.source,
            "created_at": h.item.created_at, "subject": h.item.subject}) for h in hits]


def memory_tools(memory: "Memory | str | os.PathLike[str]", *, subject: str, source: str = "",
                 session: str | None = None, untrusted_input: bool = False) -> list[BaseTool]:
    """remember, recall and forget (recall only with `untrusted_input`) as LangChain tools bound to
    one subject; each returns the one-line reply the agent's own tools give."""
    tools = MemoryTools(as_memory(memory), subject, source=source, session=session, untrusted_input=untrusted_input)
    return [_tool(tools, definition) for definition in tools.definitions("anthropic")]


def _tool(tools: MemoryTools, definition: dict[str, Any]) -> BaseTool:
    name = definition["name"]

    def run(**arguments: Any) -> str:
        return tools.handle(name, arguments)

    return StructuredTool.from_function(run, name=name, description=definition["description"],
                                        args_schema=definition["input_schema"])
