"""Run the examples of a Markdown page: its ```python and ```console blocks, top to bottom.

The conventions (docs/architecture.md, "Examples that run"):

- A page runs in a fresh directory. Its Python blocks share one namespace; its console blocks
  share one bash session in the same directory, so `memory.db` written by a Python block is the
  file `$ engram --db memory.db ...` reads, and `export`, variables and `cd` carry over.
  `$ENGRAM_DOCS_REPO` is the checkout (for a page that runs its scripts), `engram` and `python`
  are this checkout's.
- A ```python block with `>>>` prompts is a doctest session (stdlib doctest, ELLIPSIS on): every
  output shown is checked. A block without prompts is a script: it must run without error and
  print nothing (an output worth showing is shown as a session, so it is checked).
- A ```console block: each `$ ` line is a command (a trailing backslash continues it on the next
  line); the lines up to the next `$ ` are its output, stdout and stderr as they interleave,
  compared like doctest output (`...` matches anything). A command that exits non-zero must show
  an `error` in its output.
- `<!-- not run: REASON -->` on the line before a fence: the block is not run (a real API key, a
  network, a service that is not there). Blocks inside an HTML comment are run but not shown: the
  set-up a page needs and does not want to print.
- Outputs are compared after NORMALISE, on both sides: what legitimately differs between runs.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import selectors
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

RUN = ("python", "console")

# What legitimately varies between runs, replaced on both sides before comparing. Nothing else is.
NORMALISE = [
    (re.compile(r"\b[0-9a-f]{32}\b"), "<id>"),      # an item id (uuid4 hex)
    (re.compile(r"\b[0-9a-f]{12}\b"), "<id>"),      # an API key id
    (re.compile(r"\b[0-9a-f]{8}\b"), "<id>"),       # an item id's short form
    (re.compile(r"\begk_[A-Za-z0-9_-]{43}\b"), "<key>"),  # an API key (shown once)
    (re.compile(r"\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"), "<time>"),  # today
    (re.compile(r"\b1[6-9]\d{8}(?:\.\d+)?\b"), "<time>"),  # UNIX seconds, now
    (re.compile(r"\b127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),  # a local test server's free port
]
OUTPUT_COMMENT = re.compile(r"#\s*(->|'|\"|\[|\{|Saved\(|True\b|False\b|None\b)")
HANG_GUARD_S = 900  # not a timing check: a command that never returns must not hang the suite


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    lang: str
    body: str
    hidden: bool = False  # inside an HTML comment: run, not shown
    not_run: str | None = None  # the reason given


def blocks(page: Path) -> list[Block]:
    """Every fenced block of the page, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    in_comment = False
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^\s*```(\S*)", line)
        if fence:
            start, body = i, []
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                body.append(lines[i])
                i += 1
            before = lines[start - 1].strip() if start else ""
            reason = re.fullmatch(r"<!--\s*not run:\s*(.+?)\s*-->", before)
            found.append(Block(page, start + 1, fence.group(1), "\n".join(body) + "\n", in_comment,
                               reason.group(1) if reason else None))
        elif "<!--" in line and "-->" not in line.split("<!--", 1)[1]:
            in_comment = True
        elif in_comment and "-->" in line:
            in_comment = False
        i += 1
    return found


def normalise(text: str) -> str:
    text = "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")
    for pattern, replacement in NORMALISE:
        text = pattern.sub(replacement, text)
    return text + "\n" if text else ""


class Checker(doctest.OutputChecker):
    """doctest's comparison (ELLIPSIS), after NORMALISE on both sides."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(normalise(want), normalise(got), optionflags)

    def output_difference(self, example: doctest.Example, got: str, optionflags: int) -> str:
        shown = doctest.Example(example.source, normalise(example.want), lineno=example.lineno)
        return super().output_difference(shown, normalise(got), optionflags)


def unrunnable(block: Block) -> str | None:
    """Why a block breaks the conventions, or None."""
    if block.lang in RUN or block.not_run:
        return None
    shows = [ln for ln in block.body.splitlines() if ln.startswith(("$ ", ">>> "))]
    if shows:
        return (f"{block.page.name}:{block.line}: a ```{block.lang} block shows {shows[0]!r}: label it "
                "```console or ```python so it runs, or mark it <!-- not run: REASON -->")
    return None


def run_python(block: Block, globs: dict[str, object]) -> None:
    name = f"{block.page.name}:{block.line}"
    if ">>> " not in block.body:
        bad = [ln for ln in block.body.splitlines() if "#" in ln and OUTPUT_COMMENT.search(ln[ln.index("#"):])]
        assert not bad, f"{name}: an output shown as a comment is not checked: write it as a >>> session: {bad[0]!r}"
        printed = io.StringIO()
        code = compile("\n" * block.line + block.body, str(block.page), "exec")
        with contextlib.redirect_stdout(printed):
            exec(code, globs)
        assert not printed.getvalue(), (f"{name}: a script block printed {printed.getvalue()[:200]!r}: "
                                        "show it as a >>> session so the output is checked")
        return
    parser = doctest.DocTestParser()
    prose = [part for part in parser.parse(block.body, name) if isinstance(part, str) and part.strip()]
    assert not prose, f"{name}: lines outside the >>> session would be ignored by doctest: {prose[0].strip()[:80]!r}"
    test = parser.get_doctest(block.body, globs, name, str(block.page), block.line)
    runner = doctest.DocTestRunner(checker=Checker(), optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write, clear_globs=False)
    globs.update(test.globs)  # DocTest works on a copy; the next block sees what this one defined
    assert not runner.failures, report.getvalue()


def commands(block: Block) -> list[tuple[str, str, int]]:
    """(command, expected output, line) for each `$ ` line of a console block."""
    out: list[tuple[str, str, int]] = []
    lines = block.body.splitlines()
    i = 0
    while i < len(lines):
        assert lines[i].startswith("$ "), f"{block.page.name}:{block.line + 1 + i}: expected a `$ ` command"
        lineno, command = block.line + 1 + i, lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        i += 1
        want = []
        while i < len(lines) and not lines[i].startswith("$ "):
            want.append(lines[i])
            i += 1
        out.append((command, "\n".join(want), lineno))
    return out


class Shell:
    """One bash session for a page: commands run in order, their output read up to a marker."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.marker = f"__docs_{uuid.uuid4().hex}__"

    def run(self, command: str) -> tuple[str, int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        # stdin from /dev/null unless the command redirects it itself, so nothing reads this script.
        self.proc.stdin.write(f"{{ {command}\n}} < /dev/null 2>&1\n__status=$?; echo; echo {self.marker} $__status\n".encode())
        self.proc.stdin.flush()
        data = b""
        deadline = time.monotonic() + HANG_GUARD_S
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while (self.marker.encode() + b" ") not in data or not data.endswith(b"\n"):
                assert time.monotonic() < deadline, f"no end of output after {HANG_GUARD_S} s: {command!r}"
                if sel.select(timeout=1):
                    chunk = os.read(self.proc.stdout.fileno(), 65536)
                    assert chunk, f"the shell exited during {command!r}: {data.decode(errors='replace')}"
                    data += chunk
        text = data.decode()
        output, status = text.rsplit(self.marker + " ", 1)
        return output[:-1], int(status)  # the `echo` before the marker ends a last line without one

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)  # the session's own group: background servers too
        self.proc.wait()


def run_console(block: Block, shell: Shell) -> None:
    checker = Checker()
    for command, want, line in commands(block):
        got, status = shell.run(command)
        where = f"{block.page.name}:{line}: $ {command}"
        if status != 0:
            assert "error" in want.lower(), f"{where}\nexited {status}:\n{got}"
        if not checker.check_output(want + "\n", got, doctest.ELLIPSIS):
            raise AssertionError(f"{where}\nexpected:\n{normalise(want)}got:\n{normalise(got)}")


@dataclass
class Counts:
    ran: int = 0
    hidden: int = 0
    not_run: int = 0


def run_page(page: Path, workdir: Path, env: dict[str, str]) -> Counts:
    """Run every runnable block of `page` in `workdir`; raises AssertionError at the first failure."""
    counts = Counts()
    found = blocks(page)
    problems = [p for p in map(unrunnable, found) if p]
    assert not problems, "\n".join(problems)
    globs: dict[str, object] = {"__name__": "__docs__"}
    shell: Shell | None = None
    here = Path.cwd()
    os.chdir(workdir)
    try:
        for block in found:
            if block.lang not in RUN:
                continue
            if block.not_run:
                counts.not_run += 1
                continue
            if block.lang == "python":
                run_python(block, globs)
            else:
                shell = shell or Shell(workdir, env)
                run_console(block, shell)
            if block.hidden:
                counts.hidden += 1
            else:
                counts.ran += 1
    finally:
        os.chdir(here)
        if shell:
            shell.close()
        for value in globs.values():  # close the stores the page opened
            if type(value).__module__.startswith("engram.") and callable(getattr(value, "close", None)):
                value.close()
    return counts


# What each page's run counted, for the summary at the end of the test run (tests/conftest.py).
RAN: dict[str, Counts] = {}


def summary() -> list[str]:
    """One line per page that ran: blocks run, run hidden (set-up), not run."""
    return [f"{page:<22} {c.ran:>3} run  {c.hidden:>2} set-up  {c.not_run:>2} not run" for page, c in sorted(RAN.items())]
