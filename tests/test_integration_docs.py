"""The framework pages' examples run, offline, and print what the pages show.

Each page's ```python blocks run in order in one namespace (a fresh working directory); a block
followed by a ```text block must print exactly that. Pages whose example talks to a model API get
the local wire server through the SDK's own environment variables, scripted with the replies the
page shows; nothing else about the example changes.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import types
from pathlib import Path

import pytest
from wire_servers import API_KEY, Response, WireServer, anthropic_message, openai_completion

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCK = re.compile(r"```python\n(.*?)```(?:\s*```text\n(.*?)```)?", re.S)


def examples(page: str) -> list[tuple[str, str | None]]:
    return [(code, shown) for code, shown in BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))]


def run_page(page: str) -> None:
    blocks = examples(page)
    assert blocks, f"{page} has no python example"
    # A real module, so that type hints in the example resolve (LangGraph reads a TypedDict's).
    module = types.ModuleType("docs_example")
    sys.modules[module.__name__] = module
    try:
        for code, shown in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"docs/{page}", "exec"), module.__dict__)  # the page's own example
            if shown:
                assert out.getvalue() == shown, f"docs/{page} prints something else than it shows"
    finally:
        del sys.modules[module.__name__]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_langgraph_page(workdir):
    run_page("langgraph.md")


def test_langchain_page(workdir):
    run_page("langchain.md")


def test_openai_agents_page(workdir, monkeypatch):
    from agents import set_tracing_disabled

    server = WireServer("openai").start()
    try:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        server.enqueue(Response(200, openai_completion("Noted: your locker is number 7.")),
                       Response(200, openai_completion("Your locker number is 7.")))
        run_page("openai-agents.md")
        assert "My locker number is 7." in str(server.bodies()[-1]["messages"])  # the history was sent
    finally:
        server.stop()
        set_tracing_disabled(True)


def test_anthropic_memory_page(workdir, monkeypatch):
    server = WireServer("anthropic").start()
    try:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        create = {"command": "create", "path": "/memories/preferences.md",
                  "file_text": "# Preferences\n- Prefers aisle seats\n"}
        server.enqueue(Response(200, anthropic_message(tool_calls=({"id": "toolu_1", "name": "memory",
                                                                    "input": create},))),
                       Response(200, anthropic_message("I'll remember that you prefer aisle seats.")))
        run_page("anthropic-memory.md")
        result = server.bodies()[-1]["messages"][-1]["content"][0]
        assert result["type"] == "tool_result" and "created successfully" in str(result["content"])
    finally:
        server.stop()


def test_importing_engram_imports_no_framework():
    import subprocess

    code = ("import sys, engram, engram.integrations; "
            "print(sorted(m for m in ('langgraph', 'agents', 'langchain_core', 'anthropic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module, framework, extra", [
    ("langgraph", "langgraph", "langgraph"), ("openai_agents", "agents", "openai-agents"),
    ("anthropic_memory", "anthropic", "anthropic"), ("langchain", "langchain_core", "langchain")])
def test_a_missing_framework_names_the_extra_to_install(module, framework, extra):
    import subprocess

    code = (f"import sys; sys.modules[{framework!r}] = None\n"
            f"try:\n    import engram.integrations.{module}\n"
            "except ImportError as exc:\n    print(type(exc).__name__, exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("MissingDependency") and f"pip install 'engramdb[{extra}]'" in out.stdout
