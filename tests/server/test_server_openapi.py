"""The documentation pages and the OpenAPI document, at the root and behind the /dm prefix."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from dialogkit.wire import ChatbotMessageResponse, ChatbotSessionCreateRequest
from tests.server.conftest import Live

OPERATIONS = {
    ("/", "get"),
    ("/v1", "get"),
    ("/v1/session", "post"),
    ("/v1/session/json", "post"),
    ("/v1/session/validate", "post"),
    ("/v1/message", "post"),
    ("/v1/session/{session_id}", "get"),
}


def refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                yield item
            else:
                yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)


@pytest.fixture(scope="module")
def spec(http: httpx.Client) -> dict[str, Any]:
    response = http.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def test_document_lists_exactly_the_contract_operations(spec: dict[str, Any]) -> None:
    found = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert found == OPERATIONS
    assert spec["openapi"].startswith("3.")
    assert spec["info"]["title"] == "dialogkit"
    assert spec["servers"] == [{"url": "/"}]


def test_document_schemas_come_from_the_wire_models(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    request = spec["paths"]["/v1/session"]["post"]["requestBody"]["content"]["application/json"]
    assert request["schema"] == {"$ref": "#/components/schemas/ChatbotSessionCreateRequest"}
    assert set(schemas["ChatbotSessionCreateRequest"]["properties"]) == set(
        ChatbotSessionCreateRequest.model_fields
    )
    message = spec["paths"]["/v1/message"]["post"]["responses"]
    assert set(message) == {"200", "404", "413", "422", "429"}
    assert set(schemas["ChatbotMessageResponse"]["properties"]) == set(
        ChatbotMessageResponse.model_fields
    )


def test_every_reference_resolves(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for ref in refs(spec):
        assert ref.startswith("#/components/schemas/")
        assert ref.removeprefix("#/components/schemas/") in schemas, ref


@pytest.mark.parametrize(("path", "marker"), [("/docs", "swagger-ui"), ("/redoc", "<redoc")])
def test_pages_load_the_document_from_the_root(http: httpx.Client, path: str, marker: str) -> None:
    response = http.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert marker in response.text
    assert '"/openapi.json"' in response.text


def page_references(page: str) -> list[str]:
    """Every URL a page loads or links (src, href, spec-url, Swagger UI's url)."""
    found = re.findall(r'(?:src|href|spec-url)="([^"]*)"|url: "([^"]*)"', page)
    return [a or b for a, b in found]


@pytest.mark.parametrize("prefix", ["", "/dm"], ids=["root", "dm"])
@pytest.mark.parametrize(
    ("page", "assets"),
    [
        ("/docs", {"swagger-ui.css": "text/css", "swagger-ui-bundle.js": "text/javascript"}),
        ("/redoc", {"redoc.standalone.js": "text/javascript"}),
    ],
)
def test_pages_load_their_assets_from_the_service_itself(
    http: httpx.Client, dm: httpx.Client, prefix: str, page: str, assets: dict[str, str]
) -> None:
    """Offline machines: no CDN, no other host; every asset answers with its content type."""
    client = dm if prefix else http
    text = client.get(f"{prefix}{page}").text
    references = page_references(text)
    assert "://" not in text.replace("http://www.w3.org", "")
    assert all(ref.startswith(f"{prefix}/") for ref in references), references
    loaded = {ref.rsplit("/", 1)[1]: ref for ref in references if "/docs/assets/" in ref}
    assert set(loaded) == set(assets)
    for name, content_type in assets.items():
        # Behind the prefix the proxy may strip it or forward it: both must answer.
        for url in {loaded[name], loaded[name].removeprefix(prefix)}:
            response = client.get(url)
            assert response.status_code == 200, url
            assert response.headers["content-type"].startswith(content_type)
            assert len(response.content) > 10_000


def test_unknown_assets_are_not_found(http: httpx.Client) -> None:
    response = http.get("/docs/assets/index.html")
    assert response.status_code == 404
    assert "detail" in response.json()


# ---------------------------------------------------------------------------- /dm


@pytest.fixture(scope="module")
def dm(dm_server: Live) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=dm_server.base_url, timeout=10) as client:
        yield client


@pytest.mark.parametrize("prefix", ["", "/dm"], ids=["proxy-strips", "proxy-forwards"])
def test_behind_a_prefix_every_route_answers_with_and_without_it(
    dm: httpx.Client, prefix: str, graph: dict[str, Any]
) -> None:
    root = dm.get(f"{prefix}/").json()
    assert root["api"] == "/dm"
    assert (root["docs"], root["redoc"], root["openapi"]) == (
        "/dm/docs",
        "/dm/redoc",
        "/dm/openapi.json",
    )
    assert dm.get(f"{prefix}/v1/").json() == {**root, "message": root["message"] + " (API v1)"}
    created = dm.post(f"{prefix}/v1/session", json={"scenario_name": "demo"})
    assert created.status_code == 200
    opened = dm.post(f"{prefix}/v1/session/json", json={"scenario_graph": graph}).json()
    message = {"session_id": opened["session_id"], "message_input": {"text": "music"}}
    assert dm.post(f"{prefix}/v1/message", json=message).json()["turn_count"] == 2
    assert dm.get(f"{prefix}/v1/session/{opened['session_id']}").status_code == 200
    assert (
        dm.post(f"{prefix}/v1/session/validate", json={"scenario_graph": graph}).status_code == 200
    )
    assert dm.get(f"{prefix}/v1/session/unknown").status_code == 404
    assert dm.post(f"{prefix}/v1/message", json=[]).status_code == 422


@pytest.mark.parametrize("prefix", ["", "/dm"], ids=["proxy-strips", "proxy-forwards"])
@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_behind_a_prefix_pages_fetch_the_prefixed_document(
    dm: httpx.Client, prefix: str, page: str
) -> None:
    response = dm.get(f"{prefix}{page}")
    assert response.status_code == 200
    assert "/dm/openapi.json" in response.text


@pytest.mark.parametrize("prefix", ["", "/dm"], ids=["proxy-strips", "proxy-forwards"])
def test_behind_a_prefix_the_document_targets_the_prefix(dm: httpx.Client, prefix: str) -> None:
    spec = dm.get(f"{prefix}/openapi.json").json()
    assert spec["servers"] == [{"url": "/dm"}]
    found = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert found == OPERATIONS  # the prefixed copies are not listed twice
