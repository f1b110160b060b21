"""What a proxy or a broken deployment sends, mapped to the documented errors (no server).

pytest-httpx answers the client's httpx requests directly, so these run in milliseconds beside
the loopback tests that talk to a real service.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from pytest_httpx import HTTPXMock

from dialogkit.client import AsyncClient, Client
from dialogkit.errors import (
    APIError,
    ConnectionFailed,
    RequestTimeout,
    ServerError,
    SessionNotFound,
    TransportError,
)

BASE = "http://proxy.test/dm"

PROXY_PAGE = (
    "<html><head><title>{status} Bad Gateway</title></head>"
    "<body><center><h1>{status}</h1></center><hr><center>nginx</center></body></html>"
)


@pytest.fixture
def client() -> Iterator[Client]:
    with Client(BASE) as client:
        yield client


@pytest.fixture
async def aclient() -> AsyncIterator[AsyncClient]:
    async with AsyncClient(BASE) as client:
        yield client


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_proxy_error_page_is_a_server_error_that_blames_the_proxy(
    httpx_mock: HTTPXMock, client: Client, status: int
) -> None:
    page = PROXY_PAGE.format(status=status)
    httpx_mock.add_response(status_code=status, html=page)
    with pytest.raises(ServerError) as raised:
        client.message("s1", "hi")
    error = raised.value
    assert (error.status_code, error.body) == (status, page)
    message = str(error)
    assert f"POST {BASE}/v1/message" in message
    assert f"an HTML page ({status} Bad Gateway)" in message
    assert "proxy" in message and "service behind it is running" in message


def test_an_html_500_on_message_is_not_an_unknown_session(
    httpx_mock: HTTPXMock, client: Client
) -> None:
    """Only a proxy or a broken deployment answers a browser page; the contract's 500 is not."""
    httpx_mock.add_response(status_code=500, html="<html><title>Oops</title></html>")
    with pytest.raises(ServerError, match=r"HTTP 500 from POST .*/dm/v1/message.*check its log"):
        client.message("s1", "hi")


def test_a_plain_500_on_message_keeps_the_contract_meaning(
    httpx_mock: HTTPXMock, client: Client
) -> None:
    httpx_mock.add_response(status_code=500, text="Internal Server Error")
    with pytest.raises(SessionNotFound):
        client.message("gone", "hi")


@pytest.mark.parametrize("body", ["", "Internal Server Error", "<html>boom</html>"])
def test_a_500_without_json_elsewhere_is_a_server_error(
    httpx_mock: HTTPXMock, client: Client, body: str
) -> None:
    httpx_mock.add_response(status_code=500, text=body)
    with pytest.raises(ServerError) as raised:
        client.create_session(scenario_name="demo")
    assert f"POST {BASE}/v1/session" in str(raised.value)
    assert raised.value.body == body


def test_a_missing_path_prefix_says_to_check_the_base_url(httpx_mock: HTTPXMock) -> None:
    """The service sits behind /dm but the client was given the bare host."""
    httpx_mock.add_response(status_code=404, html="<html><title>404 Not Found</title></html>")
    with Client("http://proxy.test") as client, pytest.raises(APIError) as raised:
        client.session_info("s1")
    assert not isinstance(raised.value, SessionNotFound)
    assert "http://proxy.test/v1/session/s1" in str(raised.value)
    assert "base URL" in str(raised.value) and "/dm" in str(raised.value)


def test_the_prefix_is_kept_on_every_request(httpx_mock: HTTPXMock, client: Client) -> None:
    httpx_mock.add_response(url=f"{BASE}/v1/session/s1", status_code=404, json={"detail": "gone"})
    with pytest.raises(SessionNotFound):
        client.session_info("s1")


@pytest.mark.parametrize(
    ("exception", "error", "words"),
    [
        (httpx.ConnectError("[Errno 111] Connection refused"), ConnectionFailed, "running"),
        (httpx.ConnectTimeout("timed out"), RequestTimeout, "timeout="),
        (httpx.ReadTimeout("timed out"), RequestTimeout, "timeout="),
        (httpx.ReadError("[Errno 104] Connection reset by peer"), ConnectionFailed, "proxy"),
        (httpx.RemoteProtocolError("Server disconnected"), ConnectionFailed, "proxy"),
    ],
)
def test_transport_failures_name_the_url_and_what_to_check(
    httpx_mock: HTTPXMock,
    client: Client,
    exception: httpx.TransportError,
    error: type[TransportError],
    words: str,
) -> None:
    httpx_mock.add_exception(exception)
    with pytest.raises(error) as raised:
        client.message("s1", "hi")
    assert raised.value.url == f"{BASE}/v1/message"
    assert f"{BASE}/v1/message" in str(raised.value)
    assert words in str(raised.value)
    assert raised.value.__cause__ is exception


async def test_the_async_client_maps_the_same_faults(
    httpx_mock: HTTPXMock, aclient: AsyncClient
) -> None:
    httpx_mock.add_response(status_code=504, html=PROXY_PAGE.format(status=504))
    httpx_mock.add_exception(httpx.ReadTimeout("timed out"))
    httpx_mock.add_exception(httpx.ReadError("[Errno 104] Connection reset by peer"))
    with pytest.raises(ServerError, match="proxy"):
        await aclient.start("demo")
    with pytest.raises(RequestTimeout):
        await aclient.message("s1", "hi")
    with pytest.raises(ConnectionFailed):
        await aclient.session_info("s1")
