"""The exercise at the end of "agent memory" (seed 000), on Engram: Part 1 ... Part 4.

    python examples/agent_memory_practice.py                # offline: scripted model, bundled embedder
    ANTHROPIC_API_KEY=... python examples/agent_memory_practice.py   # a real model (or OPENAI_API_KEY,
    ENGRAM_LLM=openai:llama3.2@http://localhost:11434/v1 python examples/agent_memory_practice.py  # or Ollama)
    python examples/agent_memory_practice.py --db practice.db   # keep the file to inspect with `engram`

The story lives in `engram.demo.practice.run_practice`, so `engram demo` can tell it too.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from engram.llm import get_llm
from engram.demo.practice import run_practice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="database file (default: a new temporary folder); must not exist yet")
    parser.add_argument("--offline", action="store_true", help="use the scripted model even if a key is set")
    args = parser.parse_args()
    path = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="engram-practice-")) / "practice.db"
    if path.exists():
        parser.error(f"{path} already exists: the practice starts from an empty file; pick another --db")
    run_practice(str(path), llm=None if args.offline else get_llm())


if __name__ == "__main__":
    main()
