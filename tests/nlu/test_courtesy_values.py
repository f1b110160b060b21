"""A courtesy is never a value: "Yeah, you can put it under Maria Gonzalez, thanks." stored
"thanks" as the name (the clause after the comma framed a bare name)."""

from __future__ import annotations

import pytest

from dialogkit import Engine, Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    ("language", "slot", "said", "value"),
    [
        ("en", "name", "Yeah, you can put it under Maria Gonzalez, thanks.", "Maria Gonzalez"),
        ("en", "name", "Just put it under Sam Lee please", "Sam Lee"),
        ("en", "name", "It's Dana Wu, thank you.", "Dana Wu"),
        ("en", "name", "you could maybe jot down Maria for it, thanks", None),
        ("en", "name", "so that'd be for my wife, thanks", None),
        ("ko", "name", "네 잘 부탁드려요, 감사합니다", None),
        ("en", "name", "thanks", None),
        ("en", "note", "thank you", None),
        ("ko", "name", "감사합니다", None),
        ("ja", "name", "ありがとうございます", None),
        ("ja", "name", "こんにちは", None),
    ],
)
def test_a_courtesy_is_no_value(
    offline: Engine, language: str, slot: str, said: str, value: object
) -> None:
    assert stored(offline, language, slot, said) == value


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Every detail matches, thanks", "affirm"),
        ("en", "No note, thanks", "deny"),
        ("ko", "네 맞아요, 감사합니다", "affirm"),
        ("en", "thanks", "thanks"),
        ("en", "thank you so much", "thanks"),
    ],
)
def test_a_thanks_closing_what_was_said_is_not_the_intent(
    language: str, said: str, intent: str
) -> None:
    """The thanks closes the answer: the rest of the utterance says what the turn means."""
    graph = Scenario.from_dict(
        make_graph(
            [{"id": "n", "description": "Confirm.", "terminal": True}],
            language=language,
        )
    )
    assert analyse(graph, "n", said, None).intent == intent
