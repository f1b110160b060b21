"""Dialogue acts by form, in ko/en/ja: yes and no with trailing words, closings and
leave-taking, conjugated keywords, negation, corrections, questions."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import correction, is_question, leading_act, polarity
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS
from dialogkit.nlu._entities import INVALID, extract
from dialogkit.nlu._morphology import keyword_in, normalize, stem
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import RuleNLU
from dialogkit.scenario.model import Intent, Slot
from tests.helpers import make_graph

SCENARIO = Scenario.from_dict(make_graph([{"id": "n", "description": "N.", "terminal": True}]))
CARD = Slot(type="enum", values=["체크카드", "신용카드"], synonyms={"신용카드": ["credit"]})
DATE = Slot(type="date")
NUMBER = Slot(type="integer")
TOOK = Slot(type="boolean")


def analyse(
    text: str,
    slots: dict[str, Slot] | None = None,
    expected: str | None = None,
    intents: dict[str, Intent] | None = None,
) -> NLUResult:
    request = NLURequest(
        scenario=SCENARIO,
        node=SCENARIO.nodes[0],
        text=text,
        intents={**(intents or {}), **BUILTIN_INTENTS},
        slots=slots or {},
        expected_slot=expected,
    )
    return RuleNLU().analyse(request)


@pytest.mark.parametrize(
    "text",
    [
        "네 그걸로 할게요",
        "넹",
        "넴",
        "맞아여",
        "ㅇㅇ",
        "예 그렇게 해 주세요",
        "응응 맞아",
        "좋아요 감사합니다",
        "그렇게 해 주세요",
        "yeah that's right",
        "yes please",
        "sure, go ahead",
        "yep, sounds good",
        "はい、お願いします",
        "うん、そうです",
        "ええ、それでお願いします",
        "そうです",
        "それで結構です",
        "that works",
    ],
)
def test_confirmation_forms_with_trailing_words_are_affirm(text: str) -> None:
    assert analyse(text).intent == "affirm"


@pytest.mark.parametrize(
    "text",
    [
        "아니요",
        "아뇨 됐어요",
        "ㄴㄴ",
        "아냐",
        "아니 별로",
        "아니 괜찮아요",
        "아니 됐어요",
        "nope",
        "not really",
        "no thanks",
        "nah",
        "いいえ",
        "いや、結構です",
        "結構です",
        "もういいです",
        "maybe later",
        "違います",
        "ううん、違う",
    ],
)
def test_denial_forms_are_deny(text: str) -> None:
    assert analyse(text).intent == "deny"


@pytest.mark.parametrize(
    "text",
    [
        "안녕히 계세요",
        "수고하세요",
        "이만 끊을게요",
        "나중에 할게요",
        "들어가세요",
        "that's all, thanks",
        "bye for now",
        "see you later",
        "失礼します",
        "それでは失礼します",
        "じゃあね",
        "また今度にします",
    ],
)
def test_leave_taking_forms_are_goodbye(text: str) -> None:
    assert analyse(text).intent == "goodbye"


@pytest.mark.parametrize(
    "text", ["감사합니다", "정말 고마워요", "thank you so much", "ありがとうございました"]
)
def test_thanks_is_not_a_goodbye(text: str) -> None:
    assert analyse(text).intent == "thanks"


def test_a_yes_that_goes_on_lets_the_rest_decide() -> None:
    proceed = Intent(keywords=["주소가 틀"])
    result = analyse("네 근데 주소가 틀렸어요", intents={"change_address": proceed})
    assert result.intent == "change_address"
    act = leading_act("네 근데 주소가 틀렸어요")
    assert act is not None and act.act == "affirm" and not act.whole


@pytest.mark.parametrize(
    "text",
    [
        "응? 소리가 작아서 놓쳤어",
        "네? 뭐라고요?",
        "Yes? Sorry, what was that?",
        "はい？よく聞こえません",
    ],
)
def test_a_yes_asked_back_is_no_yes_but_a_huh(text: str) -> None:
    assert leading_act(text) is None
    assert analyse(text).intent == "repeat"


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ("이만 끊을게요", "이만 끊겠습니다"),
        ("수고하세요", "수고하십시오"),
        ("수고하세요", "수고해요"),
        ("그만할게요", "이제 그만했으면 해요"),
        ("도와주세요", "좀 도와줘"),
        ("안녕히 계세요", "안녕히 계십시오"),
        ("안 맞", "안맞아요"),
        ("밥은 안 먹", "밥은 사실 안 먹었어"),
        ("忘れました", "忘れてた"),
        ("終わりにします", "今日は終わりにしよう"),
        ("cancel", "i cancelled it"),
        ("forget", "forgetting"),
    ],
)
def test_keywords_match_their_conjugated_forms(keyword: str, text: str) -> None:
    assert keyword_in(normalize(text), normalize(keyword))


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ("아파", "이제 안 아파요"),
        ("먹었", "못 먹었어"),
        ("잤", "잘 못 잤어"),
        ("아프", "아프지 않아요"),
        ("take", "i didn't take it"),
        ("take", "i did not take it"),
        ("飲んだ", "飲んでない"),
        ("correct", "incorrect"),
        ("네 맞", "네 안 맞아요"),
    ],
)
def test_keywords_do_not_match_where_they_are_negated(keyword: str, text: str) -> None:
    assert not keyword_in(normalize(text), normalize(keyword))


def test_the_stemming_rules_keep_two_syllables() -> None:
    assert stem("수고하세요") == "수고하"
    assert stem("끊을게요") == "끊을게요"  # one syllable would match too much
    assert stem("맞습니다") == "맞습니다"
    assert stem("忘れました") == "忘れ"


def test_a_negated_example_does_not_resemble_its_positive() -> None:
    cancel = Intent(examples=["안 만들래요", "신청 취소할게요"])
    assert analyse("하나 만들래요", intents={"cancel": cancel}).intent is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("안 먹었어", False),
        ("못 먹었어", False),
        ("까먹었어", False),
        ("잊어버렸어요", False),
        ("깜빡했어요", False),
        ("밥은 먹었는데 약은 깜빡했네", False),
        ("네 먹었어요", True),
        ("응 챙겨 먹었지", True),
        ("I didn't take it", False),
        ("I forgot", False),
        ("not yet", False),
        ("yes I did", True),
        ("飲んでない", False),
        ("忘れた", False),
        ("まだです", False),
        ("はい、飲みました", True),
    ],
)
def test_negation_flips_a_yes_no_slot(text: str, value: bool) -> None:
    assert polarity(text) is value
    assert extract(TOOK, text, expected=True) is value


@pytest.mark.parametrize("text", ["먹었네", "밥 먹었어", "I had lunch"])
def test_a_yes_needs_a_yes_word(text: str) -> None:
    assert extract(TOOK, text, expected=True) is INVALID


@pytest.mark.parametrize(
    ("text", "payload"),
    [
        ("아 아니 제 말은 김민준이요", "김민준이요"),
        ("아니 체크카드 말고 신용카드", "신용카드"),
        ("1990년이 아니라 1991년이에요", "1991년이에요"),
        ("No, I meant 7 pm", "7 pm"),
        ("no wait, make that 2000", "2000"),
        ("change it to 4 people", "4 people"),
        ("いや、5時じゃなくて6時", "6時"),
        ("田中じゃなくて山田です", "山田です"),
        ("아니요, 신용카드요", "신용카드요"),
        ("large, not small", "large"),
        ("신용카드요, 체크카드 말고", "신용카드요"),
        ("スモール、ラージじゃなくて", "スモール"),
    ],
)
def test_a_correction_says_what_it_means_instead(text: str, payload: str) -> None:
    assert correction(text) == payload


@pytest.mark.parametrize(
    "text",
    [
        "네 맞아요",
        "아니요",
        "신용카드요",
        "yes",
        "いいえ",
        "the one not on sale",
        "회사에서 받을게요",
        "제가 대신 받을게요",
        "東京から来ました",
    ],
)
def test_plain_answers_are_not_corrections(text: str) -> None:
    assert correction(text) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("신용카드 말고 체크카드요", "체크카드"),
        ("아니 제 말은 신용카드요", "신용카드"),
        ("no, I meant credit", "신용카드"),
        ("체크카드じゃなくて신용카드", "신용카드"),
    ],
)
def test_a_correction_fills_the_slot_it_names(text: str, value: str) -> None:
    result = analyse(text, slots={"card": CARD})
    assert result.entities == {"card": value}
    assert result.dialogue_act == "correct"
    assert result.intent != "deny"


@pytest.mark.parametrize(
    "text",
    [
        "이름 꼭 말해야 돼요?",
        "배송은 언제 와요",
        "오늘 몇 시까지 하나요",
        "what ammo do you have available",
        "can you hear me",
        "何時に開きますか",
        "明日は開いていますか",
    ],
)
def test_questions_are_recognised(text: str) -> None:
    assert is_question(text)
    assert analyse(text).dialogue_act == "question"


@pytest.mark.parametrize(
    "text",
    [
        "뭐 그냥 그래요",
        "몇 번 깼어",
        "아까 먹었어",
        "왜 그런지 모르겠어요",
        "언제부턴가 허리가 아파요",
        "어디선가 소리가 나서 깼어요",
        "when ready, over",
        "have a good day",
    ],
)
def test_statements_are_not_questions(text: str) -> None:
    assert not is_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "時間は8時にしてもらえますか",
        "日にちを明後日に変えていただけますか？",
        "모레로 바꿔 주실래요?",
        "5명으로 해 줄 수 있어요?",
        "could you make it 8 pm?",
        "Can we change it to Friday?",
    ],
)
def test_a_request_to_set_a_value_is_no_question(text: str) -> None:
    assert not is_question(text)


def test_a_question_fills_no_text_slot() -> None:
    note = Slot(type="text")
    assert analyse("배송은 언제 와요?", slots={"address": note}, expected="address").entities == {}
    assert analyse("a tank in the open", slots={"target": note}, expected="target").entities


def test_a_bare_yes_or_thank_you_is_not_a_text_answer() -> None:
    note = Slot(type="text")
    for text in ("네 감사합니다", "고마워요", "thanks"):
        assert analyse(text, slots={"note": note}, expected="note").entities == {}


@pytest.mark.parametrize(
    ("text", "value"),
    [("nah I skipped it today", False), ("아니 아직 안 먹었어", False), ("いや、まだ", False)],
)
def test_a_no_that_answers_a_yes_no_slot_stays_a_no(text: str, value: bool) -> None:
    result = analyse(text, slots={"took": TOOK}, expected="took")
    assert result.entities == {"took": value}
    assert result.intent == "deny" and result.dialogue_act == "deny"
