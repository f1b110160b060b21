"""The public path prefix (``/dm``) a service answers under, from either of its two sources.

A deployer names the prefix in one of two ways:

- ``DIALOGKIT_ROOT_PATH`` (our setting): the contract's routes are mounted a second time under
  the prefix, so a proxy may strip it or forward it unchanged;
- the ASGI ``root_path`` of the server (``uvicorn --root-path /dm``, ``hypercorn --root-path``).

ASGI servers disagree on what ``path`` holds under a root path: uvicorn prepends the root path
to the path it received, hypercorn passes the path as received. A proxy that forwards the
prefix unchanged adds it once more. ``Service`` removes the prefix (at most twice) before Sanic
routes the request, so every combination reaches the un-prefixed routes, and links that the
service writes (the root info's ``api``, the documentation pages) carry the prefix the client
sees: the setting when given, else the ASGI root path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from types import SimpleNamespace
from typing import Any

from sanic import Request, Sanic
from sanic.config import Config
from sanic.exceptions import PayloadTooLarge

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def normalize_root_path(value: str) -> str:
    """``"dm"``, ``"/dm/"`` and ``"/dm"`` all mean the prefix ``/dm``; ``"/"`` means none."""
    stripped = value.strip().strip("/")
    return f"/{stripped}" if stripped else ""


def strip_root_path(scope: Scope) -> Scope:
    """The scope with the ASGI root path removed from ``path`` and ``raw_path``.

    Removed at most twice: once for a server that prepends it (uvicorn), once more for a
    proxy that forwarded the prefix. The ``root_path`` key itself is kept for ``public_root``.
    """
    root = normalize_root_path(str(scope.get("root_path") or ""))
    if not root:
        return scope
    path: str = scope["path"]
    raw: bytes = scope.get("raw_path") or path.encode("utf-8")
    prefix = root.encode("ascii", "ignore")
    for _ in range(2):
        if path != root and not path.startswith(f"{root}/"):
            break
        path = path[len(root) :] or "/"
        raw = raw[len(prefix) :] if raw.startswith(prefix) else raw
        raw = raw or b"/"
    return {**scope, "path": path, "raw_path": raw}


def public_root(request: Request, configured: str) -> str:
    """The prefix a client used: ``DIALOGKIT_ROOT_PATH`` when set, else the ASGI root path."""
    if configured:
        return configured
    scope = getattr(request.transport, "scope", None)
    if not isinstance(scope, MutableMapping):
        return ""
    return normalize_root_path(str(scope.get("root_path") or ""))


class Service(Sanic[Config, SimpleNamespace]):
    """The Sanic app of the service; as an ASGI app it honours the server's root path and
    ``REQUEST_MAX_SIZE``, which Sanic enforces only in its own server. In Sanic's own server
    it remembers a stop asked during start-up, which Sanic loses (``stop``)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope = strip_root_path(scope)
            receive = capped(receive, int(self.config.REQUEST_MAX_SIZE))
        await super().__call__(scope, receive, send)  # type: ignore[no-untyped-call]

    def stop(self, terminate: bool = True, unregister: bool = False) -> None:
        """Stop, and remember that a stop was asked: Sanic loses one asked while its
        after-start listeners run (see ``dialogkit_server.app.honour_an_early_stop``)."""
        self.ctx.stop_asked = True
        super().stop(terminate=terminate, unregister=unregister)


def capped(receive: Receive, limit: int) -> Receive:
    """``receive`` that fails with 413 once the request body passes ``limit`` bytes.

    Raised while Sanic reads the body, so its error handler answers the same 413 as its own
    server does, before a large body is held in memory.
    """
    received = 0

    async def receive_capped() -> MutableMapping[str, Any]:
        nonlocal received
        message = await receive()
        if message.get("type") == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise PayloadTooLarge("Request body exceeds the size limit")
        return message

    return receive_capped
