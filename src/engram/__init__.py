"""Engram: local-first long-term memory for LLM agents."""
