"""Language models behind OpenAI-compatible endpoints.

``router.ModelRouter`` maps model names to providers; ``endpoints`` reads the per-model
endpoint mapping; ``clients`` shares one client per endpoint and event loop; ``chat`` holds
the call policy both providers follow. The package imports nothing itself, because the
providers in ``dialogkit.nlu`` and ``dialogkit.nlg`` import these modules and the router
imports the providers.
"""
