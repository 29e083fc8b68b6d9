"""Keeping memory safe: the secret and instruction filters, access between subjects, API keys."""
