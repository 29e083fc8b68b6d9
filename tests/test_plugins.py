"""Plugins through package entry points: discovery, the built-ins' declarations, a broken plugin."""

from __future__ import annotations

import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

from engram import embed, llm, plugins
from engram.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def _install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dist: str, entry_points: str, module: str,
             code: str) -> None:
    """A real distribution on sys.path: a module and a `.dist-info` with METADATA and entry_points.txt."""
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(code))
    info = tmp_path / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, module, raising=False)


def test_an_installed_package_adds_an_embedder_and_an_llm(tmp_path, monkeypatch):
    _install(tmp_path, monkeypatch, "engram_toy_plugin", """
        [engram.embedders]
        toyembed = toy_plugin:make_embedder

        [engram.llms]
        toyllm = toy_plugin:make_llm
    """, "toy_plugin", """
        import numpy as np
        from engram.embed.base import Embedder
        from engram.llm.fake import ScriptedLLM

        class Toy(Embedder):
            name = "toy"

            def __init__(self, dim):
                self.dim = dim

            def embed_batch(self, texts):
                return np.ones((len(texts), self.dim), dtype=np.float32)

        def make_embedder(arg):
            return Toy(int(arg or 4))

        def make_llm(model, base_url):
            return ScriptedLLM(rule=lambda request: f"toy {model} says hi")
    """)
    assert "toyembed" in embed.available() and "toyllm" in llm.providers()
    toy = embed.get_embedder("toyembed:8")
    assert toy.identity == "toy:8" and np.allclose(np.linalg.norm(toy.embed(["a", "b"]), axis=1), 1.0)
    reply = llm.get_llm("toyllm:m1").complete("system", [{"role": "user", "content": "hello"}])
    assert reply.text == "toy m1 says hi"


def test_a_broken_plugin_names_its_package_and_entry_point(tmp_path, monkeypatch):
    _install(tmp_path, monkeypatch, "engram_broken_plugin", """
        [engram.embedders]
        brokenembed = broken_plugin:make
    """, "broken_plugin", """
        import no_such_module_anywhere
    """)
    assert "brokenembed" in embed.available()  # listing imports nothing
    with pytest.raises(ConfigError, match=r"brokenembed.*engram_broken_plugin 1\.0.*broken_plugin:make.*ModuleNotFoundError"):
        embed.get_embedder("brokenembed")
    embed.get_embedder("hashing:16")  # the others still load


def test_a_plugin_that_is_not_callable_is_refused(tmp_path, monkeypatch):
    _install(tmp_path, monkeypatch, "engram_odd_plugin", """
        [engram.llms]
        oddllm = odd_plugin:NOT_A_FACTORY
    """, "odd_plugin", """
        NOT_A_FACTORY = 42
    """)
    with pytest.raises(ConfigError, match="oddllm.*not a factory"):
        llm.get_llm("oddllm")


def test_the_builtins_are_declared_in_pyproject_exactly_as_in_code():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert {group: declared[group] for group in plugins.BUILTIN} == plugins.BUILTIN


def test_builtins_load_through_the_same_path():
    assert {"minilm", "hashing", "openai"} <= set(embed.available())
    assert {"anthropic", "openai", "scripted"} <= set(llm.providers())
    assert embed.get_embedder("hashing:32").dim == 32
    assert llm.get_llm("scripted:openai") is not None
