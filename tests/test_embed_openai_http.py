"""OpenAICompatibleEmbedder against a real HTTP server on 127.0.0.1 speaking /v1/embeddings.

The official `openai` SDK must be installed: a missing SDK fails these tests, it does not skip them.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from engram.embed import OpenAICompatibleEmbedder, get_embedder
from engram.errors import ConfigError, EmbedderError

DIM = 16


def server_vector(text: str) -> list[float]:
    """The fake model: a fixed, unnormalised vector per text, independent of Engram's code."""
    digest = hashlib.sha256(text.encode()).digest()
    return [b - 127.5 for b in digest[:DIM]]


class WireServer(ThreadingHTTPServer):
    """Records requests; answers with the next scripted status, then 200 (or `fail_always`)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict] = []
        self.script: list[int] = []
        self.fail_always: int | None = None
        self.reverse = True  # answer rows out of order, as the spec allows (`index` says which)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    server: WireServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), **body}
        )
        status = self.server.fail_always or (
            self.server.script.pop(0) if self.server.script else 200
        )
        if self.path != "/v1/embeddings":
            status = 404
        if status != 200:
            error = {
                "error": {"message": f"scripted {status}", "type": "server_error", "code": None}
            }
            return self._send(status, error)
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": server_vector(t)}
            for i, t in enumerate(texts)
        ]
        if self.server.reverse:
            data.reverse()
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
        self._send(200, {"object": "list", "data": data, "model": body["model"], "usage": usage})

    def _send(self, status: int, payload: dict) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("retry-after-ms", "10")  # keeps the SDK's backoff short in tests
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[WireServer]:
    srv = WireServer()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def expected(texts: list[str]) -> np.ndarray:
    rows = np.array([server_vector(t) for t in texts], dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_embeds_in_input_order_and_learns_dim(server: WireServer) -> None:
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, api_key="sk-test")
    texts = ["Team uses Postgres 16.", "Deploys to AWS Lambda.", "Alice likes tea."]
    vectors = embedder.embed(texts)
    np.testing.assert_allclose(vectors, expected(texts), atol=1e-6)
    assert embedder.identity == "fake-embed:16"
    (request,) = server.requests
    assert request["path"] == "/v1/embeddings" and request["model"] == "fake-embed"
    assert request["auth"] == "Bearer sk-test" and request["encoding_format"] == "float"


def test_batches_of_batch_size(server: WireServer) -> None:
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, batch_size=64)
    texts = [f"fact number {i}" for i in range(150)]
    np.testing.assert_allclose(embedder.embed(texts), expected(texts), atol=1e-6)
    assert [len(r["input"]) for r in server.requests] == [64, 64, 22]


def test_empty_text_is_sent_as_a_space(server: WireServer) -> None:
    OpenAICompatibleEmbedder("fake-embed", base_url=server.url).embed(["", "x"])
    assert server.requests[0]["input"] == [" ", "x"]


def test_rate_limit_then_success_is_retried(server: WireServer) -> None:
    server.script = [429]
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, max_retries=2)
    np.testing.assert_allclose(embedder.embed_one("hello"), expected(["hello"])[0], atol=1e-6)
    assert len(server.requests) == 2


def test_persistent_server_error_raises_a_clear_embedder_error(server: WireServer) -> None:
    server.fail_always = 500
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, max_retries=2)
    with pytest.raises(EmbedderError, match=r"127\.0\.0\.1.*fake-embed.*HTTP 500 after retries"):
        embedder.embed_one("hello")
    assert len(server.requests) == 3  # one try + two SDK retries


def test_unauthorised_is_not_retried_and_names_the_key(server: WireServer) -> None:
    server.fail_always = 401
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, max_retries=3)
    with pytest.raises(EmbedderError, match="HTTP 401.*ENGRAM_EMBED_API_KEY"):
        embedder.embed_one("hello")
    assert len(server.requests) == 1


def test_unreachable_server_raises_embedder_error() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    embedder = OpenAICompatibleEmbedder("m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)
    with pytest.raises(EmbedderError, match="cannot reach the embedding server"):
        embedder.embed_one("hello")


def test_declared_dim_is_checked(server: WireServer) -> None:
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url, dim=32)
    assert embedder.identity == "fake-embed:32" and not server.requests  # no call needed
    with pytest.raises(EmbedderError, match="returned 16-d vectors, expected 32"):
        embedder.embed_one("hello")


def test_unknown_dim_is_probed_once(server: WireServer) -> None:
    embedder = OpenAICompatibleEmbedder("fake-embed", base_url=server.url)
    assert embedder.dim == 16 and embedder.dim == 16
    assert len(server.requests) == 1


def test_registry_builds_it_from_env(server: WireServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_EMBED_BASE_URL", server.url)
    monkeypatch.setenv("ENGRAM_EMBED_API_KEY", "sk-engram")
    embedder = get_embedder("openai:nomic-embed-text:latest")  # Ollama tags contain ':'
    assert isinstance(embedder, OpenAICompatibleEmbedder)
    embedder.embed_one("hi")
    assert server.requests[0]["model"] == "nomic-embed-text:latest"
    assert server.requests[0]["auth"] == "Bearer sk-engram"


def test_no_key_and_no_url_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "ENGRAM_EMBED_BASE_URL",
        "OPENAI_BASE_URL",
        "ENGRAM_EMBED_API_KEY",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ConfigError, match="ENGRAM_EMBED_API_KEY"):
        get_embedder("openai:text-embedding-3-small")
