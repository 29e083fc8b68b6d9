"""`engram mcp`: serve the memory to any MCP client, over stdio (default) or streamable HTTP."""

from __future__ import annotations

import click


def register(main: click.Group) -> None:
    main.add_command(mcp)


@click.command()
@click.option("--subject", envvar="ENGRAM_SUBJECT", default=None,
              help="Default subject for tool calls that name none (e.g. user:me). Env: ENGRAM_SUBJECT.")
@click.option("--http", "http", is_flag=True, help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address for --http (no auth: keep it local).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port for --http.")
@click.pass_context
def mcp(ctx: click.Context, subject: str | None, http: bool, host: str, port: int) -> None:
    """Serve tools remember, recall, forget and list over MCP (stdio unless --http)."""
    from engram.interfaces.mcp import build_server, serve
    from engram.core.memory import Memory

    root = ctx.find_root().obj or {}
    server = build_server(lambda: Memory(root.get("db"), embedder=root.get("embedder"), agent=root.get("agent")),
                          default_subject=subject)
    if http:
        click.echo(f"engram MCP server on http://{host}:{port}/mcp (Ctrl+C stops it)", err=True)
    serve(server, "streamable-http" if http else "stdio", host=host, port=port)
