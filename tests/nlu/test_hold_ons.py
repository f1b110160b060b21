"""A hold-on ("hold on", "잠깐만요", "ちょっと待って") puts the conversation on hold, unless
the utterance goes on to ask, request or call the request off: then it is said to the bot,
and heard ("hang on, what's all that going to cost?")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import is_aside


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("hang on", "en"),
        ("hold on, my phone is ringing", "en"),
        ("hold on, let me check my calendar", "en"),
        ("wait, what was it again?", "en"),
        ("잠깐만요", "ko"),
        ("잠깐만요, 전화가 와서요", "ko"),
        ("ちょっと待ってください", "ja"),
        ("ちょっと待って、何だっけ", "ja"),
    ],
)
def test_a_hold_on_is_said_aside(text: str, language: str) -> None:
    assert is_aside(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Hold on, what's all of that going to cost?", "en"),
        ("hang on, could you send it to my office instead?", "en"),
        ("hold on, scrap that", "en"),
        ("wait, 5 people", "en"),
        ("잠깐만요, 얼마예요?", "ko"),
        ("잠깐만요, 그냥 안 할래요", "ko"),
        ("ちょっと待って、料金はいくらですか", "ja"),
        ("ちょっと待って、やっぱりやめておきます", "ja"),
    ],
)
def test_a_hold_on_that_goes_on_to_ask_request_or_withdraw_is_said_to_the_bot(
    text: str, language: str
) -> None:
    assert not is_aside(text, language)
