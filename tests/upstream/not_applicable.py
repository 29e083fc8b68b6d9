"""Marks the tests of a vendored suite that exercise only the reference's own machinery: each is
skipped with its reason (listed in the suite's conftest.py and README), the rest run as written."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest


def name_of(item: pytest.Item) -> str:
    """A test's name without its parameters."""
    return str(getattr(item, "originalname", item.name))


def in_file(item: pytest.Item) -> str:
    """`file::name`, for suites whose files share test names."""
    return f"{item.path.name}::{name_of(item)}"


def in_class(item: pytest.Item) -> str:
    """`Class::name`, for suites whose classes share test names."""
    return f"{item.cls.__name__ if item.cls else ''}::{name_of(item)}"


def mark_not_applicable(items: list[pytest.Item], suite: str, reasons: Mapping[str, str],
                        key: Callable[[pytest.Item], str] = name_of) -> None:
    """Skip, with its reason, each test of the suite folder `suite` whose key is in `reasons`."""
    for item in items:
        reason = reasons.get(key(item))
        if reason and suite in item.path.parts:
            item.add_marker(pytest.mark.skip(reason=f"not applicable: {reason}"))
