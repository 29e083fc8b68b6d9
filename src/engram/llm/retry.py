"""One retry policy for every provider: exponential backoff with full jitter, honouring retry-after.

The SDKs' own retries are switched off (`max_retries=0`) so behaviour is identical across
providers and testable: `sleep`, `random` and `clock` are parameters, not globals.

Retried: connection errors and timeouts, HTTP 408, 409, 429, every 5xx (529 = Anthropic
overloaded), and any error whose body says `overloaded_error`; a server's `x-should-retry`
header overrides the status. Everything else (400, 401, 403, 404, 422, ...) fails at once.
"""

from __future__ import annotations

import logging
import random as _random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from ..errors import InvalidInput, ProviderError

T = TypeVar("T")
log = logging.getLogger("engram.llm")

RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class Failure:
    """What went wrong with one attempt, in provider-neutral terms."""

    message: str
    retryable: bool
    status: int | None = None
    retry_after: float | None = None


@dataclass(frozen=True)
class RetryPolicy:
    """Up to `max_attempts` tries; waits min(max_delay, base_delay * 2**n) scaled by full jitter.

    A server's retry-after is obeyed exactly when it is at most `max_retry_after` seconds;
    a longer one fails at once rather than blocking the caller for minutes.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0
    max_retry_after: float = 60.0
    sleep: Callable[[float], None] = time.sleep
    random: Callable[[], float] = _random.random
    clock: Callable[[], float] = field(default=time.time, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise InvalidInput(f"max_attempts must be at least 1, got {self.max_attempts}")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise InvalidInput("retry delays must be non-negative")

    def backoff(self, attempt: int) -> float:
        """Full-jitter delay before retry number `attempt` (1-based)."""
        ceiling = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return ceiling * self.random()

    def run(self, call: Callable[[], T], classify: Callable[[Exception], Failure | None], what: str) -> T:
        """Call `call` until it succeeds; raise ProviderError naming `what` when it cannot."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return call()
            except Exception as exc:
                failure = classify(exc)
                if failure is None:
                    raise
                try:
                    wait = self._wait(failure, attempt, what)
                except ProviderError as error:
                    raise error from exc
                log.warning(
                    "%s: %s; retry %d/%d in %.2fs",
                    what,
                    failure.message,
                    attempt,
                    self.max_attempts - 1,
                    wait,
                )
                self.sleep(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _wait(self, failure: Failure, attempt: int, what: str) -> float:
        if not failure.retryable:
            raise ProviderError(f"{what} failed: {failure.message}")
        if attempt >= self.max_attempts:
            raise ProviderError(
                f"{what} failed after {attempt} attempts: {failure.message}. "
                "The provider may be down or overloaded: try again later."
            )
        if failure.retry_after is None:
            return self.backoff(attempt)
        if failure.retry_after > self.max_retry_after:
            raise ProviderError(
                f"{what} failed: {failure.message}; the server asked to wait "
                f"{failure.retry_after:.0f}s (more than {self.max_retry_after:.0f}s): try again later."
            )
        return failure.retry_after


def checked(parse: Callable[[Any], T], response: Any, what: str) -> T:
    """`parse(response)`, turning a response of the wrong shape into a ProviderError."""
    try:
        return parse(response)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ProviderError(
            f"{what} sent a response of an unexpected shape ({exc}); "
            "is the base URL an Anthropic/OpenAI-compatible API?"
        ) from exc


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or HTTP date)."""
    ms = _header(headers, "retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = _header(headers, "retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def is_retryable(status: int, headers: Mapping[str, str], error_type: str | None) -> bool:
    """Whether an HTTP error deserves another try."""
    hint = (_header(headers, "x-should-retry") or "").lower()
    if hint in ("true", "false"):
        return hint == "true"
    return status in RETRY_STATUSES or status >= 500 or error_type == "overloaded_error"


def sdk_failure(
    exc: Exception, sdk: Any, key_var: str, clock: Callable[[], float] = time.time
) -> Failure | None:
    """Classify an exception from a Stainless-generated SDK (`anthropic`, `openai`); None if not its own.

    `key_var` names the environment variable holding the API key, for the 401 hint.
    """
    if isinstance(exc, sdk.APIStatusError):
        headers = exc.response.headers
        error_type = _error_type(getattr(exc, "body", None))
        return Failure(
            message=describe_status(exc.status_code, error_type, _error_message(exc), key_var),
            retryable=is_retryable(exc.status_code, headers, error_type),
            status=exc.status_code,
            retry_after=retry_after_seconds(headers, clock()),
        )
    if isinstance(exc, sdk.APIConnectionError):  # includes timeouts
        return Failure(f"could not reach the server ({exc}); is it running and is the URL right?", True)
    if isinstance(exc, (sdk.APIError, ValueError)):  # unparseable or malformed response body
        return Failure(f"unreadable response, not the expected JSON ({exc})", retryable=False)
    return None


def describe_status(status: int, error_type: str | None, message: str, key_var: str = "the API key") -> str:
    """A one-line account of an HTTP error, with the next step for the common ones."""
    detail = f"HTTP {status}" + (f" {error_type}" if error_type else "") + (f": {message}" if message else "")
    hints = {
        401: f"check ${key_var} or api_key=",
        403: "the API key lacks permission for this model or endpoint",
        404: "check the model name and the base URL",
    }
    return detail + (f"; {hints[status]}" if status in hints else "")


def _error_type(body: Any) -> str | None:
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("type"), str):
            return inner["type"]
    return None


def _error_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
    text = getattr(getattr(exc, "response", None), "text", "") or ""
    return text.strip()[:200]


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None:  # plain dicts are case-sensitive; httpx headers are not
        value = next((v for k, v in headers.items() if k.lower() == name), None)
    return value
