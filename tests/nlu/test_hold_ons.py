"""A hold-on ("hold on", "잠깐만요", "ちょっと待って") puts the conversation on hold, unless
the utterance goes on to ask, request or call the request off: then it is said to the bot,
and heard ("hang on, what's all that going to cost?")."""

from __future__ import annotations

import pytest

from dialogkit.nlu._acts import held_on, is_aside


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
        ("wait one, checking my map", "en"),
        ("잠깐만요, 달력 좀 확인해 볼게요", "ko"),
        ("ちょっと待って、手帳を確認してきます", "ja"),
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


@pytest.mark.parametrize(
    ("text", "language", "rest"),
    [
        ("hold on, we decided to go elsewhere", "en", "we decided to go elsewhere"),
        ("Oh, hang on", "en", ""),
        ("아 잠깐만요, 다른 데 가기로 했어요", "ko", "다른 데 가기로 했어요"),
        ("ちょっと待って、妻が仕事でした", "ja", "妻が仕事でした"),
        ("we decided to go elsewhere", "en", None),
    ],
)
def test_what_follows_a_hold_on_is_read_apart(text: str, language: str, rest: str | None) -> None:
    assert held_on(text, language) == rest


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("let me check my calendar", "en"),
        ("still digging through my emails", "en"),
        ("확인해 보고 말씀드릴게요", "ko"),
        ("予定を調べてみます", "ja"),
    ],
)
def test_busying_oneself_with_a_check_is_said_aside(text: str, language: str) -> None:
    assert is_aside(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [("please check my booking", "en"), ("확인해 주세요", "ko"), ("確認してください", "ja")],
)
def test_asking_the_bot_to_check_is_not_aside(text: str, language: str) -> None:
    assert not is_aside(text, language)
