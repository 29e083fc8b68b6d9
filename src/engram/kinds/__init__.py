"""Memory kinds built on the core: working (conversation) and procedural (the episodic verbs are
part of `Memory`, in engram.core.episodic)."""
