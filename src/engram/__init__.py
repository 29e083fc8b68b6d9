"""Engram: local-first long-term memory for LLM agents.

    import engram
    mem = engram.Memory("memory.db")
    mem.remember("user:42", "Team uses Postgres 16 for all services.", source="chat 2026-11-02")
    mem.recall("user:42", "Which database do we use?", k=3)
    mem.forget("user:42", "postgres")
"""

from engram.errors import (
    AccessDenied,
    ConfigError,
    EmbedderError,
    EmbedderMismatch,
    EngramError,
    InvalidInput,
    InvalidSubject,
    MissingDependency,
    NotAStore,
    NotFound,
    ProviderError,
    ReadOnlyStore,
    SchemaTooNew,
    StoreBusy,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreUnavailable,
    WriteConflict,
)
from engram.core.memory import Memory
from engram.core.async_memory import AsyncMemory
from engram.core.ranking import Weights
from engram.store import Filter, Store, open_store
from engram.types import Episode, Hit, Item, Saved
from engram.kinds.working import Conversation

__version__ = "0.1.0"

__all__ = [
    "AccessDenied",
    "AsyncMemory",
    "ConfigError",
    "Conversation",
    "EmbedderError",
    "EmbedderMismatch",
    "EngramError",
    "Episode",
    "Filter",
    "Hit",
    "InvalidInput",
    "InvalidSubject",
    "Item",
    "Memory",
    "MissingDependency",
    "NotAStore",
    "NotFound",
    "ProviderError",
    "ReadOnlyStore",
    "Saved",
    "SchemaTooNew",
    "Store",
    "StoreBusy",
    "StoreCorrupt",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "Weights",
    "WriteConflict",
    "open_store",
]
