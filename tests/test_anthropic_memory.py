"""EngramMemoryTool with the real anthropic SDK: its tool runner against the local Messages server."""

from __future__ import annotations


import anthropic
import pytest
from threads import run_in_threads
from anthropic.lib.tools import BetaAbstractMemoryTool
from wire_servers import ANTHROPIC_MESSAGES, API_KEY, MEMORY_BETA, Response, anthropic_message
from wire_servers import anthropic_server_fixture  # noqa: F401 (provides `anthropic_server`)

from engram.integrations.anthropic_memory import EngramMemoryTool, ToolError
from engram.store import Filter
from engram.types import MEMORY_FILE

SUBJECT = "user:42"


@pytest.fixture
def tool(memory):
    return EngramMemoryTool(memory, subject=SUBJECT)


def call(tool: EngramMemoryTool, **command):
    return tool.call(command)


def run_scripted(server, tool, calls, final="Done."):
    """The SDK's tool runner against the server, which answers with `calls` (one per turn), then `final`.
    Returns the tool_result blocks the runner sent back, in order."""
    server.enqueue(*[Response(200, anthropic_message(tool_calls=({"id": f"toolu_{i}", "name": "memory", "input": c},)))
                     for i, c in enumerate(calls)], Response(200, anthropic_message(final)))
    client = anthropic.Anthropic(base_url=server.base_url, api_key=API_KEY, max_retries=0)
    runner = client.beta.messages.tool_runner(model="claude-test", max_tokens=512, tools=[tool], betas=[MEMORY_BETA],
                                              messages=[{"role": "user", "content": "Remember my preferences."}])
    last = runner.until_done()
    assert last.content[0].text == final
    bodies = server.bodies(ANTHROPIC_MESSAGES)[-len(calls) - 1 :]
    assert bodies[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    return [b["messages"][-1]["content"][0] for b in bodies[1:]]


def text(result) -> str:
    content = result["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def test_it_is_the_sdks_memory_tool(tool):
    assert isinstance(tool, BetaAbstractMemoryTool)
    assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}


def test_the_model_builds_and_edits_its_memory_through_the_tool_runner(anthropic_server, tool, memory):
    results = run_scripted(anthropic_server, tool, [
        {"command": "view", "path": "/memories"},
        {"command": "create", "path": "/memories/prefs.md", "file_text": "# Preferences\n- tea\n"},
        {"command": "str_replace", "path": "/memories/prefs.md", "old_str": "- tea", "new_str": "- green tea"},
        {"command": "insert", "path": "/memories/prefs.md", "insert_line": 1, "insert_text": "- aisle seats\n"},
        {"command": "view", "path": "/memories/prefs.md"},
        {"command": "create", "path": "/memories/work/project.md", "file_text": "Project: payments."},
        {"command": "view", "path": "/memories"},
        {"command": "rename", "old_path": "/memories/work", "new_path": "/memories/job"},
    ])
    assert [r.get("is_error", False) for r in results] == [False] * 8
    assert text(results[0]).endswith("\n0B\t/memories")
    assert text(results[1]) == "File created successfully at: /memories/prefs.md"
    assert "     2\t- green tea" in text(results[2])
    assert text(results[4]) == ("Here's the content of /memories/prefs.md with line numbers:\n"
                                "     1\t# Preferences\n     2\t- aisle seats\n     3\t- green tea\n     4\t")
    assert text(results[6]).splitlines()[1:] == ["58B\t/memories", "40B\t/memories/prefs.md",
                                                 "18B\t/memories/work/", "18B\t/memories/work/project.md"]
    assert text(results[7]) == "Successfully renamed /memories/work to /memories/job"
    assert {p: it.text for p, it in tool.files().items()} == {
        "/memories/prefs.md": "# Preferences\n- aisle seats\n- green tea\n",
        "/memories/job/project.md": "Project: payments."}
    # Every edit kept the old version; the rename links the new path to the old one.
    prefs = memory.admin.current(SUBJECT, MEMORY_FILE, "/memories/prefs.md")
    assert [v.text for v in memory.history(prefs.id)] == ["# Preferences\n- tea\n", "# Preferences\n- green tea\n",
                                                         prefs.text]
    job = memory.admin.current(SUBJECT, MEMORY_FILE, "/memories/job/project.md")
    assert [v.key for v in memory.history(job.id)] == ["/memories/work/project.md", "/memories/job/project.md"]


@pytest.mark.parametrize("path", ["/etc/passwd", "/memories/../etc/passwd", "/memories/a/../../x", "/memoriesX/a",
                                  "memories/a", "/memories/\x00a"])
def test_paths_outside_memories_are_refused(anthropic_server, tool, path):
    [result] = run_scripted(anthropic_server, tool, [{"command": "create", "path": path, "file_text": "x"}])
    assert result["is_error"] is True and ("/memories" in text(result))
    assert tool.files() == {}


def test_a_path_with_dots_that_stays_inside_is_normalised(tool):
    call(tool, command="create", path="/memories/a/../b.md", file_text="x")
    assert list(tool.files()) == ["/memories/b.md"]


def test_a_secret_is_refused_and_the_model_is_told_why(anthropic_server, tool):
    secret = "sk-ant-api03-" + "a1B2c3D4e5" * 6
    [result] = run_scripted(anthropic_server, tool, [{"command": "create", "path": "/memories/keys.md",
                                                     "file_text": f"API key: {secret}"}])
    assert result["is_error"] is True and "looks like a secret" in text(result)
    assert secret not in text(result) and tool.files() == {}


def test_file_contents_are_kept_verbatim_at_any_length(tool):
    content = "".join(f"line {i}\r\n\ttabbed  spaced\n" for i in range(20_000))
    call(tool, command="create", path="/memories/long.txt", file_text=content)
    assert tool.files()["/memories/long.txt"].text == content
    assert call(tool, command="view", path="/memories/long.txt", view_range=[3, 4]) == (
        "Here's the content of /memories/long.txt with line numbers:\n     3\tline 1\r\n     4\t\ttabbed  spaced")


def test_errors_name_what_is_wrong_and_change_nothing(tool):
    call(tool, command="create", path="/memories/a.md", file_text="one\ntwo\none\n")
    for command, message in [
        ({"command": "create", "path": "/memories/a.md", "file_text": "again"}, "already exists"),
        ({"command": "view", "path": "/memories/missing.md"}, "does not exist"),
        ({"command": "str_replace", "path": "/memories/a.md", "old_str": "one", "new_str": "1"},
         "Multiple occurrences of old_str `one` in lines: 1, 3"),
        ({"command": "str_replace", "path": "/memories/a.md", "old_str": "zzz", "new_str": "1"}, "did not appear"),
        ({"command": "insert", "path": "/memories/a.md", "insert_line": 9, "insert_text": "x"}, r"range \[0, 3\]"),
        ({"command": "delete", "path": "/memories"}, "Cannot delete"),
        ({"command": "rename", "old_path": "/memories/nope", "new_path": "/memories/b"}, "does not exist"),
        ({"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/a.md"}, "already exists"),
    ]:
        with pytest.raises(ToolError, match=message):
            tool.call(command)
    assert {p: it.text for p, it in tool.files().items()} == {"/memories/a.md": "one\ntwo\none\n"}


def test_delete_forgets_every_version_of_a_file_or_directory(tool, memory):
    call(tool, command="create", path="/memories/d/one.md", file_text="first draft")
    call(tool, command="str_replace", path="/memories/d/one.md", old_str="first", new_str="second")
    call(tool, command="create", path="/memories/d/deep/two.md", file_text="two")
    call(tool, command="create", path="/memories/keep.md", file_text="keep")
    assert call(tool, command="delete", path="/memories/d") == "Successfully deleted /memories/d"
    assert list(tool.files()) == ["/memories/keep.md"]
    assert memory.matches(SUBJECT, "draft") == []
    assert len(memory.items(SUBJECT, where=Filter(kinds=(MEMORY_FILE,), include_superseded=True))) == 1
    assert tool.clear_all_memory() == "All memory cleared" and tool.files() == {}


def test_recall_finds_the_models_notes(tool, memory):
    call(tool, command="create", path="/memories/diet.md", file_text="The user is allergic to peanuts.")
    hits = memory.recall(SUBJECT, "peanut allergy", k=1)
    assert hits[0].item.key == "/memories/diet.md"


def test_concurrent_inserts_into_one_file_lose_no_line(tool):
    call(tool, command="create", path="/memories/log.md", file_text="")

    def write(n: int) -> None:
        for i in range(5):
            call(tool, command="insert", path="/memories/log.md", insert_line=0, insert_text=f"w{n}-{i}")

    assert run_in_threads(write) == []
    lines = tool.files()["/memories/log.md"].text.splitlines()
    assert sorted(lines) == sorted(f"w{n}-{i}" for n in range(4) for i in range(5))


def test_the_async_tool_runs_under_the_async_runner(anthropic_server, memory):
    import asyncio

    from engram.integrations.anthropic_memory import EngramAsyncMemoryTool

    tool = EngramAsyncMemoryTool(memory, subject=SUBJECT)
    anthropic_server.enqueue(
        Response(200, anthropic_message(tool_calls=({"id": "toolu_a", "name": "memory", "input": {
            "command": "create", "path": "/memories/a.md", "file_text": "async note\n"}},))),
        Response(200, anthropic_message(tool_calls=({"id": "toolu_b", "name": "memory", "input": {
            "command": "view", "path": "/memories/a.md"}},))),
        Response(200, anthropic_message("Done.")))

    async def run():
        client = anthropic.AsyncAnthropic(base_url=anthropic_server.base_url, api_key=API_KEY, max_retries=0)
        runner = client.beta.messages.tool_runner(model="claude-test", max_tokens=512, tools=[tool],
                                                  betas=[MEMORY_BETA], messages=[{"role": "user", "content": "Note."}])
        last = await runner.until_done()
        await client.close()
        return last

    assert asyncio.run(run()).content[0].text == "Done."
    viewed = anthropic_server.bodies(ANTHROPIC_MESSAGES)[-1]["messages"][-1]["content"][0]
    assert text(viewed) == "Here's the content of /memories/a.md with line numbers:\n     1\tasync note\n     2\t"
    assert tool.tool.files()["/memories/a.md"].text == "async note\n"


@pytest.fixture
def unscreened(store_url):
    """The tool over a Memory without the instruction screen: the file model is what these tests
    check, and the screen's verdict on a path or a file of repeated lines is not part of it."""
    from engram.core.memory import Memory

    memory = Memory(store_url, embedder="none", instruction_filter=False)
    yield EngramMemoryTool(memory, subject=SUBJECT)
    memory.close()


def test_a_path_is_a_file_or_a_directory_never_both(unscreened):
    tool = unscreened
    call(tool, command="create", path="/memories/work/project.md", file_text="Project: payments.")
    with pytest.raises(ToolError, match="is a file, not a directory"):
        call(tool, command="create", path="/memories/work/project.md/child.md", file_text="Child.")
    with pytest.raises(ToolError, match="already exists"):
        call(tool, command="create", path="/memories/work", file_text="A file where a directory is.")
    for command in ({"command": "str_replace", "old_str": "a", "new_str": "b"},
                    {"command": "insert", "insert_line": 0, "insert_text": "b"}):
        with pytest.raises(ToolError, match="The path /memories/work is not a file."):
            call(tool, path="/memories/work", **command)
    assert set(tool.files()) == {"/memories/work/project.md"}


def test_a_directory_stays_after_its_last_file_is_deleted(unscreened):
    tool = unscreened
    call(tool, command="create", path="/memories/work/team/project.md", file_text="Project: payments.")
    call(tool, command="delete", path="/memories/work/team/project.md")
    listing = call(tool, command="view", path="/memories").split("\n")
    assert listing[-2:] == ["0B\t/memories/work/", "0B\t/memories/work/team/"]
    call(tool, command="rename", old_path="/memories/work", new_path="/memories/job")
    assert tool.directories() == {"/memories", "/memories/job", "/memories/job/team"}
    call(tool, command="delete", path="/memories/job")
    assert tool.directories() == {"/memories"}


def test_view_refuses_a_file_longer_than_the_sdks_limit(unscreened):
    tool = unscreened
    call(tool, command="create", path="/memories/work/long.md", file_text="line\n" * 999_999)
    with pytest.raises(ToolError, match="exceeds maximum line limit of 999,999 lines"):
        call(tool, command="view", path="/memories/work/long.md")
    call(tool, command="create", path="/memories/work/fits.md", file_text="line\n" * 999_998)
    assert call(tool, command="view", path="/memories/work/fits.md", view_range=[1, 2]).endswith("     2\tline")
