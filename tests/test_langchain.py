"""EngramRetriever and the memory tools with the real langchain-core package."""

from __future__ import annotations

from langchain_core.documents import Document
from langchain_core.messages import ToolMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import BaseTool

from engram.integrations.langchain import EngramRetriever, memory_tools
from engram.verbs import VERBS, json_schema

SUBJECT = "user:42"


def test_the_retriever_returns_recall_as_documents(memory):
    memory.remember(SUBJECT, "Team uses Postgres 16 for all services.", source="chat 1")
    memory.remember(SUBJECT, "Prefers aisle seats on long flights.")
    retriever = EngramRetriever(memory, subject=SUBJECT, k=1)
    assert isinstance(retriever, BaseRetriever)
    [doc] = retriever.invoke("Postgres services")
    assert isinstance(doc, Document) and doc.page_content == "Team uses Postgres 16 for all services."
    assert doc.metadata["source"] == "chat 1" and doc.metadata["kind"] == "fact" and doc.id == doc.metadata["id"]


def test_the_retriever_runs_inside_a_chain(memory):
    memory.remember(SUBJECT, "The standup is at 9:30 every weekday.")
    chain = EngramRetriever(memory, subject=SUBJECT) | RunnableLambda(lambda docs: [d.page_content for d in docs])
    assert chain.invoke("when is the standup?") == ["The standup is at 9:30 every weekday."]


def test_the_tools_are_the_verbs_one_definition(memory):
    tools = memory_tools(memory, subject=SUBJECT)
    assert all(isinstance(t, BaseTool) for t in tools)
    assert [t.name for t in tools] == ["remember", "recall", "forget"]
    for tool in tools:
        assert tool.description == VERBS[tool.name].description
        assert tool.args_schema == json_schema(tool.name, "tool")
    assert [t.name for t in memory_tools(memory, subject=SUBJECT, untrusted_input=True)] == ["recall"]


def test_the_tools_run_as_an_agent_calls_them(memory):
    remember, recall, forget = memory_tools(memory, subject=SUBJECT, source="chat:s1")
    reply = remember.invoke({"name": "remember", "args": {"fact": "Allergic to peanuts and shellfish."},
                             "id": "call_1", "type": "tool_call"})
    assert isinstance(reply, ToolMessage) and reply.content == "saved" and reply.tool_call_id == "call_1"
    assert memory.items(SUBJECT)[0].source == "chat:s1"
    assert "Allergic to peanuts and shellfish." in recall.invoke({"query": "allergies"})
    assert "would be deleted" in forget.invoke({"match": "peanuts"})
    assert forget.invoke({"match": "peanuts", "confirm": True}).startswith("forgot 1 memory")
    assert memory.items(SUBJECT) == []


def test_bad_arguments_come_back_as_a_line_the_model_can_act_on(memory):
    remember, recall, _ = memory_tools(memory, subject=SUBJECT)
    assert remember.invoke({"fact": "my key is sk-ant-api03-" + "a1B2c3D4e5" * 6}).startswith("not saved: looks like a secret")
    assert recall.invoke({"query": ""}).startswith("error:")
    assert remember.invoke({"text": "Uses Vim as the main code editor."}) == "saved"  # the alias models guess
    assert memory.items(SUBJECT)[0].text == "Uses Vim as the main code editor."


def test_a_path_opens_its_own_memory(tmp_path):
    retriever = EngramRetriever(str(tmp_path / "m.db"), subject=SUBJECT)
    retriever.memory.remember(SUBJECT, "Drinks green tea every morning.")
    assert [d.page_content for d in retriever.invoke("tea")] == ["Drinks green tea every morning."]
