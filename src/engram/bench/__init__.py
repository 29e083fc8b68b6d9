"""Benchmarks as commands (`engram bench ...`), never as timed tests.

One module per `engram bench` command, named after it (`engram bench --help` lists them; each
module's docstring says what it measures), beside what they share: `baselines` (the retrievers a
harness compares), `report` (percentiles, peak memory, the Markdown tables the docs quote),
`scratch` (temporary stores), `vectorcache` (embeddings reused across runs), `steps` (where one
recall's time goes) and `people` (synthetic facts about many people, with questions naming them).
"""
