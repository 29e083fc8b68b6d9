"""`engram serve`: a REST API over `Memory`, with API keys scoped to subjects, and the inspector page.

    app = create_app(lambda: Memory("memory.db"))      # any ASGI server; `engram serve` runs uvicorn

Every route is a verb of `engram.verbs` (the same definitions the agent's tools and MCP use); who
may touch which subject is `engram.safety.keys`. The OpenAPI 3.1 document (`/openapi.json`) is
generated from those definitions, whose schemas also check the requests, so the two cannot drift. Errors are JSON `{"error": {"type", "message"}}` with a 4xx naming the
problem: 400 bad input, 401 missing/unknown key, 403 subject not granted, 404 unknown id,
413 body over the cap, 415 not JSON. Each write is one transaction, so a failed or abandoned
request leaves nothing half-written.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.errors import (
    AccessDenied,
    ConfigError,
    EmbedderError,
    EngramError,
    InvalidInput,
    MissingDependency,
    NotFound,
    ProviderError,
    StoreBusy,
    StoreFull,
    StoreUnavailable,
    require,
)
from engram.safety.keys import ApiKey, KeyRing
from engram.verbs import SCHEMAS, Call, Verb, verb_specs
from engram.verbs import Route as VerbRoute
from engram.verbs.replies import ref

require("starlette", "server")

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

if TYPE_CHECKING:
    from engram.core.memory import Memory

MAX_BODY = 64 * 1024
STATIC = Path(__file__).parent / "static"
log = logging.getLogger("engram.interfaces.rest")

def _refuse_constant(name: str) -> None:
    raise InvalidInput(f"request body is not valid JSON: {name} is not a number")


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON body as an object (the verb checks its fields); 413 past `limit` bytes,
    415 if not JSON."""
    ctype = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if ctype != "application/json" and not ctype.endswith("+json"):
        raise HTTPException(415, f"send the body as application/json, not {ctype}")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, f"request body is {declared} bytes; at most {limit}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"request body is over {limit} bytes")
    try:
        value = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput(f"request body is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(value, dict):
        raise InvalidInput("request body must be a JSON object")
    return value


def read_query(request: Request, verb: Verb) -> dict[str, Any]:
    """The query parameters as the verb's argument types (whole numbers and true/false parsed;
    anything else is left for the verb's schema to refuse with the argument's name)."""
    if request.query_params and not any(a.rest_in == "query" for a in verb.args_on("rest")):
        raise InvalidInput(f"unknown query parameter(s) {', '.join(request.query_params)[:200]}; "
                           f"{verb.route.path if verb.route else verb.name} takes none")
    out: dict[str, Any] = {}
    for name, raw in request.query_params.items():
        kind = next((a.schema.get("type") for a in verb.args if a.name == name or name in a.aliases), None)
        value: Any = raw
        if kind == "integer" and re.fullmatch(r"-?\d{1,9}", raw):
            value = int(raw)
        elif kind == "boolean" and raw in ("true", "false"):
            value = raw == "true"
        out[name] = value
    return out


# -- responses ----------------------------------------------------------------------------------
# A setting the server lacks (no LLM provider for extract) is the server's, not the request's: first.
STATUS = ((ConfigError, 503), (InvalidInput, 400), (AccessDenied, 403), (NotFound, 404), (StoreFull, 507),
          ((StoreBusy, StoreUnavailable, EmbedderError, ProviderError, MissingDependency), 503))


def error(status: int, kind: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status, headers=headers)


HTTP_KINDS = {401: "Unauthorized", 404: "NotFound", 405: "MethodNotAllowed", 413: "BodyTooLarge",
              415: "UnsupportedMediaType"}


def http_error(exc: HTTPException) -> JSONResponse:
    """A Starlette HTTPException as JSON, typed by its status phrase (NotFound, Unauthorized, ...)."""
    kind = HTTP_KINDS.get(exc.status_code) or HTTPStatus(exc.status_code).phrase.title().replace(" ", "")
    return error(exc.status_code, kind, str(exc.detail), exc.headers)


def engram_error(exc: EngramError) -> JSONResponse:
    status = next((code for kinds, code in STATUS if isinstance(exc, kinds)), 500)
    return error(status, type(exc).__name__, str(exc))


Handler = Callable[[Request], Awaitable[Response]]


def endpoint(fn: Handler) -> Handler:
    """Turn Engram and HTTP errors into JSON 4xx/5xx; a client gone mid-body gets a 400 no one reads."""
    async def handle(request: Request) -> Response:
        try:
            return await fn(request)
        except EngramError as exc:
            return engram_error(exc)
        except HTTPException as exc:
            return http_error(exc)
        except ClientDisconnect:
            log.info("client went away before sending its whole request; nothing was done")
            return Response(status_code=400)
    handle.__name__ = fn.__name__
    return handle


def authenticate(request: Request) -> ApiKey:
    """The caller's key from `Authorization: Bearer ...`; 401 if missing or unknown."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    try:
        return keyring(request).authenticate(token.strip() if scheme.lower() == "bearer" else None)
    except AccessDenied as exc:
        raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from None


def memory(request: Request) -> Memory:
    mem: Memory = request.app.state.memory
    return mem


def keyring(request: Request) -> KeyRing:
    ring: KeyRing = request.app.state.keys
    return ring


async def run(fn: Callable[[], Any]) -> Any:
    """Run a blocking Memory call off the event loop, so other requests keep being served."""
    return await anyio.to_thread.run_sync(fn)


# -- routes: one per verb, all alike ----------------------------------------------------------
def verb_route(verb: Verb) -> Handler:
    """The endpoint of one verb: authenticate, gather body, query and path arguments, let the verb
    check them, scope the subject to the key, run the handler off the event loop."""
    route = verb.route
    assert route is not None, verb.name
    has_body = any(a.rest_in == "body" for a in verb.args_on("rest"))

    async def handle(request: Request) -> Response:
        key = authenticate(request)
        raw = await read_json(request, verb.max_body or request.app.state.max_body) if has_body else {}
        raw.update(read_query(request, verb))
        raw.update(request.path_params)
        args = verb.arguments("rest", raw)
        subject = key.check(args.pop("subject")) if "subject" in args else None
        call = Call(memory(request), args, "rest", subject=subject, caller=key, allows=key.allows)
        reply = await run(lambda: verb.handler(call))
        return JSONResponse(reply, route.status(reply))

    handle.__name__ = verb.name
    return endpoint(handle)


async def health(request: Request) -> Response:
    """Liveness, and which worker process answered (`engram serve --workers N` runs several)."""
    return JSONResponse({"ok": True, "worker": os.getpid()})


async def openapi(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)


async def inspector(request: Request) -> Response:
    return FileResponse(STATIC / "inspector.html", headers=PAGE_HEADERS)


# The page loads only its own script and style and talks only to this server.
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


# -- the OpenAPI document, from the same definitions as the routes ------------------------------
ERRORS = {"400": "bad input (the message names it)", "401": "missing or unknown API key",
          "403": "the key has no grant for that subject", "404": "no such id", "413": "body over the size cap",
          "415": "body is not JSON", "503": "store busy or unavailable; retry"}


def _operation(verb: Verb, route: VerbRoute) -> dict[str, Any]:
    params = [{"name": a.name, "in": a.rest_in, "required": a.rest_in == "path" or a.required_on("rest"),
               "schema": a.schema_on("rest", aliases=True)} for a in verb.args_on("rest") if a.rest_in != "body"]
    op: dict[str, Any] = {"summary": route.summary, "operationId": route.summary.split(" (")[0].lower().replace(" ", "_")[:40],
                          "parameters": params, "responses": {}}
    for code, schema in route.reply.items():
        op["responses"][code] = {"description": "OK", "content": {"application/json": {"schema": schema}}}
    for code, text in ERRORS.items():
        op["responses"][code] = {"description": text, "content": {"application/json": {"schema": ref("Error")}}}
    if any(a.rest_in == "body" for a in verb.args_on("rest")):
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": verb.schema("rest", where="body")}}}
    return op


def openapi_document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the REST API, generated from `engram.verbs`."""
    paths: dict[str, dict[str, Any]] = {}
    for verb in verb_specs("rest"):
        assert verb.route is not None, verb.name
        paths.setdefault(verb.route.path, {})[verb.route.method.lower()] = _operation(verb, verb.route)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Engram", "version": version,
                 "description": "Long-term memory for LLM agents. Keys are scoped to subjects."},
        "paths": paths,
        "components": {"schemas": dict(SCHEMAS), "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
    }


# -- the app ----------------------------------------------------------------------------------
async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return http_error(exc)


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return error(500, "InternalError", "unexpected server error; the server log has the details")


def _dispatch(handlers: dict[str, Handler]) -> Handler:
    async def by_method(request: Request) -> Response:
        return await handlers["GET" if request.method == "HEAD" else request.method](request)
    return by_method


def create_app(open_memory: Callable[[], Memory], *, max_body: int = MAX_BODY) -> Starlette:
    """The ASGI app: opens one Memory at startup (lifespan) and closes it at shutdown."""
    from engram import __version__

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.memory = mem = await anyio.to_thread.run_sync(open_memory)
        app.state.keys = KeyRing(mem.store)
        try:
            yield
        finally:
            mem.close()

    by_path: dict[str, dict[str, Handler]] = {}
    for verb in verb_specs("rest"):
        assert verb.route is not None, verb.name
        by_path.setdefault(verb.route.path, {})[verb.route.method] = verb_route(verb)
    # One Route per path, so a 405 lists every method the path has in `Allow`.
    routes: list[Any] = [Route(path, _dispatch(handlers), methods=list(handlers)) for path, handlers in by_path.items()]
    routes += [Route("/", inspector), Route("/healthz", health), Route("/openapi.json", openapi),
               Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error, Exception: _crash})
    app.state.max_body = max_body
    app.state.openapi = openapi_document(__version__)
    return app
