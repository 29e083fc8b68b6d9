"""`engram serve`: a REST API over `Memory`, with API keys scoped to subjects, and the inspector page.

    app = create_app(lambda: Memory("memory.db"))      # any ASGI server; `engram serve` runs uvicorn

Every route is a few lines over `Memory`; who may touch which subject is `engram.safety.keys`. The
OpenAPI 3.1 document (`/openapi.json`) is built from the same schemas that check requests, so
the two cannot drift. Errors are JSON `{"error": {"type", "message"}}` with a 4xx naming the
problem: 400 bad input, 401 missing/unknown key, 403 subject not granted, 404 unknown id,
413 body over the cap, 415 not JSON. Each write is one transaction, so a failed or abandoned
request leaves nothing half-written.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.errors import (
    AccessDenied,
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

# -- schemas (they check requests and document them) -----------------------------------------
SUBJECT = {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9_.-]{0,63}:[A-Za-z0-9_.@:+/=~-]{1,256}$",
           "description": "Whose memory, as kind:name (e.g. user:42).", "example": "user:42"}
KIND = {"type": "string", "pattern": r"^[a-z][a-z_]{1,31}$", "description": "fact, preference, procedure, ..."}
# Control characters other than whitespace are refused (engram.validate.clean_text); so says the schema.
PLAIN = r"^[^\u0000-\u0008\u000e-\u001b\u007f-\u0084\u0086-\u009f]*$"
TEXT = {"type": "string", "minLength": 1, "maxLength": 4000, "pattern": PLAIN}
NULLABLE_STR = {"type": ["string", "null"]}


def _obj(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


REMEMBER_BODY = _obj(
    ["subject", "text"], subject=SUBJECT,
    text={**TEXT, "description": "One short fact (10-300 characters for a fact)."},
    source={**TEXT, "minLength": 0, "maxLength": 1000, "description": "Where it came from: turn id, URL, agent."},
    kind=KIND, event_at={"type": "string", "format": "date-time", "maxLength": 64,
                         "description": "When it happened (ISO 8601), if not now."})
RECALL_BODY = _obj(
    ["subject", "query"], subject=SUBJECT, query={**TEXT, "description": "What to look for."},
    k={"type": "integer", "minimum": 1, "maximum": 100, "default": 5},
    kinds={"type": "array", "items": KIND, "maxItems": 10},
    recency={"type": "number", "minimum": 0, "maximum": 10, "description": "Weight of recency (default: tie-break)."},
    explain={"type": "boolean", "default": False, "description": "Return every score component."})
FORGET_BODY = _obj(
    ["subject", "match"], subject=SUBJECT,
    match={**TEXT, "maxLength": 300, "description": "Forget every memory whose text contains this (any case)."},
    confirm={"type": "boolean", "default": False, "description": "false: preview only. true: delete."})
KEY_BODY = _obj(
    [], subjects={"type": "array", "maxItems": 100, "items": {"type": "string", "maxLength": 330},
                  "description": "Subjects (user:1) or prefixes ending at a separator then * (team:acme:*)."},
    admin={"type": "boolean", "default": False}, name={"type": "string", "maxLength": 200})

ITEM = {"type": "object", "required": ["id", "subject", "text", "kind", "source", "created_at"], "properties": {
    "id": {"type": "string"}, "subject": {"type": "string"}, "text": {"type": "string"}, "kind": {"type": "string"},
    "source": {"type": "string"}, "agent": {"type": "string"}, "key": NULLABLE_STR, "category": NULLABLE_STR,
    "session": NULLABLE_STR, "created_at": {"type": "string"}, "event_at": {"type": "string"},
    "valid_from": {"type": "string"}, "valid_to": NULLABLE_STR, "superseded_by": NULLABLE_STR,
    "confidence": {"type": "number"}, "importance": {"type": "number"}, "access_count": {"type": "integer"},
    "last_accessed": NULLABLE_STR, "content_hash": {"type": "string"}, "metadata": {"type": "object"}}}
HIT = {"allOf": [{"$ref": "#/components/schemas/Item"}, {"type": "object", "required": ["score"], "properties": {
    "score": {"type": "number"}, "explain": {"type": "object", "additionalProperties": {"type": "number"}}}}]}
SAVED = {"type": "object", "required": ["saved", "id", "reason"], "properties": {
    "saved": {"type": "boolean"}, "id": NULLABLE_STR, "reason": NULLABLE_STR,
    "superseded": {"type": "array", "items": {"type": "string"}}}}
KEY = {"type": "object", "required": ["id", "subjects", "admin"], "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}, "subjects": {"type": "array", "items": {"type": "string"}},
    "admin": {"type": "boolean"}, "created_at": {"type": "number"},
    "ambiguous": {"type": "array", "items": {"type": "string"},
                  "description": "Old prefix grants that stop mid-name (team:acme*): replace this key."},
    "key": {"type": "string", "description": "The secret token: shown in this response only."}}}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["type", "message"],
    "properties": {"type": {"type": "string"}, "message": {"type": "string"}}}}}


# -- request checking ---------------------------------------------------------------------------
_JSON_TYPES = {"string": str, "boolean": bool, "array": list, "object": dict, "null": type(None)}


def _is(type_name: str, value: Any) -> bool:
    if type_name in ("integer", "number") and isinstance(value, bool):
        return False
    if type_name == "integer":
        return isinstance(value, int)
    if type_name == "number":
        return isinstance(value, (int, float))
    return isinstance(value, _JSON_TYPES[type_name])


def _json_type(value: Any) -> str:
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "null" if value is None else type(value).__name__)


def check(schema: dict[str, Any], value: Any, where: str) -> None:
    """Raise InvalidInput naming `where` if `value` breaks `schema` (the subset of JSON Schema used here)."""
    types = schema.get("type")
    allowed = types if isinstance(types, list) else [types] if types else []
    if allowed and not any(_is(t, value) for t in allowed):
        raise InvalidInput(f"{where} must be {' or '.join(allowed)}, not {_json_type(value)}")
    if isinstance(value, str):
        if schema.get("format") == "date-time":
            validate.timestamp(value, where)
        if len(value) < schema.get("minLength", 0):
            raise InvalidInput(f"{where} is empty" if not value else f"{where} is too short")
        if len(value) > schema.get("maxLength", len(value)):
            raise InvalidInput(f"{where} is {len(value)} characters; at most {schema['maxLength']}")
        if "pattern" in schema and not re.fullmatch(schema["pattern"].strip("^$"), value):
            raise InvalidInput(f"{where} {value[:80]!r} is not valid: " +
                               ("it has control characters" if schema["pattern"] == PLAIN else
                                schema.get("description", schema["pattern"])))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if not schema.get("minimum", value) <= value <= schema.get("maximum", value):
            raise InvalidInput(f"{where} must be between {schema.get('minimum')} and {schema.get('maximum')}, not {value}")
    elif isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            raise InvalidInput(f"{where} has {len(value)} entries; at most {schema['maxItems']}")
        for i, entry in enumerate(value):
            check(schema.get("items", {}), entry, f"{where}[{i}]")
    elif isinstance(value, dict):
        _check_object(schema, value, where)


def _check_object(schema: dict[str, Any], value: dict[str, Any], where: str) -> None:
    props = schema.get("properties", {})
    missing = [name for name in schema.get("required", ()) if name not in value]
    if missing:
        raise InvalidInput(f"{where} is missing {', '.join(missing)}")
    unknown = [name for name in value if name not in props]
    if unknown and schema.get("additionalProperties") is False:
        raise InvalidInput(f"{where} has unknown field(s) {', '.join(unknown)}; known: {', '.join(props)}")
    for name, entry in value.items():
        if name in props:
            check(props[name], entry, name)


def _refuse_constant(name: str) -> None:
    raise InvalidInput(f"request body is not valid JSON: {name} is not a number")


async def read_json(request: Request, schema: dict[str, Any], limit: int) -> dict[str, Any]:
    """The request's JSON body, checked against `schema`; 413 past `limit` bytes, 415 if not JSON."""
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
    check(schema, value, "body")
    return value


def read_query(request: Request, params: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The query parameters named in `params` (name -> schema), converted and checked; others refused."""
    unknown = [name for name in request.query_params if name not in params]
    if unknown:
        raise InvalidInput(f"unknown query parameter(s) {', '.join(unknown)[:200]}; known: {', '.join(params)}")
    return {name: _query_value(request, name, schema) for name, schema in params.items()}


def _query_value(request: Request, name: str, schema: dict[str, Any]) -> Any:
    raw = request.query_params.get(name)
    if raw is None:
        if schema.get("required"):
            raise InvalidInput(f"query parameter {name} is required")
        return schema.get("default")
    value: Any = raw
    if schema.get("type") == "integer":
        if not re.fullmatch(r"-?\d{1,9}", raw):
            raise InvalidInput(f"query parameter {name} must be a whole number, not {raw[:40]!r}")
        value = int(raw)
    elif schema.get("type") == "boolean":
        if raw not in ("true", "false"):
            raise InvalidInput(f"query parameter {name} must be true or false, not {raw[:40]!r}")
        value = raw == "true"
    check(schema, value, f"query parameter {name}")
    return value


# -- responses ----------------------------------------------------------------------------------
STATUS = ((InvalidInput, 400), (AccessDenied, 403), (NotFound, 404), (StoreFull, 507),
          ((StoreBusy, StoreUnavailable, EmbedderError, ProviderError, MissingDependency), 503))


def error(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
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
    return request.app.state.memory


def keyring(request: Request) -> KeyRing:
    return request.app.state.keys


async def run(fn: Callable[[], Any]) -> Any:
    """Run a blocking Memory call off the event loop, so other requests keep being served."""
    return await anyio.to_thread.run_sync(fn)


# -- routes: each a few lines over Memory -------------------------------------------------------
@endpoint
async def remember(request: Request) -> Response:
    key, body = authenticate(request), await read_json(request, REMEMBER_BODY, request.app.state.max_body)
    subject = key.check(body["subject"])
    saved = await run(lambda: memory(request).remember(
        subject, body["text"], source=body.get("source", ""), kind=body.get("kind", "fact"),
        event_at=body.get("event_at")))
    return JSONResponse(saved.to_dict(), 201 if saved.saved else 200)


@endpoint
async def list_items(request: Request) -> Response:
    key, q = authenticate(request), read_query(request, LIST_PARAMS)
    subject = key.check(q["subject"])
    items = await run(lambda: memory(request).items(subject, kinds=[q["kind"]] if q["kind"] else None,
                                                    limit=q["limit"], include_superseded=q["all"]))
    return JSONResponse([it.to_dict() for it in items])


@endpoint
async def get_item(request: Request) -> Response:
    key, item_id = authenticate(request), request.path_params["id"]
    item = await run(lambda: memory(request).get(item_id))
    if not key.allows(item.subject):  # a key must not learn that another subject's id exists
        raise NotFound(f"no memory with id {item_id!r}")
    history = await run(lambda: memory(request).history(item_id))
    return JSONResponse({"item": item.to_dict(), "history": [it.to_dict() for it in history]})


@endpoint
async def delete_item(request: Request) -> Response:
    key, item_id = authenticate(request), request.path_params["id"]
    item = await run(lambda: memory(request).get(item_id))
    if not key.allows(item.subject):
        raise NotFound(f"no memory with id {item_id!r}")
    count = await run(lambda: memory(request).forget_ids(item.subject, [item_id]))
    return JSONResponse({"forgotten": count})


@endpoint
async def recall(request: Request) -> Response:
    key, body = authenticate(request), await read_json(request, RECALL_BODY, request.app.state.max_body)
    subject = key.check(body["subject"])
    hits = await run(lambda: memory(request).recall(
        subject, body["query"], k=body.get("k", 5), kinds=body.get("kinds"), recency=body.get("recency"),
        explain=body.get("explain", False)))
    return JSONResponse([h.to_dict() for h in hits])


@endpoint
async def forget(request: Request) -> Response:
    key, body = authenticate(request), await read_json(request, FORGET_BODY, request.app.state.max_body)
    subject, mem = key.check(body["subject"]), memory(request)
    if not body.get("confirm", False):
        found = await run(lambda: mem.matches(subject, body["match"]))
        return JSONResponse({"would_forget": len(found), "items": [it.to_dict() for it in found]})
    return JSONResponse({"forgotten": await run(lambda: mem.forget(subject, body["match"]))})


@endpoint
async def subjects(request: Request) -> Response:
    key = authenticate(request)
    counts = key.visible(await run(memory(request).subjects))
    return JSONResponse([{"subject": name, "items": n} for name, n in counts.items()])


@endpoint
async def me(request: Request) -> Response:
    return JSONResponse(authenticate(request).to_dict())


@endpoint
async def list_keys(request: Request) -> Response:
    authenticate(request).require_admin()
    return JSONResponse([k.to_dict() for k in await run(keyring(request).list)])


@endpoint
async def create_key(request: Request) -> Response:
    authenticate(request).require_admin()
    body = await read_json(request, KEY_BODY, request.app.state.max_body)
    token, made = await run(lambda: keyring(request).create(
        body.get("subjects", ()), admin=body.get("admin", False), name=body.get("name", "")))
    return JSONResponse({**made.to_dict(), "key": token}, 201)


@endpoint
async def revoke_key(request: Request) -> Response:
    authenticate(request).require_admin()
    gone = await run(lambda: keyring(request).revoke(request.path_params["id"]))
    return JSONResponse(gone.to_dict())


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def openapi(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)


async def inspector(request: Request) -> Response:
    return FileResponse(STATIC / "inspector.html", headers=PAGE_HEADERS)


# The page loads only its own script and style and talks only to this server.
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
LIST_PARAMS = {"subject": {**SUBJECT, "required": True}, "kind": KIND,
               "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
               "all": {"type": "boolean", "default": False, "description": "Include superseded versions."}}


# -- the OpenAPI document, from the same table as the routes ------------------------------------
def _param(name: str, where: str, schema: dict[str, Any], required: bool = False) -> dict[str, Any]:
    clean = {k: v for k, v in schema.items() if k != "required"}
    return {"name": name, "in": where, "required": required or bool(schema.get("required")), "schema": clean}


ID_PARAM = _param("id", "path", {"type": "string", "maxLength": 64}, required=True)
OPERATIONS: list[tuple[str, str, Handler, str, dict[str, Any]]] = [
    ("POST", "/v1/memories", remember, "Remember one fact (201 saved; 200 not saved, with the reason)",
     {"body": REMEMBER_BODY, "ok": {"201": SAVED, "200": SAVED}}),
    ("GET", "/v1/memories", list_items, "List a subject's memories, newest first",
     {"params": [_param(name, "query", schema) for name, schema in LIST_PARAMS.items()],
      "ok": {"200": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}),
    ("GET", "/v1/memories/{id}", get_item, "One memory with its history (the versions it replaced)",
     {"params": [ID_PARAM], "ok": {"200": {"type": "object", "required": ["item", "history"], "properties": {
         "item": {"$ref": "#/components/schemas/Item"},
         "history": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}}),
    ("DELETE", "/v1/memories/{id}", delete_item, "Forget one memory by id",
     {"params": [ID_PARAM], "ok": {"200": {"type": "object", "properties": {"forgotten": {"type": "integer"}}}}}),
    ("POST", "/v1/recall", recall, "The memories most relevant to a query, best first",
     {"body": RECALL_BODY, "ok": {"200": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}}}}),
    ("POST", "/v1/forget", forget, "Preview (default) or delete every memory containing a phrase",
     {"body": FORGET_BODY, "ok": {"200": {"type": "object", "properties": {
         "would_forget": {"type": "integer"}, "forgotten": {"type": "integer"},
         "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}}),
    ("GET", "/v1/subjects", subjects, "The subjects this key may see, with item counts",
     {"ok": {"200": {"type": "array", "items": {"type": "object", "properties": {
         "subject": {"type": "string"}, "items": {"type": "integer"}}}}}}),
    ("GET", "/v1/me", me, "The calling key (id, grants, role)", {"ok": {"200": {"$ref": "#/components/schemas/Key"}}}),
    ("GET", "/v1/keys", list_keys, "Every API key (admin)",
     {"ok": {"200": {"type": "array", "items": {"$ref": "#/components/schemas/Key"}}}}),
    ("POST", "/v1/keys", create_key, "Create an API key; the token is in this response only (admin)",
     {"body": KEY_BODY, "ok": {"201": {"$ref": "#/components/schemas/Key"}}}),
    ("DELETE", "/v1/keys/{id}", revoke_key, "Revoke an API key (admin)",
     {"params": [{**ID_PARAM, "schema": {"type": "string", "minLength": 6, "maxLength": 64}}],
      "ok": {"200": {"$ref": "#/components/schemas/Key"}}}),
]
ERRORS = {"400": "bad input (the message names it)", "401": "missing or unknown API key",
          "403": "the key has no grant for that subject", "404": "no such id", "413": "body over the size cap",
          "415": "body is not JSON", "503": "store busy or unavailable; retry"}


def _operation(summary: str, spec: dict[str, Any]) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "operationId": summary.split(" (")[0].lower().replace(" ", "_")[:40],
                          "parameters": spec.get("params", []), "responses": {}}
    for code, schema in spec["ok"].items():
        op["responses"][code] = {"description": "OK", "content": {"application/json": {"schema": schema}}}
    for code, text in ERRORS.items():
        op["responses"][code] = {"description": text, "content": {"application/json": {"schema": ERROR_REF}}}
    if "body" in spec:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": spec["body"]}}}
    return op


ERROR_REF = {"$ref": "#/components/schemas/Error"}


def openapi_document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the REST API."""
    paths: dict[str, dict[str, Any]] = {}
    for method, path, _, summary, spec in OPERATIONS:
        paths.setdefault(path, {})[method.lower()] = _operation(summary, spec)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Engram", "version": version,
                 "description": "Long-term memory for LLM agents. Keys are scoped to subjects."},
        "paths": paths,
        "components": {"schemas": {"Item": ITEM, "Hit": HIT, "Saved": SAVED, "Key": KEY, "Error": ERROR},
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
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
    for method, path, handler, _, _ in OPERATIONS:
        by_path.setdefault(path, {})[method] = handler
    # One Route per path, so a 405 lists every method the path has in `Allow`.
    routes: list[Any] = [Route(path, _dispatch(handlers), methods=list(handlers)) for path, handlers in by_path.items()]
    routes += [Route("/", inspector), Route("/healthz", health), Route("/openapi.json", openapi),
               Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error, Exception: _crash})
    app.state.max_body = max_body
    app.state.openapi = openapi_document(__version__)
    return app
