"""Options every command spells the same way."""

from __future__ import annotations

from typing import Any, Callable

import click


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--json`: print the command's JSON reply instead of lines for a person."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(f)
