"""docs/http-api.md shows what a real service answers (``python -m tools.docs_examples``)."""

from __future__ import annotations

from tools.docs_examples import PAGE, REGIONS, answers, normalized, rewrite, running_service


def test_the_committed_examples_are_what_the_service_answers() -> None:
    page = PAGE.read_text(encoding="utf-8")
    with running_service() as base_url:
        generated = answers(base_url)
    updated = rewrite(page, generated)
    assert normalized(updated) == normalized(page), (
        "docs/http-api.md is out of date: run .venv/bin/python -m tools.docs_examples"
    )


def test_the_message_example_speaks_the_scenario_language() -> None:
    """The /v1/message example goes to card_issuance (Korean) and gets a Korean reply."""
    [message] = [region for region in REGIONS if region.name == "message"]
    [example] = message.examples
    assert example.session == "card"
    assert example.body["message_input"]["text"] == "체크카드 만들고 싶어요"
    page = PAGE.read_text(encoding="utf-8")
    assert "Hello! How can I help you today?" not in page
    assert '"initial_current_node": "welcome"' in page


def test_normalizing_keeps_everything_but_ids_and_times() -> None:
    one = '{"session_id": "a10de980-e440-482a-8d2b-37449bf198cb", "processing_time_ms": 2.3}'
    other = '{"session_id": "66f6f8ca-c573-416e-9ab2-c99531b2b351", "processing_time_ms": 0.1}'
    assert normalized(one) == normalized(other)
    assert normalized('{"response": "a"}') != normalized('{"response": "b"}')
