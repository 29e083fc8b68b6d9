"""Build the relevance's background (engram.core.background) from its two sets of sentences.

    python benchmarks/relevance_background.py           # write src/engram/data/relevance_background.npz
    python benchmarks/relevance_background.py --check   # rebuild in memory, compare with the shipped file

The sentences are benchmarks/relevance_data/background_memories.txt and background_world.txt
(DATA_CARD.md); they are embedded with the bundled MiniLM, whose identity and fingerprint the file
records, so recall uses the background only with that model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engram.core import background
from engram.embed.local import MiniLMEmbedder

TARGET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / background.SHIPPED


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the shipped file")
    args = parser.parse_args(argv)
    memories, world = background.sentences(background.MEMORIES), background.sentences(background.WORLD)
    built = background.build(MiniLMEmbedder(), memories, world)
    if args.check:
        same = background.same(built, TARGET.read_bytes())
        print("the shipped background matches a rebuild" if same else "the shipped background differs from a rebuild")
        return 0 if same else 1
    TARGET.write_bytes(built)
    print(f"wrote {TARGET}: {len(memories)} memory and {len(world)} world sentences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
