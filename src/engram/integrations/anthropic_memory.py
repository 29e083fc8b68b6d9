"""`EngramMemoryTool`: the backend of Anthropic's client-side memory tool, kept in Engram
(`pip install 'engramdb[anthropic]'`: anthropic>=0.84, whose SDK ships the abstract class, since
0.69, and ToolError, whose text the tool runner hands the model, since 0.84).

    tool = EngramMemoryTool("memory.db", subject="user:42")
    runner = client.beta.messages.tool_runner(model=..., max_tokens=1024, tools=[tool], messages=[...],
                                              betas=["context-management-2025-06-27"])

The model's `/memories` tree lives under one subject: each file is one `memory_file` item keyed by
its path, its content kept verbatim (any length, newlines kept) by `Memory.admin.put`, so the model's
own notes get Engram's write check (a secret is refused: the tool result says why), history (an
edit keeps the old version; a rename links the new path to the old one), recall (the path and
content are embedded) and verifiable forgetting (a delete forgets every version). A directory is
kept as its own item (key: its path and a "/"), made for every parent of a file created, so it
stays after its last file is deleted, as on a filesystem; a path is a file or a directory, never
both. A path outside /memories, or with a `..` that would leave it, is refused. Results and error
texts follow the SDK's own local-filesystem backend (a file longer than 999,999 lines is not
viewed); a directory's size in a listing is the bytes of the files under it.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.errors import InvalidInput, WriteConflict, require
from engram.retry import retry
from engram.integrations import as_memory
from engram.store import Filter
from engram.types import MEMORY_FILE, Item
from engram.core.async_memory import off_loop

require("anthropic.lib.tools", "anthropic")

from anthropic.lib.tools import (  # noqa: E402 (after the check that names the extra to install)
    BetaAbstractMemoryTool,
    BetaAsyncAbstractMemoryTool,
    ToolError,
)
from anthropic.types.beta import (  # noqa: E402
    BetaCacheControlEphemeralParam,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

if TYPE_CHECKING:
    from engram.core.memory import Memory

__all__ = ["ROOT", "EngramAsyncMemoryTool", "EngramMemoryTool", "ToolError"]

ROOT = "/memories"
DIRECTORY = "(directory)"  # the text of a directory's own item
MAX_LINES = 999_999  # the SDK's local backend views no longer file
LINE_WIDTH = len(str(MAX_LINES))  # line numbers as the SDK's local backend prints them
MAX_PATH_CHARS = 200  # an Engram key
TRIES = 20  # an edit redone this often when another writer changed the file first


def _size(n: int) -> str:
    """Bytes as the SDK's backend shows them: 0B, 512B, 1.5K, 2M."""
    unit = next((u for u, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)) if n >= scale), "B")
    value = n / {"G": 1 << 30, "M": 1 << 20, "K": 1 << 10, "B": 1}[unit]
    return f"{int(value)}{unit}" if value == int(value) else f"{value:.1f}{unit}"


def _numbered(lines: list[str], start: int) -> str:
    return "\n".join(f"{str(i + start).rjust(LINE_WIDTH)}\t{line}" for i, line in enumerate(lines))


class EngramMemoryTool(BetaAbstractMemoryTool):
    """Anthropic's memory tool (view, create, str_replace, insert, delete, rename) over an Engram subject."""

    def __init__(self, memory: "Memory | str | os.PathLike[str]", *, subject: str,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        self.memory = as_memory(memory)
        self.subject = validate.subject(subject)

    # -- paths and files --------------------------------------------------------------------
    def path(self, path: Any) -> str:
        """`path` normalised, or ToolError when it is not inside /memories."""
        if not isinstance(path, str) or "\x00" in path:
            raise ToolError(f"Path must be a string starting with {ROOT}, got: {path!r}")
        if path != ROOT and not path.startswith(ROOT + "/"):
            raise ToolError(f"Path must start with {ROOT}, got: {path}")
        normal = posixpath.normpath(path)
        if normal != ROOT and not normal.startswith(ROOT + "/"):
            raise ToolError(f"Path {path} would escape {ROOT} directory")
        if len(normal) > MAX_PATH_CHARS:
            raise ToolError(f"Path {path} is longer than {MAX_PATH_CHARS} characters")
        return normal

    def _entries(self) -> list[Item]:
        return [it for it in self.memory.items(self.subject, kinds=[MEMORY_FILE], newest_first=False) if it.key]

    def files(self) -> dict[str, Item]:
        """Every current file of the tree, by path."""
        return {it.key: it for it in self._entries() if it.key and not it.key.endswith("/")}

    def directories(self) -> set[str]:
        """Every directory of the tree (/memories itself, the kept ones and every file's parents)."""
        found = {ROOT}
        for it in self._entries():
            key = it.key or ""
            path = key[:-1] if key.endswith("/") else posixpath.dirname(key)
            while path.startswith(ROOT + "/") and path not in found:
                found.add(path)
                path = posixpath.dirname(path)
        return found

    def _file(self, path: str) -> Item | None:
        return self.memory.admin.current(self.subject, MEMORY_FILE, path)

    def _is_dir(self, path: str) -> bool:
        return path in self.directories()

    def _make_dirs(self, path: str) -> None:
        """Keep `path` and its parents as directories; ToolError when one of them is a file."""
        dirs, made = self.directories(), []
        while path not in dirs:
            if self._file(path) is not None:
                raise ToolError(f"The path {path} is a file, not a directory")
            made.append(path)
            path = posixpath.dirname(path)
        for d in reversed(made):
            try:
                saved = self.memory.admin.put(self.subject, d + "/", DIRECTORY, kind=MEMORY_FILE,
                                        metadata={"directory": True}, expect="")
            except WriteConflict:
                continue  # another writer made it first
            if not saved.saved:
                raise ToolError(f"The directory {d} was not made: {saved.reason}. Nothing was written.")

    def _write(self, path: str, content: str, *, expect: str | None, renamed_from: str | None = None) -> str:
        """Save `content` at `path`; the id saved. A refusal (a secret) becomes the tool's error."""
        meta = {"renamed_from": renamed_from} if renamed_from else None
        try:
            saved = self.memory.admin.put(self.subject, path, content, kind=MEMORY_FILE, index=f"{path}\n{content}",
                                    metadata=meta, expect=expect)
        except InvalidInput as exc:
            raise ToolError(f"{path} was not saved: {exc}") from exc
        if not saved.saved or saved.id is None:
            raise ToolError(f"{path} was not saved: {saved.reason}. Nothing was written; leave it out of memory.")
        return saved.id

    def _edit(self, path: str, change: Callable[[str], str]) -> None:
        """Read, change and save a file; redone when another writer saved it in between."""
        def once() -> None:
            found = self._file(path)
            if found is None and self._is_dir(path):
                raise ToolError(f"The path {path} is not a file.")
            if found is None:
                raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
            self._write(path, change(found.text), expect=found.id)

        try:
            retry(once, tries=TRIES, base=0.002, cap=0.2, again=lambda exc, _: isinstance(exc, WriteConflict))
        except WriteConflict:
            raise ToolError(f"{path} kept changing under other writers; view it and try again") from None

    def _forget(self, paths: list[str]) -> None:
        """Forget every version of these files."""
        ids = [it.id for p in paths for it in self.memory.items(
            self.subject, where=Filter(kinds=(MEMORY_FILE,), key=p, include_superseded=True))]
        if ids:
            self.memory.forget_ids(self.subject, ids)

    # -- the commands ------------------------------------------------------------------------
    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        path = self.path(command.path)
        found = self._file(path) if path != ROOT else None
        if found is not None:
            return self._view_file(command, found.text)
        files, dirs = self.files(), self.directories()
        if path not in dirs:
            raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
        return self._view_dir(path, files, dirs)

    def _view_file(self, command: BetaMemoryTool20250818ViewCommand, content: str) -> str:
        lines, start = content.split("\n"), 1
        if len(lines) > MAX_LINES:
            raise ToolError(f"File {command.path} exceeds maximum line limit of 999,999 lines.")
        if command.view_range and len(command.view_range) == 2:
            first, last = command.view_range
            start = max(1, first)
            lines = lines[start - 1 : len(lines) if last == -1 else last]
        return f"Here's the content of {command.path} with line numbers:\n" + _numbered(lines, start)

    def _view_dir(self, path: str, files: dict[str, Item], dirs: set[str]) -> str:
        """Files and directories up to two levels below `path`, hidden ones left out, as the SDK lists them."""
        sizes: dict[str, int] = {}
        for d in dirs:
            parts = d[len(path) + 1 :].split("/") if d.startswith(path + "/") else []
            if parts and len(parts) <= 2 and not any(p.startswith(".") for p in parts):
                sizes.setdefault("/".join(parts) + "/", 0)
        for file_path, item in files.items():
            if not file_path.startswith(path + "/"):
                continue
            parts = file_path[len(path) + 1 :].split("/")
            if any(p.startswith(".") for p in parts):
                continue
            size = len(item.text.encode("utf-8"))
            for depth in range(1, min(len(parts), 2) + 1):
                entry = "/".join(parts[:depth]) + ("/" if depth < len(parts) else "")
                sizes[entry] = sizes.get(entry, 0) + size
        total = sum(len(it.text.encode("utf-8")) for p, it in files.items() if p.startswith(path + "/"))
        lines = [f"{_size(total)}\t{path}"] + [f"{_size(n)}\t{path}/{entry}" for entry, n in sorted(sizes.items())]
        header = f"Here're the files and directories up to 2 levels deep in {path}, excluding hidden items:"
        return header + "\n" + "\n".join(lines)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        path = self.path(command.path)
        if self._is_dir(path):
            raise ToolError(f"File {command.path} already exists (as a directory)")
        if not isinstance(command.file_text, str):
            raise ToolError("file_text must be a string")
        self._make_dirs(posixpath.dirname(path))
        try:
            self._write(path, command.file_text, expect="")
        except WriteConflict:
            raise ToolError(f"File {command.path} already exists") from None
        return f"File created successfully at: {command.path}"

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        path = self.path(command.path)
        old, new = command.old_str, command.new_str
        if not isinstance(old, str) or not old or not isinstance(new, str):
            raise ToolError("old_str must be a non-empty string and new_str a string")
        changed: list[int] = []

        def change(content: str) -> str:
            count = content.count(old)
            if count == 0:
                raise ToolError(f"No replacement was performed, old_str `{old}` did not appear verbatim in"
                                f" {command.path}.")
            if count > 1:
                at, lines = 0, []
                while (at := content.find(old, at)) != -1:
                    lines.append(content[:at].count("\n") + 1)
                    at += 1
                raise ToolError(f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines:"
                                f" {', '.join(map(str, lines))}. Please ensure it is unique")
            changed[:] = [content[: content.find(old)].count("\n")]
            return content.replace(old, new)

        self._edit(path, change)
        lines = self._file(path).text.split("\n")  # type: ignore[union-attr]  # just written
        first = max(0, changed[0] - 2)
        snippet = _numbered(lines[first : min(len(lines), changed[0] + 3)], first + 1)
        return f"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n{snippet}"

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        path = self.path(command.path)
        if not isinstance(command.insert_text, str):
            raise ToolError("insert_text must be a string")

        def change(content: str) -> str:
            lines = content.split("\n")
            if lines[-1] == "":
                lines.pop()
            at = command.insert_line
            if not isinstance(at, int) or at < 0 or at > len(lines):
                raise ToolError(f"Invalid `insert_line` parameter: {at}. It should be within the range"
                                f" [0, {len(lines)}].")
            lines.insert(at, command.insert_text.rstrip("\n"))
            return "\n".join(lines) + "\n"

        self._edit(path, change)
        return f"The file {command.path} has been edited."

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        path = self.path(command.path)
        if path == ROOT:
            raise ToolError(f"Cannot delete the {ROOT} directory itself")
        keys = [it.key or "" for it in self._entries()]
        doomed = [k for k in keys if k == path or k.startswith(path + "/")]
        if not doomed and not self._is_dir(path):
            raise ToolError(f"The path {command.path} does not exist")
        self._forget(doomed)
        return f"Successfully deleted {command.path}"

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old, new = self.path(command.old_path), self.path(command.new_path)
        if old == ROOT:
            raise ToolError(f"Cannot rename the {ROOT} directory itself")
        entries = {it.key or "": it for it in self._entries()}
        if new in entries or self._is_dir(new):
            raise ToolError(f"The destination {command.new_path} already exists")
        if new.startswith(old + "/"):
            raise ToolError(f"Cannot move {command.old_path} into itself ({command.new_path})")
        moving = {k: new + k[len(old) :] for k in entries if k == old or k.startswith(old + "/")}
        if not moving:
            raise ToolError(f"The path {command.old_path} does not exist")
        self._make_dirs(posixpath.dirname(new))
        for before, after in moving.items():
            item = entries[before]
            if before.endswith("/"):
                self._make_dirs(after[:-1])
                self._forget([before])
                continue
            new_id = self._write(after, item.text, expect="", renamed_from=before)
            self.memory.admin.mark_superseded([item.id], new_id)  # history runs across the rename
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    def clear_all_memory(self) -> str:
        """Forget every file of the tree (every version)."""
        self._forget([it.key or "" for it in self._entries()])
        return "All memory cleared"


class EngramAsyncMemoryTool(BetaAsyncAbstractMemoryTool):
    """The same tool for `AsyncAnthropic`'s tool runner: each command runs on a worker thread."""

    def __init__(self, memory: "Memory | str | os.PathLike[str]", *, subject: str,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        self.tool = EngramMemoryTool(memory, subject=subject)
        self.memory, self.subject = self.tool.memory, self.tool.subject

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await off_loop(self.memory).run(self.tool.view, command)

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await off_loop(self.memory).run(self.tool.create, command)

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await off_loop(self.memory).run(self.tool.str_replace, command)

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await off_loop(self.memory).run(self.tool.insert, command)

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await off_loop(self.memory).run(self.tool.delete, command)

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await off_loop(self.memory).run(self.tool.rename, command)

    async def clear_all_memory(self) -> str:
        return await off_loop(self.memory).run(self.tool.clear_all_memory)


if TYPE_CHECKING:  # mypy checks the classes against the SDK's abstract ones
    def _conforms(tool: EngramMemoryTool, async_tool: EngramAsyncMemoryTool) -> tuple[
            BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool]:
        return tool, async_tool
