"""Anthropic's memory-tool suite re-pointed at EngramMemoryTool: `BetaLocalFilesystemMemoryTool` and
`BetaAsyncLocalFilesystemMemoryTool` in the test module are bound to Engram's sync and async tools
(the reference's constructor, `base_path=`) over a new store on the backend under test (see
../conftest.py), and `get_directory_snapshot(base_path)`, the suite's look at what is stored, reads
the tool's files from Engram instead of the directory on disk."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engram.core.memory import Memory
from not_applicable import in_class, mark_not_applicable
from engram.integrations.anthropic_memory import ROOT, EngramAsyncMemoryTool, EngramMemoryTool

SUBJECT = "user:memory-tool"


class _StoredPath:
    """A path under /memories as the suite touches `memory_root / name`: bytes read from and
    written to the file Engram keeps there (the reference's memory_root is a directory on disk)."""

    def __init__(self, tool: EngramMemoryTool, path: str) -> None:
        self.tool, self.path = tool, path

    def __truediv__(self, name: str) -> _StoredPath:
        return _StoredPath(self.tool, posixpath.join(self.path, name))

    def is_dir(self) -> bool:
        return self.path in self.tool.directories()

    def read_bytes(self) -> bytes:
        return self.tool.files()[self.path].text.encode("utf-8")

    def write_bytes(self, data: bytes) -> None:
        found = self.tool.files().get(self.path)
        self.tool._make_dirs(posixpath.dirname(self.path))
        self.tool._write(self.path, data.decode("utf-8"), expect=found.id if found else "")


class _AsyncStoredPath(_StoredPath):
    """The async tool's memory_root (an anyio AsyncPath in the reference)."""

    async def is_dir(self) -> bool:  # type: ignore[override]
        return self.path in self.tool.directories()


def _snapshot(tools: dict[str, EngramMemoryTool]) -> Callable[[str], dict[str, str]]:
    def get_directory_snapshot(base_path: str) -> dict[str, str]:
        """Every stored file of the tool made with this base_path, by path relative to it."""
        return {path.lstrip("/"): item.text for path, item in tools[base_path].files().items()}

    return get_directory_snapshot


@pytest.fixture(autouse=True)
def _engram_memory_tool(request: pytest.FixtureRequest, engram_memories: Callable[[], Memory],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    tools: dict[str, EngramMemoryTool] = {}

    class BetaLocalFilesystemMemoryTool(EngramMemoryTool):
        """EngramMemoryTool taking the reference's constructor; base_path names the tool's store."""

        def __init__(self, base_path: str = "./memory") -> None:
            super().__init__(engram_memories(), subject=SUBJECT)
            self.base_path = Path(base_path)
            self.memory_root = _StoredPath(self, ROOT)
            tools[str(self.base_path)] = self

    class BetaAsyncLocalFilesystemMemoryTool(EngramAsyncMemoryTool):
        """EngramAsyncMemoryTool taking the reference's constructor."""

        def __init__(self, base_path: str = "./memory") -> None:
            super().__init__(engram_memories(), subject=SUBJECT)
            self.base_path = Path(base_path)
            self.memory_root = _AsyncStoredPath(self.tool, ROOT)
            tools[str(self.base_path)] = self.tool

    module: Any = request.module
    monkeypatch.setattr(module, "BetaLocalFilesystemMemoryTool", BetaLocalFilesystemMemoryTool)
    monkeypatch.setattr(module, "BetaAsyncLocalFilesystemMemoryTool", BetaAsyncLocalFilesystemMemoryTool)
    monkeypatch.setattr(module, "get_directory_snapshot", _snapshot(tools))


# Tests of the reference's own machinery: the directory on disk it keeps the files in (its mode bits,
# symlinks placed in it, its private `_validate_path` and `os.open` patched between check and use).
# Engram keeps the files in its store, where no symlink or mode bit exists; the rest runs as written.
_MODE = "checks the mode bits of the directories the reference makes on disk"
_SYMLINK = "places a symlink in the reference's directory on disk and checks it is not followed"
_RACE = "patches the reference's private _validate_path or os.open to swap a file for a symlink on disk"
_DISK = "writes the file into the reference's directory on disk (Path(str(memory_root))) before the tool reads it"
NOT_APPLICABLE: dict[str, str] = {
    "test_mkdir_parents_not_world_writable_under_permissive_umask": _MODE,
    "test_read_rejects_symlink_created_after_validation": _RACE,
    "test_read_rejects_file_replaced_with_symlink_before_open": _RACE,
    "test_view_rejects_directory_symlink_created_after_validation": _RACE,
    "test_validate_path_returns_resolved_path_not_symlink_target": _SYMLINK + " (via its private _validate_path)",
    "test_symlink_validation_reject_symlink_pointing_outside_memories": _SYMLINK,
    "test_view_lists_symlinks_only_when_they_stay_inside_memories": _SYMLINK,
    "test_symlink_validation_reject_creating_files_through_symlink_pointing_outside": _SYMLINK,
    "test_symlink_validation_reject_parent_directory_that_is_symlink_pointing_outside": _SYMLINK,
}
SYNC, ASYNC = "TestBetaLocalFilesystemMemoryTool", "TestBetaAsyncLocalFilesystemMemoryTool"
NOT_APPLICABLE_IN_CLASS: dict[str, str] = {
    **{f"{cls}::{name}": reason for name, reason in NOT_APPLICABLE.items() for cls in (SYNC, ASYNC)},
    # The async class's CRLF tests turn memory_root into a path on disk; the sync class's run on Engram.
    **{f"{ASYNC}::test_{command}_preserves_crlf_line_endings": _DISK for command in ("view", "str_replace", "insert")},
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_not_applicable(items, "anthropic", NOT_APPLICABLE_IN_CLASS, key=in_class)
