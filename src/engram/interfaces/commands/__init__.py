"""CLI commands beyond the core verbs; each module has `register(group)`."""
