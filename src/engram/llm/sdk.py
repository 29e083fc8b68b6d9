"""Calling an official SDK (`anthropic`, `openai`): its own retries, and its errors as ProviderError.

The SDKs retry by themselves (`max_retries`): connection errors and timeouts, HTTP 408, 409,
429 and every 5xx (529 = Anthropic overloaded), with exponential backoff and jitter, obeying a
server's `retry-after-ms` / `retry-after` and its `x-should-retry` header. Engram only turns
what is left into one `ProviderError` naming the model, the server and the next step.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from ..errors import ConfigError, ProviderError, require
from .base import LLM, Reply

T = TypeVar("T")

#: Retries after the first try (four attempts in all); each provider takes `max_retries=`.
DEFAULT_MAX_RETRIES = 3


class SdkLLM(LLM):
    """A provider behind an official SDK: the key and URL from the arguments or the environment,
    one SDK client that does the retrying, and its errors as ProviderError (`_ask`)."""

    package: ClassVar[str]  # the SDK's import name, also the name of the extra that installs it
    default_model: ClassVar[str]
    key_var: ClassVar[str]  # the environment variable holding the API key
    url_var: ClassVar[str]  # ... and the one holding the server's URL
    keyless: ClassVar[str | None] = None  # the key sent to a server given by URL when none is set
    no_key: ClassVar[str]  # what to do when there is no key

    def __init__(self, model: str = "", api_key: str | None = None, base_url: str | None = None, *,
                 timeout: float = 120.0, max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        self._sdk = require(self.package, self.package)
        self.base_url = base_url or os.environ.get(self.url_var) or None
        api_key = api_key or os.environ.get(self.key_var) or (self.keyless if self.base_url else None)
        if not api_key:
            raise ConfigError(self.no_key)
        self.model = model or self.default_model
        self.max_retries = max_retries
        # The SDK retries (backoff with jitter, honouring retry-after): see this module's docstring.
        self._client = self._connect(api_key=api_key, base_url=self.base_url, timeout=timeout, max_retries=max_retries)

    @abstractmethod
    def _connect(self, **options: Any) -> Any:
        """The SDK's client made with `options`."""

    def _ask(self, create: Callable[..., Any], params: Mapping[str, Any], parse: Callable[[Any], Reply]) -> Reply:
        """`create(**params)` through the SDK, its response read by `parse`; failures as ProviderError."""
        what = f"{self.flavour} model {self.model!r} at {self._client.base_url}"
        response = call(lambda: create(**params), self._sdk, what, self.key_var, self.max_retries + 1)
        return checked(parse, response, what)


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
