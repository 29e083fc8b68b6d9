"""Plugins: embedders and LLM providers found through package entry points.

A third-party package adds one without touching Engram, as the `llm` tool's plugins do, by
declaring an entry point in its own pyproject.toml:

    [project.entry-points."engram.embedders"]
    mine = "my_package.engram_plugin:make_embedder"     # make_embedder(arg: str | None) -> Embedder

    [project.entry-points."engram.llms"]
    mine = "my_package.engram_plugin:make_llm"          # make_llm(model, base_url) -> LLM

After `pip install my-package`, `get_embedder("mine:ARG")` / `get_llm("mine:MODEL")` find it. The
built-ins are declared the same way in Engram's own pyproject.toml; `BUILTIN` below repeats them
for a source checkout whose metadata is older than its code (a test keeps the two equal). A
plugin is imported only when first asked for by name; one that fails to import, or is not
callable, raises `ConfigError` naming the package and the entry point.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar, cast

from engram.errors import ConfigError

EMBEDDERS = "engram.embedders"
LLMS = "engram.llms"

#: The built-in plugins, exactly as pyproject.toml declares them (group -> name -> "module:attr").
BUILTIN: dict[str, dict[str, str]] = {
    EMBEDDERS: {
        "hashing": "engram.embed.builtins:hashing",
        "minilm": "engram.embed.builtins:minilm",
        "openai": "engram.embed.builtins:openai",
    },
    LLMS: {
        "anthropic": "engram.llm.builtins:anthropic",
        "openai": "engram.llm.builtins:openai",
        "scripted": "engram.llm.builtins:scripted",
    },
}

F = TypeVar("F", bound=Callable[..., object])


class Plugins(Generic[F]):
    """The factories of one entry-point group: registered in code, or declared by installed packages."""

    def __init__(self, group: str, what: str) -> None:
        self.group = group
        self.what = what  # "embedder" / "LLM provider", for messages
        self._registered: dict[str, F] = {}
        self._loaded: dict[str, F] = {}

    def register(self, name: str, factory: F, *, replace: bool = False) -> None:
        """Make `factory` available under `name` in this process (a plugin without packaging)."""
        key = name.lower()
        if not replace and key in self.names():
            raise ConfigError(f"{self.what} {key!r} is already registered: pass replace=True to override")
        self._registered[key] = factory

    def names(self) -> list[str]:
        """Every name available, sorted (no plugin is imported to list them)."""
        return sorted({*self._registered, *self._declared()})

    def get(self, name: str) -> F | None:
        """The factory called `name`, importing its plugin on first use; None when there is none."""
        key = name.lower()
        if key in self._registered:
            return self._registered[key]
        if key not in self._loaded:
            point = self._declared().get(key)
            if point is None:
                return None
            self._loaded[key] = self._load(key, point)
        return self._loaded[key]

    def _declared(self) -> dict[str, EntryPoint]:
        """Entry points of the group in installed packages, then the built-ins they do not name."""
        found: dict[str, EntryPoint] = {}
        for point in entry_points(group=self.group):
            key = point.name.lower()
            earlier = found.get(key)
            if earlier is not None and earlier.value != point.value:
                raise ConfigError(
                    f"two installed packages declare the {self.what} {key!r} in entry-point group {self.group!r}:"
                    f" {_origin(earlier)} and {_origin(point)}; uninstall one of them")
            found[key] = point
        for key, value in BUILTIN.get(self.group, {}).items():
            found.setdefault(key, EntryPoint(key, value, self.group))
        return found

    def _load(self, key: str, point: EntryPoint) -> F:
        try:
            module, _, attr = point.value.partition(":")
            factory: object = importlib.import_module(module)
            for part in filter(None, attr.strip().split(".")):
                factory = getattr(factory, part)
        except Exception as exc:  # any failure inside a third-party import is that plugin's fault
            raise ConfigError(
                f"the {self.what} plugin {key!r} ({_origin(point)}) failed to load: {type(exc).__name__}: {exc};"
                f" fix or uninstall that package") from exc
        if not callable(factory):
            raise ConfigError(f"the {self.what} plugin {key!r} ({_origin(point)}) is not a factory function"
                              f" but {type(factory).__name__}")
        return cast(F, factory)  # the group's factory signature: documented, checked when called


def _origin(point: EntryPoint) -> str:
    dist = point.dist
    package = f"package {dist.name} {dist.version}" if dist is not None else "built in"
    return f"{package}, entry point {point.name} = {point.value}"
