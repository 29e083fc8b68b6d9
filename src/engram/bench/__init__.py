"""Benchmarks as commands (`engram bench ...`), never as timed tests.

- `locomo`: evidence recall on the LoCoMo conversations, Engram against baselines in one harness.
- `latency`: recall latency by store size, write throughput against the raw embedder, peak RSS.
- `report`: percentiles and the Markdown tables the docs quote.
- `people`: synthetic one-sentence facts about many people, with questions naming the person
  (supersession precision, recall measurements).
"""
