"""Every error Engram raises, in one tree.

    EngramError
    ├── InvalidInput (ValueError)          bad argument: text, subject, k, query, time, config value
    │   ├── InvalidSubject                 subject is not `kind:name` (see `engram.validate`)
    │   └── ConfigError                    a setting (argument or ENGRAM_* variable) is wrong
    ├── NotFound (KeyError)                no item / session / key with that id
    ├── AccessDenied (PermissionError)     a caller touched a subject it was not granted
    ├── StoreError                         the database itself
    │   ├── StoreUnavailable (ConnectionError)  cannot open / reach the database
    │   │   └── NotAStore                  the file is not an Engram store (text, another program's database)
    │   ├── StoreBusy                      still locked after the bounded retries
    │   ├── StoreCorrupt                   damaged file; the message names the recovery command
    │   ├── ReadOnlyStore                  a write to a store opened read-only; nothing was written
    │   ├── StoreFull (OSError)            disk full or size limit while writing; nothing was written
    │   ├── WriteConflict                  another writer replaced the same key first; nothing was written
    │   └── SchemaTooNew                   file written by a newer Engram
    ├── EmbedderError                      the embedding model failed or is misconfigured
    │   └── EmbedderMismatch               store was built with another model: run `engram reindex`
    ├── ProviderError                      an LLM provider failed after retries
    └── MissingDependency (ImportError)    an optional extra is not installed: message has the pip command

Messages say what was wrong and what to do next. Every write runs in one transaction, so an
error leaves the store as it was.
"""

from __future__ import annotations

from typing import Any


class EngramError(Exception):
    """Root of every error Engram raises."""


class InvalidInput(EngramError, ValueError):
    """An argument was malformed; nothing was written."""


class InvalidSubject(InvalidInput):
    """A subject is not of the form `kind:name` (e.g. `user:42`)."""


class ConfigError(InvalidInput):
    """A setting (argument or ENGRAM_* environment variable) is wrong."""


class NotFound(EngramError, KeyError):
    """No item, session or key with that identifier."""

    def __str__(self) -> str:  # KeyError quotes its message; we want it plain.
        return str(self.args[0]) if self.args else "not found"


class AccessDenied(EngramError, PermissionError):
    """The caller has no grant on that subject."""


class StoreError(EngramError):
    """The database failed."""


class StoreUnavailable(StoreError, ConnectionError):
    """The database cannot be opened or reached."""


class StoreBusy(StoreError):
    """The database stayed locked after the bounded retries."""


class StoreCorrupt(StoreError):
    """The database file is damaged."""


class NotAStore(StoreUnavailable):
    """The file exists but is not an Engram store (a text file, another program's database); it was left as it was."""


class ReadOnlyStore(StoreError):
    """A write was asked of a store opened read-only (`read_only=True`, or a file that cannot be written)."""


class StoreFull(StoreError, OSError):
    """The disk (or a size limit) is full; the write was rolled back."""


class WriteConflict(StoreError):
    """A keyed write (`Memory.admin.put`) found another version current than the one it replaces: another
    writer got there first. Nothing was written; read the key again and retry."""


class SchemaTooNew(StoreError):
    """The database was written by a newer Engram than this one."""


class EmbedderError(EngramError):
    """The embedding model failed or is misconfigured."""


class EmbedderMismatch(EmbedderError):
    """The store's vectors come from another embedding model."""


class ProviderError(EngramError):
    """An LLM provider failed after retries."""


class MissingDependency(EngramError, ImportError):
    """An optional dependency is missing; the message says what to install."""


def require(module: str, extra: str) -> Any:
    """Import an optional module or raise MissingDependency naming the extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependency(
            f"{module} is not installed: run `pip install 'engramdb[{extra}]'`"
        ) from exc
