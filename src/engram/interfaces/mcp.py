"""Engram as an MCP server: the verbs `engram.verbs` offers on MCP (remember, recall, forget, list).

The only module that imports the MCP SDK (`pip install 'engramdb[mcp]'`, `mcp>=2.3,<3`, whose
high-level server is `MCPServer`). Each tool's schema, validation (jsonschema) and handler come
from `engram.verbs`; this module only connects them to the SDK. Every Engram error comes back as
an MCP tool error (`isError: true`) carrying its message, so a model can correct itself, and the
server keeps running.

    server = build_server(lambda: Memory("memory.db"), default_subject="user:me")
    server.run("stdio")
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from engram.errors import EngramError, require
from engram.verbs import Call, Verb, reply_schema, verb_specs

require("mcp", "mcp")

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import func_metadata
from mcp_types import ToolAnnotations

if TYPE_CHECKING:
    from engram.core.memory import Memory

INSTRUCTIONS = (
    "Long-term memory for this user. Call `recall` before answering anything that may depend on "
    "what the user told you earlier. Call `remember` when the user states one durable fact about "
    "themselves, their work or their preferences. Use `forget` when the user asks you to forget; "
    "show them the preview first and confirm only after they agree."
)


def _reply() -> dict[str, Any]:
    """Never called: its return annotation gives every verb tool the SDK's JSON-object result."""
    raise NotImplementedError


REPLY = func_metadata(_reply)
NOTE = {"type": "string", "description": "What the server changed in the call (e.g. 'k capped at 10')."}


def output_schema(verb: Verb) -> dict[str, Any]:
    """The JSON schema of a verb tool's structured result: the verb's reply on MCP, a list wrapped as
    {"memories": [...]} (see `run_verb`), and the optional `note`."""
    reply = reply_schema(verb, "mcp")
    if reply.get("type") == "array":
        return {"type": "object", "properties": {"memories": reply, "note": NOTE}, "required": ["memories"],
                "additionalProperties": False}
    return {**reply, "properties": {**reply["properties"], "note": NOTE}}


class VerbTool(Tool):
    """An MCP tool whose schema and checks come from an `engram.verbs.Verb` (validated with
    jsonschema there), instead of from a Python signature."""

    async def run(self, arguments: dict[str, Any], context: Context[Any, Any],
                  convert_result: bool = False) -> Any:
        try:
            result = await anyio.to_thread.run_sync(functools.partial(self.fn, arguments, context))
        except (EngramError, ToolError) as exc:
            raise ToolError(f"Error executing tool {self.name}: {exc}") from exc
        except Exception as exc:  # a crash: its text stays in the server log, as the SDK's own tools do
            raise UnexpectedToolError(f"Error executing tool {self.name}") from exc
        return self.fn_metadata.convert_result(result) if convert_result else result


def run_verb(verb: Verb, arguments: dict[str, Any], ctx: Context[Any, Any]) -> dict[str, Any]:
    """One call: arguments checked by the verb, the subject defaulted, the reply as a JSON object
    (a list comes as {"memories": [...]}, since an MCP tool result is an object)."""
    state = ctx.request_context.lifespan_context
    notes: list[str] = []
    args = verb.arguments("mcp", arguments, notes)
    subject = args.pop("subject", None) or state["default_subject"]
    if not subject and any(a.name == "subject" for a in verb.args):
        raise ToolError("pass `subject` (e.g. 'user:42'); this server has no default subject "
                        "(start it with --subject or ENGRAM_SUBJECT)")
    reply = verb.handler(Call(state["memory"], args, "mcp", subject=subject, notes=notes))
    out: dict[str, Any] = {"memories": reply} if isinstance(reply, list) else reply
    if notes:
        out["note"] = "; ".join(notes)
    return out


def verb_tool(verb: Verb) -> VerbTool:
    """The MCP tool of one verb: its name, title, description, schema and hints from the definition."""
    hints = ToolAnnotations(read_only_hint=verb.read_only, destructive_hint=verb.destructive,
                            idempotent_hint=verb.idempotent, open_world_hint=False)
    return VerbTool(fn=functools.partial(run_verb, verb), name=verb.name, title=verb.title,
                    description=verb.description, parameters=verb.schema("mcp"),
                    fn_metadata=REPLY.model_copy(update={"output_schema": output_schema(verb)}),
                    is_async=False, context_kwarg=None, annotations=hints)


def build_server(open_memory: Callable[[], Memory], *, default_subject: str | None = None) -> MCPServer:
    """An MCP server whose tools work on the Memory `open_memory()` returns (opened once, closed at shutdown)."""
    if default_subject:
        from engram import validate

        default_subject = validate.subject(default_subject)

    @asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[dict[str, Any]]:
        mem = open_memory()
        try:
            yield {"memory": mem, "default_subject": default_subject}
        finally:
            mem.close()

    from engram import __version__

    tools: list[Tool] = [verb_tool(verb) for verb in verb_specs("mcp")]
    return MCPServer("engram", title="Engram memory", instructions=INSTRUCTIONS, version=__version__,
                     lifespan=lifespan, log_level="WARNING", tools=tools)


def serve(server: MCPServer, transport: str = "stdio", *, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run until the client hangs up (stdio) or the process is stopped (streamable HTTP)."""
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)
