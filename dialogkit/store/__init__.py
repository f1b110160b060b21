"""Session storage: the SessionStore protocol and its implementations."""
