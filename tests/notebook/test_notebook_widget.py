"""The chat widget, driven through its widgets as a user would, without a browser."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from dialogkit import AsyncClient, Client, Scenario, Session, SessionNotFound
from dialogkit.engine.session import Reply
from dialogkit.notebook import ChatWidget
from dialogkit.wire import ChatbotSessionInfoResponse

ORDER = "a large latte please"
CONFIRM = "A large latte. Is that right?"


@pytest.fixture
def widget(session: Session) -> Iterator[ChatWidget]:
    chat = ChatWidget(session)
    yield chat
    chat.close()


def press_enter(widget: ChatWidget) -> None:
    """What the browser sends when Enter is pressed in the text box."""
    widget.text._handle_custom_msg({"event": "submit"}, [])


def test_the_opening_reply_and_state_are_shown_before_anything_is_typed(
    widget: ChatWidget,
) -> None:
    assert "Welcome to the coffee bar" in widget.log.value
    assert "<th" in widget.panel.value
    assert "welcome" in widget.panel.value
    assert "slots" in widget.panel.value and "none" in widget.panel.value


def test_clicking_send_shows_both_messages_and_updates_the_side_panel(
    widget: ChatWidget,
) -> None:
    widget.text.value = ORDER
    widget.send_button.click()

    assert ORDER in widget.log.value
    assert CONFIRM in widget.log.value
    assert widget.log.value.index(ORDER) < widget.log.value.index(CONFIRM)
    assert "confirm" in widget.panel.value
    assert "drink=latte, size=large" in widget.panel.value
    assert "<td>2</td>" in widget.panel.value  # turn count
    assert widget.text.value == ""


def test_pressing_enter_sends_and_shows_the_intent(widget: ChatWidget) -> None:
    widget.text.value = ORDER
    press_enter(widget)
    widget.text.value = "yes"
    press_enter(widget)

    assert "Your large latte will be ready shortly" in widget.log.value
    assert "intent affirm" in widget.log.value
    assert "<td>affirm</td>" in widget.panel.value
    assert "order_placed" in widget.panel.value  # complete, with its end reason


def test_a_confidence_at_or_below_the_threshold_is_a_not_understood_fallback(
    widget: ChatWidget,
) -> None:
    widget.confidence.value = -0.7
    widget.text.value = ORDER
    widget.send_button.click()

    assert CONFIRM not in widget.log.value
    assert "fallback not_understood" in widget.log.value
    assert "stt_low_confidence" in widget.panel.value
    assert "welcome" in widget.panel.value

    widget.confidence.value = -0.65
    widget.text.value = ORDER
    widget.send_button.click()
    assert CONFIRM in widget.log.value


def test_an_empty_message_is_a_no_input_turn(widget: ChatWidget) -> None:
    widget.send_button.click()
    assert "fallback no_input" in widget.log.value
    assert "(empty)" in widget.log.value


def test_user_text_is_escaped(widget: ChatWidget) -> None:
    widget.send("<script>alert(1)</script>")
    assert "<script>" not in widget.log.value
    assert "&lt;script&gt;" in widget.log.value


async def test_it_works_inside_a_running_event_loop_like_a_notebook_cell(
    session: Session,
) -> None:
    chat = ChatWidget(session)
    chat.text.value = ORDER
    chat.send_button.click()  # a sync callback, called on a thread whose loop is running
    assert CONFIRM in chat.log.value
    assert chat.pending is None
    chat.close()


def test_it_displays_as_a_jupyter_widget(widget: ChatWidget) -> None:
    bundle = widget._repr_mimebundle_()
    assert bundle is not None
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.view.model_id


def test_its_transcript_has_one_row_per_reply(widget: ChatWidget) -> None:
    widget.send(ORDER, confidence=0.5)
    rows = widget.transcript.to_rows()
    assert [row["user_text"] for row in rows] == ["", ORDER]
    assert rows[1]["confidence"] == 0.5
    assert rows[1]["node_before"] == "welcome"
    assert rows[1]["node_after"] == "confirm"


class Gone:
    """A session that expired between two messages."""

    id = "gone"

    def __init__(self, initial: Reply) -> None:
        self.initial_reply = initial

    def send(self, text: str, confidence: float = 0.0) -> Reply:
        raise SessionNotFound(self.id)

    def info(self) -> ChatbotSessionInfoResponse:
        return ChatbotSessionInfoResponse(session_id=self.id, current_node="welcome")


def test_a_failing_session_is_reported_in_the_log_and_input_stays_usable(
    session: Session,
) -> None:
    chat = ChatWidget(Gone(session.initial_reply))
    chat.text.value = "hello"
    chat.send_button.click()

    assert "SessionNotFound" in chat.log.value
    assert not chat.text.disabled and not chat.send_button.disabled
    chat.close()


def test_a_remote_session_shows_node_and_slots_but_no_intent(
    service_url: str, coffee: Scenario
) -> None:
    with Client(service_url, timeout=10) as client:
        remote = client.start(coffee)
        chat = ChatWidget(remote)
        chat.text.value = ORDER
        chat.send_button.click()

    assert CONFIRM in chat.log.value
    assert "drink=latte, size=large" in chat.panel.value
    assert "intent" not in chat.panel.value
    row = chat.transcript.to_rows()[-1]
    assert (row["node_before"], row["node_after"], row["intent"]) == ("welcome", "confirm", None)
    chat.close()


async def test_an_async_only_session_is_scheduled_on_the_running_loop(
    service_url: str, coffee: Scenario
) -> None:
    async with AsyncClient(service_url, timeout=10) as client:
        remote = await client.start(coffee)
        chat = ChatWidget(remote)
        chat.text.value = ORDER
        chat.send_button.click()

        assert chat.pending is not None
        assert chat.text.disabled  # while the turn is in flight
        assert ORDER in chat.log.value
        await asyncio.wait_for(chat.pending, 10)

    assert CONFIRM in chat.log.value
    assert "drink=latte, size=large" in chat.panel.value
    assert not chat.text.disabled
    chat.close()
