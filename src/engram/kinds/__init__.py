"""Memory kinds built on the core: working (conversation), episodic, procedural."""
