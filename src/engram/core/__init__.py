"""The memory engine: the Memory facade, recall and ranking, vector search, supersession, audit, export."""
