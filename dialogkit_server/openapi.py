"""The machine-readable description and the two documentation pages.

sanic-ext builds the OpenAPI document from the handlers' annotations and the pydantic wire
models, but its own pages and JSON route cannot serve a service that sits behind a path prefix:
the pages hard-code the JSON location, and the document has no ``servers`` entry, so "try it
out" would call the un-prefixed path. So sanic-ext only *builds* the document (its own routes
are parked under an internal prefix) and this module serves it, with the prefix applied, at
``/openapi.json``, ``/docs`` and ``/redoc`` (and under the root path).

The pages must work on a machine without internet access, so the Swagger UI and ReDoc bundles
are served by this service from the ``openapi-ui-bundles`` package (Apache-2.0; Swagger UI is
Apache-2.0, ReDoc MIT) under ``/docs/assets/``, and the pages name only the service's own paths.

sanic-ext keeps the document in a process-wide singleton that the last app to start rewrites;
each app therefore takes its own snapshot right after it started.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import openapi_ui_bundles.redoc
import openapi_ui_bundles.swagger_ui
from pydantic import BaseModel
from sanic import Blueprint, HTTPResponse, Request, Sanic
from sanic.response import html as html_response
from sanic.response import json as json_response
from sanic.response import raw
from sanic_ext import Extend
from sanic_ext.extensions.openapi import openapi
from sanic_ext.extensions.openapi.builders import OperationStore, SpecificationBuilder
from sanic_ext.extensions.openapi.extension import OpenAPIExtension

from dialogkit_server.errors import DetailError
from dialogkit_server.rootpath import public_root

Handler = Callable[..., Coroutine[Any, Any, HTTPResponse]]

DOCS_PATH = "/docs"
REDOC_PATH = "/redoc"
OPENAPI_PATH = "/openapi.json"

ASSETS_PATH = "/docs/assets"

_SANIC_EXT_PREFIX = "/_sanic-ext"

# The only files served from the bundles: name -> (directory, content type).
_ASSETS: dict[str, tuple[Path, str]] = {
    "swagger-ui.css": (openapi_ui_bundles.swagger_ui.static_path, "text/css; charset=utf-8"),
    "swagger-ui-bundle.js": (
        openapi_ui_bundles.swagger_ui.static_path,
        "text/javascript; charset=utf-8",
    ),
    "redoc.standalone.js": (openapi_ui_bundles.redoc.static_path, "text/javascript; charset=utf-8"),
}

_SWAGGER_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} - Swagger UI</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script>
SwaggerUIBundle({{url: {spec_url_js}, dom_id: "#swagger-ui", validatorUrl: null}});
</script>
</body>
</html>
"""

_REDOC_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} - ReDoc</title>
</head>
<body>
<redoc spec-url="{spec_url_attr}"></redoc>
<script src="{assets}/redoc.standalone.js"></script>
</body>
</html>
"""


# sanic-ext is only partly annotated: its untyped calls are marked where they happen.
class _BuildOnly(OpenAPIExtension):  # type: ignore[no-untyped-call]
    """sanic-ext's document builder, without the start-up banner that needs its own pages."""

    name = "dialogkitopenapi"

    def label(self) -> str:
        return ""


def extend(app: Sanic[Any, Any]) -> None:
    """Attach sanic-ext's document builder only (no CORS, injection or automatic methods)."""
    Extend(app, extensions=[_BuildOnly], built_in_extensions=False)


def sanic_ext_config(title: str, version: str) -> dict[str, Any]:
    """sanic-ext builds the document; its pages are off and its raw JSON route is parked at
    ``/_sanic-ext/openapi.json`` (not part of the contract: it may mix several apps' routes)."""
    return {
        "OAS_URL_PREFIX": _SANIC_EXT_PREFIX,
        "OAS_URI_TO_JSON": OPENAPI_PATH,
        "OAS_UI_DEFAULT": None,
        "OAS_UI_REDOC": False,
        "OAS_UI_SWAGGER": False,
        # Handler docstrings explain the code; the public text is set by ``document``.
        "OAS_AUTODOC": False,
        "API_TITLE": title,
        "API_VERSION": version,
        "API_DESCRIPTION": "Graph-driven dialogue service: sessions, turns and validation.",
    }


def document(
    handler: Handler,
    *,
    summary: str,
    description: str,
    body: type[BaseModel] | None = None,
    responses: dict[int, tuple[type[BaseModel], str]],
) -> None:
    """Describe one operation with the wire models it reads and answers.

    Written into sanic-ext's operation store directly: its ``openapi.body`` decorator would
    wrap the handler in a validating layer that this service does not use.
    """
    operation = OperationStore()[handler]  # type: ignore[no-untyped-call]
    operation.describe(summary=summary, description=description)
    operation.tag("dialogue")
    if body is not None:
        operation.body({"application/json": openapi.Component(body)}, required=True)
    for status, (model, text) in responses.items():
        operation.response(status, {"application/json": openapi.Component(model)}, text)


def exclude(blueprint: Blueprint) -> None:
    """Keep a blueprint's routes out of the document (the prefixed copies, the pages)."""
    openapi.exclude(bp=blueprint)


def docs_blueprint(name: str, *, prefix: str, root_path: str, title: str) -> Blueprint:
    """The JSON and both pages, mounted at ``prefix``; links carry the client's root path.

    The same pages serve a proxy that strips the prefix (mounted at ``""``) and one that does
    not (mounted at the root path): in both cases the browser must fetch the prefixed URL. The
    prefix is ``root_path`` (the setting) when given, else the ASGI server's root path.
    """
    bp = Blueprint(name, url_prefix=prefix or None)

    @functools.cache
    def pages(root: str) -> tuple[str, str]:
        spec_url = f"{root}{OPENAPI_PATH}"
        assets = html.escape(f"{root}{ASSETS_PATH}")
        swagger = _SWAGGER_PAGE.format(
            title=html.escape(title), assets=assets, spec_url_js=json.dumps(spec_url)
        )
        redoc = _REDOC_PAGE.format(
            title=html.escape(title), spec_url_attr=html.escape(spec_url), assets=assets
        )
        return swagger, redoc

    async def openapi_json(request: Request) -> HTTPResponse:
        spec: dict[str, Any] = request.app.ctx.openapi
        root = public_root(request, root_path)
        return json_response({**spec, "servers": [{"url": root or "/"}]})

    async def swagger_page(request: Request) -> HTTPResponse:
        return html_response(pages(public_root(request, root_path))[0])

    async def redoc_page(request: Request) -> HTTPResponse:
        return html_response(pages(public_root(request, root_path))[1])

    async def asset(request: Request, name: str) -> HTTPResponse:
        if name not in _ASSETS:
            raise DetailError(404, f"No documentation asset named {name!r}.")
        _, content_type = _ASSETS[name]
        return raw(
            _asset_bytes(name),
            content_type=content_type,
            headers={"cache-control": "public, max-age=86400"},
        )

    bp.add_route(openapi_json, OPENAPI_PATH, methods=["GET"], name="openapi_json")
    bp.add_route(asset, f"{ASSETS_PATH}/<name:str>", methods=["GET"], name="docs_asset")
    bp.add_route(swagger_page, DOCS_PATH, methods=["GET"], name="docs")
    bp.add_route(redoc_page, REDOC_PATH, methods=["GET"], name="redoc")
    return bp


@functools.cache
def _asset_bytes(name: str) -> bytes:
    """Read once per process: the bundles are about 2 MB and never change while it runs."""
    directory, _ = _ASSETS[name]
    return (directory / name).read_bytes()


def snapshot_on_start(app: Sanic[Any, Any]) -> None:
    """Store this app's document on ``app.ctx.openapi`` once sanic-ext has built it."""

    async def snapshot(app: Sanic[Any, Any]) -> None:
        app.ctx.openapi = SpecificationBuilder().build(app).serialize()  # type: ignore[no-untyped-call]

    app.after_server_start(snapshot)
