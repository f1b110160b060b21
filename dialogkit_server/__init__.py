"""dialogkit's HTTP service (Sanic): the engine behind the contract of ``docs/http-api.md``."""

from dialogkit_server.app import create_app, serve

__all__ = ["create_app", "serve"]
