"""The comparison fold, kept importable here; it is defined in `engram.language.normalise`."""

from __future__ import annotations

from engram.language.normalise import FIELD_SEPARATOR, fold

__all__ = ["FIELD_SEPARATOR", "fold"]
