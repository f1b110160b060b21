"""What it costs, asked colloquially ("what's the damage?", "지갑이 많이 가벼워지나요?",
"お財布的にはどのくらい"), is the scenario's price question, and so on for parking, a
cancellation fee and opening hours: the packs group the phrases only such questions say, so
an author who wrote "what are your prices?" needs no idioms. Phrases other questions say too
("how much notice", "얼마나 걸려요") stay theirs. An example that asks to be told
("営業時間を教えてください") asks, as a question does."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from tests.nlu.reading import analyse, intent_step

EXAMPLES: dict[str, dict[str, list[str]]] = {
    "en": {
        "ask_prices": ["What are your prices?", "Is it cheaper for bigger groups?"],
        "ask_cancelling": ["Is there a cancellation fee?", "How much notice do I need?"],
        "ask_duration": ["How long does it take?", "How much time should I set aside?"],
        "ask_parking": ["Do you have parking?"],
        "ask_hours": ["What are your opening hours?"],
    },
    "ko": {
        "ask_prices": ["가격이 얼마예요?", "단체는 할인돼요?"],
        "ask_cancelling": ["취소하면 비용이 드나요?", "며칠 전까지 취소할 수 있어요?"],
        "ask_duration": ["시간이 얼마나 걸려요?", "몇 시간 정도 잡으면 돼요?"],
        "ask_parking": ["주차 되나요?"],
        "ask_hours": ["영업시간이 어떻게 되나요?"],
    },
    "ja": {
        "ask_prices": ["料金はいくらですか？", "団体割引はありますか？"],
        "ask_cancelling": ["キャンセル料はかかりますか？", "何日前までキャンセルできますか？"],
        "ask_duration": ["どのくらい時間がかかりますか？", "所要時間はどれくらいですか？"],
        "ask_parking": ["駐車場はありますか？"],
        "ask_hours": ["営業時間を教えてください", "夜も開いてますか？"],
    },
}


def faq(language: str) -> Scenario:
    """A step that answers five questions, one of them the price."""
    intents: dict[str, Any] = {
        name: {"examples": examples} for name, examples in EXAMPLES[language].items()
    }
    return intent_step(language, intents, {"id": "answer", "terminal": True})


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Before I pick a day, what's the damage going to be for four of us?", "ask_prices"),
        ("en", "Roughly what would that run me?", "ask_prices"),
        ("en", "Is this going to break the bank?", "ask_prices"),
        ("ko", "근데 솔직히 지갑 사정이 좀 걱정돼서요, 돈이 많이 깨지나요?", "ask_prices"),
        ("ko", "파마는 몇 만 원 선이에요?", "ask_prices"),
        ("ko", "손이랑 발 둘 다 하면 돈이 꽤 깨지나요?", "ask_prices"),
        ("ko", "당일에 얼마 챙겨 가면 될까요?", "ask_prices"),
        ("ko", "근데 한 번 받으면 돈이 어느 정도 깨져요?", "ask_prices"),
        ("ja", "ちなみに、当日は現金でどのくらい持っていけば足りますかね？", "ask_prices"),
        ("en", "How much cash should I bring on the day?", "ask_prices"),
        ("ja", "振袖って、お財布的にはどのくらい見ておけばいいですか？", "ask_prices"),
        ("ja", "ちなみに、予算ってどれぐらい見ておけばいいですかね？", "ask_prices"),
        ("en", "Am I stuck paying if our plans change?", "ask_cancelling"),
        ("en", "Is anybody there on weekends?", "ask_hours"),
        ("en", "Is there somewhere to park nearby?", "ask_parking"),
        ("ko", "자가용 끌고 가면 세워 둘 데가 있나요?", "ask_parking"),
        ("ko", "혹시 발렛 되나요? 운전해서 가요", "ask_parking"),
        ("ko", "전날 취소하면 위약금 있어요?", "ask_cancelling"),
        ("ja", "ペナルティみたいなものは取られますか？", "ask_cancelling"),
        ("ja", "晩ごはんまで着ていたいんですけど、そちらは夜もやってますか？", "ask_hours"),
        ("ja", "車を停める場所ってあります？", "ask_parking"),
        # Words the price shares with other questions keep to those.
        ("en", "How much notice do I need to give?", "ask_cancelling"),
        ("en", "Could you run me through how it works?", None),
        ("ko", "시간이 얼마나 걸리는지 궁금해요", "ask_duration"),
        ("ja", "キャンセル料ってかかりますか？", "ask_cancelling"),
    ],
)
def test_a_common_question_asked_in_other_words_is_the_scenarios(
    language: str, said: str, intent: str | None
) -> None:
    assert analyse(faq(language), "start", said, None).intent == intent
