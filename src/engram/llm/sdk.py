"""Calling an official SDK (`anthropic`, `openai`): its own retries, and its errors as ProviderError.

The SDKs retry by themselves (`max_retries`): connection errors and timeouts, HTTP 408, 409,
429 and every 5xx (529 = Anthropic overloaded), with exponential backoff and jitter, obeying a
server's `retry-after-ms` / `retry-after` and its `x-should-retry` header. Engram only turns
what is left into one `ProviderError` naming the model, the server and the next step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..errors import ProviderError

T = TypeVar("T")

#: Retries after the first try (four attempts in all); each provider takes `max_retries=`.
DEFAULT_MAX_RETRIES = 3


def call(request: Callable[[], T], sdk: Any, what: str, key_var: str, attempts: int) -> T:
    """`request()` (the SDK retries inside it); an SDK error becomes a ProviderError naming `what`."""
    try:
        return request()
    except sdk.APIStatusError as exc:
        message = describe_status(exc.status_code, _error_type(exc), _error_message(exc), key_var)
        if _retried(exc.status_code, exc.response.headers) and attempts > 1:
            raise ProviderError(f"{what} failed after {attempts} attempts: {message}. The provider may be"
                                " down or overloaded: try again later.") from exc
        raise ProviderError(f"{what} failed: {message}") from exc
    except sdk.APIConnectionError as exc:  # includes timeouts
        raise ProviderError(f"{what} failed after {attempts} attempts: could not reach the server ({exc});"
                            " is it running and is the URL right?") from exc
    except (sdk.APIError, ValueError) as exc:  # unparseable or malformed response body
        raise ProviderError(f"{what} failed: unreadable response, not the expected JSON ({exc})") from exc


def checked(parse: Callable[[Any], T], response: Any, what: str) -> T:
    """`parse(response)`, turning a response of the wrong shape into a ProviderError."""
    try:
        return parse(response)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ProviderError(
            f"{what} sent a response of an unexpected shape ({exc}); "
            "is the base URL an Anthropic/OpenAI-compatible API?"
        ) from exc


def describe_status(status: int, error_type: str | None, message: str, key_var: str = "the API key") -> str:
    """A one-line account of an HTTP error, with the next step for the common ones."""
    detail = f"HTTP {status}" + (f" {error_type}" if error_type else "") + (f": {message}" if message else "")
    hints = {
        401: f"check ${key_var} or api_key=",
        403: "the API key lacks permission for this model or endpoint",
        404: "check the model name and the base URL",
    }
    return detail + (f"; {hints[status]}" if status in hints else "")


def _retried(status: int, headers: Mapping[str, str]) -> bool:
    """Whether the SDK retried this status (its rule, for the message only)."""
    hint = (headers.get("x-should-retry") or "").lower()
    if hint in ("true", "false"):
        return hint == "true"
    return status in (408, 409, 429) or status >= 500


def _error_body(exc: Any) -> dict[str, Any]:
    body = getattr(exc, "body", None)
    inner = body.get("error", body) if isinstance(body, dict) else None
    return inner if isinstance(inner, dict) else {}


def _error_type(exc: Any) -> str | None:
    kind = _error_body(exc).get("type")
    return kind if isinstance(kind, str) else None


def _error_message(exc: Any) -> str:
    message = _error_body(exc).get("message")
    if isinstance(message, str):
        return message
    text = getattr(getattr(exc, "response", None), "text", "") or ""
    return str(text).strip()[:200]
