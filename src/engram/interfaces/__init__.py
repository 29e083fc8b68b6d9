"""Ways in from outside the process: the CLI, MCP and REST (with the inspector)."""
