"""What it costs, asked colloquially ("what's the damage?", "지갑이 많이 가벼워지나요?",
"お財布的にはどのくらい"), is the scenario's price question: the packs group the phrases only
price questions say, so an author who wrote "what are your prices?" needs no idioms. Phrases
other questions say too ("how much notice", "얼마나 걸려요", "キャンセル料") stay theirs."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse

EXAMPLES: dict[str, dict[str, list[str]]] = {
    "en": {
        "ask_prices": ["What are your prices?", "Is it cheaper for bigger groups?"],
        "ask_cancelling": ["Does cancelling cost anything?", "How much notice do I need?"],
        "ask_duration": ["How long does it take?", "How much time should I set aside?"],
    },
    "ko": {
        "ask_prices": ["가격이 얼마예요?", "단체는 할인돼요?"],
        "ask_cancelling": ["취소하면 비용이 드나요?", "며칠 전까지 취소할 수 있어요?"],
        "ask_duration": ["시간이 얼마나 걸려요?", "몇 시간 정도 잡으면 돼요?"],
    },
    "ja": {
        "ask_prices": ["料金はいくらですか？", "団体割引はありますか？"],
        "ask_cancelling": ["キャンセル料はかかりますか？", "何日前までキャンセルできますか？"],
        "ask_duration": ["どのくらい時間がかかりますか？", "所要時間はどれくらいですか？"],
    },
}


def faq(language: str) -> Scenario:
    """A step that answers three questions, one of them the price."""
    intents: dict[str, Any] = {
        name: {"examples": examples} for name, examples in EXAMPLES[language].items()
    }
    on = [
        {
            "condition": {"field": "nlu.intent", "operator": "equals", "value": name},
            "target": "answer",
        }
        for name in intents
    ]
    nodes = [
        {"id": "start", "next_nodes": on},
        {"id": "answer", "terminal": True},
    ]
    return Scenario.from_dict(make_graph(nodes, language=language, intents=intents))


@pytest.mark.parametrize(
    ("language", "said", "intent"),
    [
        ("en", "Before I pick a day, what's the damage going to be for four of us?", "ask_prices"),
        ("en", "Roughly what would that run me?", "ask_prices"),
        ("en", "Is this going to break the bank?", "ask_prices"),
        ("ko", "근데 솔직히 지갑 사정이 좀 걱정돼서요, 돈이 많이 깨지나요?", "ask_prices"),
        ("ko", "파마는 몇 만 원 선이에요?", "ask_prices"),
        ("ja", "振袖って、お財布的にはどのくらい見ておけばいいですか？", "ask_prices"),
        ("ja", "ちなみに、予算ってどれぐらい見ておけばいいですかね？", "ask_prices"),
        # Words the price shares with other questions keep to those.
        ("en", "How much notice do I need to give?", "ask_cancelling"),
        ("en", "Could you run me through how it works?", None),
        ("ko", "시간이 얼마나 걸리는지 궁금해요", "ask_duration"),
        ("ja", "キャンセル料ってかかりますか？", "ask_cancelling"),
    ],
)
def test_the_price_asked_in_other_words_is_the_price_question(
    language: str, said: str, intent: str | None
) -> None:
    assert analyse(faq(language), "start", said, None).intent == intent
