"""The ASGI entry point: ``uvicorn dialogkit_server.asgi:app`` (or hypercorn, or any ASGI server).

``app`` is the service built at import from the environment's settings, the same ones
``dialogkit serve`` reads (``DIALOGKIT_*``, ``OPENAI_*``, ``SKILL_RUNTIME_BASE_URL``). Servers that
prefer a factory can use ``uvicorn --factory dialogkit_server:create_app``: same settings.

Sanic's start-up and shutdown events run through the ASGI lifespan protocol (the OpenAPI
document, the store and the HTTP clients), and the server's ``root_path`` is honoured (see
``dialogkit_server.rootpath``).
"""

from __future__ import annotations

from dialogkit_server.app import create_app

__all__ = ["app", "create_app"]

app = create_app()
