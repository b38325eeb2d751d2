"""A broken plugin: fails while being loaded."""

raise RuntimeError("this plugin is broken on purpose")
