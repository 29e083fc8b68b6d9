"""Real HTTP servers on 127.0.0.1 that speak the Anthropic and OpenAI wire formats.

One `WireServer` (a ThreadingHTTPServer in a thread) serves
  POST /v1/messages           Anthropic Messages
  POST /v1/chat/completions   OpenAI Chat Completions
  POST /v1/embeddings         OpenAI embeddings (float or base64), deterministic vectors
It checks the API key and validates each request the way the real APIs do (tool calls must be
answered by the next message, tool definitions well formed, ...), answering 400/401 in the
provider's error shape; records every request; and replies from a queue of scripted
`Response`s, or with an echo of the last user message when the queue is empty.

Use the fixtures `anthropic_server` / `openai_server` by importing them into a test module
(tests/ is on sys.path under pytest's default import mode):
    from wire_servers import anthropic_server_fixture  # noqa: F401 (provides `anthropic_server`)
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

API_KEY = "test-key"
ANTHROPIC_MESSAGES = "/v1/messages"
OPENAI_CHAT = "/v1/chat/completions"
OPENAI_EMBEDDINGS = "/v1/embeddings"
_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
MEMORY_TOOL = "memory_20250818"
MEMORY_BETA = "context-management-2025-06-27"
MESSAGE_THREADS_BETA = "message-threads-2026-08-12"


@dataclass
class Response:
    """A scripted reply: status, JSON body (dict) or raw bytes, extra headers."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Recorded:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw or b"null")


class BadRequest(Exception):
    """A request the real API would refuse; becomes a 400 (or `status`) in the provider's shape."""

    def __init__(self, message: str, status: int = 400, kind: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status, self.kind = status, kind


# ---------------------------------------------------------------- response builders


def anthropic_message(
    text: str = "",
    tool_calls: tuple[dict, ...] = (),
    stop_reason: str | None = None,
    usage: tuple[int, int] = (12, 7),
    model: str = "claude-test",
) -> dict:
    """A Messages API response body; `tool_calls` items are {"id", "name", "input"}."""
    content: list[dict] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", **call} for call in tool_calls]
    return {
        "id": "msg_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason or ("tool_use" if tool_calls else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


def anthropic_error(kind: str, message: str) -> dict:
    """An Anthropic error body, e.g. kind="rate_limit_error" or "overloaded_error"."""
    return {"type": "error", "error": {"type": kind, "message": message}}


def openai_completion(
    text: str | None = None,
    tool_calls: tuple[dict, ...] = (),
    finish_reason: str | None = None,
    usage: tuple[int, int] = (12, 7),
    model: str = "gpt-test",
) -> dict:
    """A Chat Completions response body; `tool_calls` items are {"id", "name", "arguments"} (str or dict)."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"]
                    if isinstance(c["arguments"], str)
                    else json.dumps(c["arguments"]),
                },
            }
            for c in tool_calls
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


def openai_error(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict:
    """An OpenAI error body."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def fake_vector(text: str, dim: int) -> list[float]:
    """A deterministic unit vector for `text` (what /v1/embeddings returns)."""
    raw = b"".join(hashlib.sha256(f"{i}:{text}".encode()).digest() for i in range(dim // 8 + 1))
    values = [v / 2**31 for v in struct.unpack(f"<{dim}i", raw[: 4 * dim])]
    norm = sum(v * v for v in values) ** 0.5 or 1.0
    return [v / norm for v in values]


# ---------------------------------------------------------------- request validation


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise BadRequest(message)


def validate_anthropic(headers: dict[str, str], body: Any, api_key: str) -> None:
    """Raise BadRequest where the Messages API would refuse the request."""
    # anthropic<1 sends x-api-key; newer SDKs send the key as a bearer token.
    if api_key not in (headers.get("x-api-key"), headers.get("authorization", "").removeprefix("Bearer ")):
        raise BadRequest("invalid x-api-key", 401, "authentication_error")
    _need("anthropic-version" in headers, "anthropic-version: header is required")
    _need(isinstance(body, dict), "request body must be a JSON object")
    _need(isinstance(body.get("model"), str) and body["model"], "model: Field required")
    _need(isinstance(body.get("max_tokens"), int) and body["max_tokens"] >= 1, "max_tokens: must be >= 1")
    system = body.get("system", "")
    _need(
        isinstance(system, str)
        or (isinstance(system, list) and all(b.get("type") == "text" for b in system)),
        "system: must be a string or a list of text blocks",
    )
    tools = body.get("tools") or []
    for i, tool in enumerate(tools):
        if tool.get("type") == MEMORY_TOOL:  # the client-side memory tool: a fixed name, no schema, a beta
            _need(tool.get("name") == "memory", f"tools.{i}.name: Input should be 'memory'")
            _need(MEMORY_BETA in headers.get("anthropic-beta", ""),
                  f"tools.{i}: the {MEMORY_TOOL} tool needs the anthropic-beta header {MEMORY_BETA}")
            continue
        _need(tool.get("type") in (None, "custom"), f"tools.{i}.type: unknown tool type {tool.get('type')!r}")
        _need(
            isinstance(tool.get("name"), str) and _TOOL_NAME.match(tool["name"]) is not None,
            f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,128}}$'",
        )
        _need(
            isinstance(tool.get("input_schema"), dict) and tool["input_schema"].get("type") == "object",
            f"tools.{i}.input_schema: Input should be a JSON schema of type object",
        )
    if "tool_choice" in body:
        _need(body["tool_choice"].get("type") in ("auto", "any", "tool", "none"), "tool_choice.type: invalid")
    _validate_anthropic_messages(body.get("messages"), bool(tools))


def _validate_anthropic_messages(messages: Any, has_tools: bool) -> None:
    _need(isinstance(messages, list) and messages, "messages: at least one message is required")
    _need(messages[0].get("role") == "user", 'messages: first message must use the "user" role')
    pending: set[str] = set()
    uses_tools = False
    for i, message in enumerate(messages):
        role, content = message.get("role"), message.get("content")
        _need(role in ("user", "assistant"), f"messages.{i}.role: Input should be 'user' or 'assistant'")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        _need(isinstance(blocks, list) and blocks, f"messages.{i}: all messages must have non-empty content")
        for j, block in enumerate(blocks):
            kind = block.get("type")
            if kind == "text":
                _need(
                    isinstance(block.get("text"), str) and block["text"],
                    f"messages.{i}.content.{j}: text content blocks must be non-empty",
                )
            elif kind == "tool_use":
                _need(
                    role == "assistant",
                    f"messages.{i}.content.{j}: tool_use is only allowed in assistant turns",
                )
                _need(
                    isinstance(block.get("input"), dict), f"messages.{i}.content.{j}.input: must be an object"
                )
            elif kind == "tool_result":
                _need(role == "user", f"messages.{i}.content.{j}: tool_result is only allowed in user turns")
                _need(
                    block.get("tool_use_id") in pending,
                    f"messages.{i}.content.{j}: unexpected `tool_use_id` "
                    "found in `tool_result` blocks; each must have a corresponding `tool_use` block in the "
                    "previous message",
                )
            uses_tools |= kind in ("tool_use", "tool_result")
        answered = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
        _need(
            pending <= answered,
            f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
            f"immediately after: {sorted(pending - answered)}",
        )
        pending = {b["id"] for b in blocks if b.get("type") == "tool_use"} if role == "assistant" else set()
    _need(
        has_tools or not uses_tools,
        "Requests which include `tool_use` or `tool_result` blocks must define tools.",
    )


def validate_openai(headers: dict[str, str], body: Any, api_key: str, chat: bool = True) -> None:
    """Raise BadRequest where Chat Completions (or embeddings, chat=False) would refuse the request."""
    if headers.get("authorization") != f"Bearer {api_key}":
        raise BadRequest("Incorrect API key provided.", 401, "invalid_request_error")
    _need(isinstance(body, dict), "We could not parse the JSON body of your request.")
    _need(isinstance(body.get("model"), str) and body["model"], "you must provide a model parameter")
    if not chat:
        _need(isinstance(body.get("input"), (str, list)) and body["input"], "'input' is a required property")
        return
    for key in ("max_tokens", "max_completion_tokens"):
        _need(key not in body or (isinstance(body[key], int) and body[key] >= 1), f"'{key}' must be >= 1")
    for i, tool in enumerate(body.get("tools") or []):
        fn = tool.get("function") or {}
        _need(
            tool.get("type") == "function"
            and isinstance(fn.get("name"), str)
            and _TOOL_NAME.match(fn["name"]),
            f"Invalid 'tools[{i}]': expected an object with type 'function' and a valid function.name",
        )
        _need(isinstance(fn.get("parameters", {}), dict), f"Invalid 'tools[{i}].function.parameters'")
    choice = body.get("tool_choice", "auto")
    _need(
        choice in ("none", "auto", "required") or isinstance(choice, dict), "Invalid value for 'tool_choice'"
    )
    _validate_openai_messages(body.get("messages"))


def _validate_openai_messages(messages: Any) -> None:
    _need(isinstance(messages, list) and messages, "'messages' must contain at least one message")
    pending: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role")
        _need(role in ("system", "developer", "user", "assistant", "tool"), f"Invalid 'messages[{i}].role'")
        if role == "tool":
            _need(
                message.get("tool_call_id") in pending,
                f"Invalid parameter: messages with role 'tool' must be a "
                f"response to a preceding message with 'tool_calls' (messages[{i}])",
            )
            _need(isinstance(message.get("content"), (str, list)), f"Missing 'messages[{i}].content'")
            pending.discard(message["tool_call_id"])
            continue
        _need(
            not pending,
            "An assistant message with 'tool_calls' must be followed by tool messages responding "
            f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: {sorted(pending)}",
        )
        calls = message.get("tool_calls") or []
        _need(
            role == "assistant" or not calls,
            f"Invalid 'messages[{i}]': only assistant messages have tool_calls",
        )
        _need(message.get("content") is not None or calls, f"Missing 'messages[{i}].content'")
        for j, call in enumerate(calls):
            fn = call.get("function") or {}
            _need(
                call.get("type") == "function"
                and isinstance(call.get("id"), str)
                and isinstance(fn.get("arguments"), str)
                and fn.get("name"),
                f"Invalid 'messages[{i}].tool_calls[{j}]': needs id, type 'function', function.name and "
                "function.arguments as a string",
            )
        pending = {call["id"] for call in calls}


# ---------------------------------------------------------------- default (unscripted) replies


def _last_user_text(messages: list[dict]) -> str:
    """The newest user text, skipping messages that only carry tool results."""
    for message in reversed(messages):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            content = "".join(b.get("text", "") for b in content if b.get("type") == "text")
        if message.get("role") == "user" and content:
            return content
    return ""


def _embeddings(body: dict) -> dict:
    texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
    dim = int(body.get("dimensions") or 8)
    data = []
    for i, text in enumerate(texts):
        vector = fake_vector(str(text), dim)
        if body.get("encoding_format") == "base64":
            vector = base64.b64encode(struct.pack(f"<{dim}f", *vector)).decode()
        data.append({"object": "embedding", "index": i, "embedding": vector})
    tokens = sum(len(str(t).split()) for t in texts)
    return {
        "object": "list",
        "data": data,
        "model": body["model"],
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


# ---------------------------------------------------------------- the server


class WireServer:
    """A scriptable API server on 127.0.0.1; `base_url` suits the SDK of `flavour`."""

    def __init__(self, flavour: str = "anthropic", api_key: str = API_KEY) -> None:
        self.flavour, self.api_key = flavour, api_key
        self.requests: list[Recorded] = []
        self._queue: deque[Response] = deque()
        self._threads: dict[str, dict[str, Any]] = {}  # message-threads: reply id -> fields and conversation
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        # A short poll interval keeps shutdown (and so each test's teardown) fast.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url(self) -> str:
        return self.url if self.flavour == "anthropic" else f"{self.url}/v1"

    def enqueue(self, *responses: Response) -> None:
        """Serve these (in order) to the next requests that pass validation."""
        with self._lock:
            self._queue.extend(responses)

    def bodies(self, path: str | None = None) -> list[Any]:
        """JSON bodies received (on `path`, if given), oldest first."""
        return [r.json for r in self.requests if path is None or r.path == path]

    def start(self) -> WireServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def respond(self, path: str, headers: dict[str, str], raw: bytes) -> Response:
        """What the server answers to one request (validation first, then the queue, then an echo)."""
        path = path.split("?")[0]  # the SDKs' beta endpoints add ?beta=true
        with self._lock:
            self.requests.append(Recorded(path, headers, raw))
        anthropic = path == ANTHROPIC_MESSAGES
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        try:
            if anthropic:
                body = self._threaded(headers, body)
                validate_anthropic(headers, body, self.api_key)
            elif path in (OPENAI_CHAT, OPENAI_EMBEDDINGS):
                validate_openai(headers, body, self.api_key, chat=path == OPENAI_CHAT)
            else:
                return Response(404, openai_error(f"Unknown request URL: POST {path}", code="unknown_url"))
        except BadRequest as exc:
            error = anthropic_error(exc.kind, str(exc)) if anthropic else openai_error(str(exc), exc.kind)
            return Response(exc.status, error)
        with self._lock:
            reply = self._queue.popleft() if self._queue else None
        if reply is None and path == OPENAI_EMBEDDINGS:
            return Response(200, _embeddings(body))
        if reply is None:
            echo = f"echo: {_last_user_text(body['messages'])}"
            reply = Response(200, anthropic_message(echo) if anthropic else openai_completion(echo))
        return self._keep_thread(body, reply) if anthropic and "thread" in body else reply

    def _threaded(self, headers: dict[str, str], body: Any) -> Any:
        """A message-threads request (`thread`: create or continue) as the whole conversation it
        stands for: a `continue` sends only the messages the server lacks after `previous_message_id`."""
        thread = body.get("thread") if isinstance(body, dict) else None
        if thread is None:
            return body
        _need(MESSAGE_THREADS_BETA in headers.get("anthropic-beta", ""),
              f"thread: needs the anthropic-beta header {MESSAGE_THREADS_BETA}")
        _need(thread.get("type") in ("create", "continue"), "thread.type: Input should be 'create' or 'continue'")
        if thread["type"] == "create":
            return body
        with self._lock:
            earlier = self._threads.get(thread.get("previous_message_id"))
        if earlier is None:
            raise BadRequest(f"thread not found: {thread.get('previous_message_id')}", 404, "not_found_error")
        return {**earlier["fields"], **body, "messages": [*earlier["messages"], *(body.get("messages") or [])]}

    def _keep_thread(self, body: dict, reply: Response) -> Response:
        """Give a threaded reply its own id and keep the conversation up to it for a later `continue`."""
        if reply.status != 200 or not isinstance(reply.body, dict) or reply.body.get("type") != "message":
            return reply
        with self._lock:
            message_id = f"msg_thread_{len(self._threads) + 1}"
            answer = {"role": "assistant", "content": reply.body["content"]}
            fields = {k: v for k, v in body.items() if k not in ("messages", "thread")}
            self._threads[message_id] = {"fields": fields, "messages": [*body["messages"], answer]}
        return Response(reply.status, {**reply.body, "id": message_id}, reply.headers)


def _handler_for(server: WireServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the SDKs' connection pools expect
        wbufsize = 1 << 16  # headers and body leave in one segment: no Nagle/delayed-ACK 40 ms stall
        timeout = 10

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                reply = server.respond(self.path, headers, raw)
            except Exception as exc:  # noqa: BLE001 (a server bug must reach the test as an error, not a hang)
                reply = Response(500, {"type": "error", "error": {"type": "api_error", "message": repr(exc)}})
            payload = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

    return Handler


@pytest.fixture(name="anthropic_server")
def anthropic_server_fixture() -> Iterator[WireServer]:
    """A running WireServer whose `base_url` suits `anthropic.Anthropic(base_url=...)`."""
    server = WireServer("anthropic").start()
    yield server
    server.stop()


@pytest.fixture(name="openai_server")
def openai_server_fixture() -> Iterator[WireServer]:
    """A running WireServer whose `base_url` (…/v1) suits `openai.OpenAI(base_url=...)`."""
    server = WireServer("openai").start()
    yield server
    server.stop()


def sdk_retry_waits(caplog: Any) -> list[float]:
    """The waits the official SDKs logged before each retry ("Retrying request ... in 0.5 seconds")."""
    return [round(float(m), 3) for m in re.findall(r"Retrying request.*? in ([\d.]+) seconds", caplog.text)]
