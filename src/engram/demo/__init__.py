"""`engram demo` and the seed article's practice exercise."""
