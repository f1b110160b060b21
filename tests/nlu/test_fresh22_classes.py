"""Classes a blind set on three new graphs showed (`benchmarks/paraphrases/fresh22`): a wish
after a reason that negates ("have never tried this and we'd love to give it a go"); a value
read back that will not suit, that something came up against ("제사가 잡혀서요"), that was
said wrong ("이름을 잘못 말씀드렸어요"), given up ("이제 안 써요"), or wanted much later ("그보다는
훨씬 늦게"); the speaker, a partner "그리고" kids; a first thought given up ("座禅かなって
思ってたんですけど、やっぱり写経で"); a "fits" wondered about at a choice, which asks for help;
"言うことなしです" as a yes; "白紙に戻させてください"; looking forward to it as small talk;
questions of what to wear, when to leave the room and what to pay ("どれほど包めば")."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import is_small_talk, is_withdrawal
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _count_step
from tests.nlu.test_fresh15_classes import _asking

NAME = {"type": "text", "kind": "person_name", "prompt": "?"}
PHONE = {"type": "phone", "prompt": "?"}
DATE = {"type": "date", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}
SESSIONS = {"type": "enum", "values": ["bouldering", "top rope"], "prompt": "?"}


def test_a_wish_after_a_reason_that_negates_is_the_offer() -> None:
    said = "A few of us from work have never tried this and we'd love to give it a go."
    assert analyse(greeting("en"), "start", said, None).intent == "book"


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said", "intent"),
    [
        (
            "en",
            "session",
            SESSIONS,
            "bouldering",
            "Bouldering's not going to suit my dad after all.",
            "redo",
        ),
        ("ko", "day", DATE, "2026-12-05", "그 토요일에 갑자기 시댁 제사가 잡혀서요", "redo"),
        ("ko", "name", NAME, "김하늘", "이름을 잘못 말씀드렸어요, 다시 알려 드릴게요", "redo"),
        ("ko", "phone", PHONE, "010-1234-5678", "그 폰은 이번 달에 해지해서 이제 안 써요", "redo"),
        (
            "ko",
            "time",
            TIME,
            "15:00",
            "퇴근하고 출발하면 그보다는 훨씬 늦게 떨어질 것 같은데요",
            "redo",
        ),
        (
            "ja",
            "day",
            DATE,
            "2026-12-05",
            "言うことなしです。それで押さえておいてください",
            "affirm",
        ),
    ],
)
def test_a_read_back_in_other_words(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str, intent: str
) -> None:
    assert changed(language, slot, declared, held, said) == intent


def test_the_speaker_a_partner_and_then_the_kids() -> None:
    read = analyse(_count_step("ko"), "ask_party", "저랑 남편, 그리고 애들 셋이요", "party")
    assert read.entities["party"] == 5


def test_a_first_thought_wondered_about_is_given_up() -> None:
    plans = {
        "type": "enum",
        "values": ["座禅体験", "写経体験"],
        "synonyms": {"座禅体験": ["座禅"], "写経体験": ["写経"]},
        "prompt": "?",
    }
    said = "えーと、最初は座禅かなって思ってたんですけど、やっぱり写経のほうでお願いします"
    assert analyse(_asking("ja", plans), "ask", said, "asked").entities["asked"] == "写経体験"


def test_a_fit_wondered_about_at_a_choice_asks_for_help() -> None:
    plans = {"type": "enum", "values": ["座禅体験", "写経体験"], "prompt": "?"}
    said = "正直、どれが自分に合ってるのかさっぱりで…"
    assert analyse(_asking("ja", plans), "ask", said, "asked").intent == "help"


def test_having_it_put_back_to_a_blank_page_withdraws() -> None:
    assert is_withdrawal(
        "あー…ごめんなさい、家族に止められちゃったので、この話は白紙に戻させてください", "ja"
    )


@pytest.mark.parametrize(
    "said",
    [
        "우와, 말씀 들으니까 벌써 여행 온 것 같네요",
        # Two off-topic remarks the tier had taken for a cancel and a change of time.
        "작년에 다른 업체 불렀다가 완전 엉망이었거든요.",
        "어제 드라마 보다가 늦게 자서 지금 너무 졸리네요.",
    ],
)
def test_looking_forward_last_years_visit_and_sleepiness_are_small_talk(said: str) -> None:
    assert is_small_talk(said, "ko")


@pytest.mark.parametrize(
    ("language", "intent", "examples", "said"),
    [
        (
            "ja",
            "ask_attire",
            ["服装に決まりはありますか"],
            "当日ってどんな格好で行けばいいですか？",
        ),
        (
            "ja",
            "ask_attire",
            ["服装に決まりはありますか"],
            "ジーンズとかパーカーで伺っても失礼にならないですかね？",
        ),
        ("en", "ask_attire", ["Is there a dress code?"], "Can I just turn up in jeans?"),
        (
            "ko",
            "ask_checkout",
            ["퇴실 시간이 언제예요?"],
            "다음 날 짐은 오전 중에 빼면 되나요, 아니면 점심 먹고 나가도 돼요?",
        ),
        (
            "ja",
            "ask_price",
            None,
            "ちなみに、お布施というか、お支払いはどれほど包めばいいものなんでしょう？",
        ),
        (
            "ja",
            "ask_hours",
            ["何時まで開いていますか"],
            "朝って、門はいつごろから入れてもらえるんでしょうか？",
        ),
    ],
)
def test_a_question_in_other_words(
    language: str, intent: str, examples: list[str] | None, said: str
) -> None:
    also = {intent: {"examples": examples}} if examples else None
    assert analyse(greeting(language, also=also), "start", said, None).intent == intent
