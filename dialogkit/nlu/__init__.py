"""Natural-language understanding: rule-based (offline) and LLM providers."""
