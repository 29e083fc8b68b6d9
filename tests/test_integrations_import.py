"""The integrations load their framework only when imported, and say what to install when it is missing.

(Their pages' examples run with every other page's in tests/test_docs.py.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_importing_engram_imports_no_framework():
    code = ("import sys, engram, engram.integrations; "
            "print(sorted(m for m in ('langgraph', 'agents', 'langchain_core', 'anthropic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module, framework, extra", [
    ("langgraph", "langgraph", "langgraph"), ("openai_agents", "agents", "openai-agents"),
    ("anthropic_memory", "anthropic", "anthropic"), ("langchain", "langchain_core", "langchain")])
def test_a_missing_framework_names_the_extra_to_install(module, framework, extra):
    code = (f"import sys; sys.modules[{framework!r}] = None\n"
            f"try:\n    import engram.integrations.{module}\n"
            "except ImportError as exc:\n    print(type(exc).__name__, exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("MissingDependency") and f"pip install 'engramdb[{extra}]'" in out.stdout
