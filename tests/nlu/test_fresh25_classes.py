"""Classes two more blind sets on six new graphs showed (`benchmarks/paraphrases/fresh25` and
`fresh26`, written in one round): a Korean numeral that ends another word starts no number
("제 핸드폰이 공일공 …"); "어디 보자" and "…のほうがいいかな" ask nothing; a sum after a pause
written as dots ("…三人ですね"); a value read back that news came against ("방금 연락이
왔네요", "急に…ことになっちゃって", "今思い出しました"), that is a write-off, cut off or not it
after all ("it's not ants at all", "그게 아니었네요"), or that should be a little later ("좀
늦은 오후로"); one more thing brought along ("ついでに持っていこうかと"); another of the options
("ほかのでお願いできます？") or another person on the booking ("名義を別の人に"); a request to be
seen ("선생님 한번 뵐 수 있을까요?", "I was hoping you lot could whip something up"); a
leave-taking after "alright"; new withdrawals; and questions of price, hours and how long it
takes, in other words."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit.nlu._acts import ends_in_withdrawal, is_question, is_withdrawal
from dialogkit.nlu._entities import extract_phone
from dialogkit.scenario.scenario import Scenario
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_change_requests import changed
from tests.nlu.test_fresh9_classes import greeting
from tests.nlu.test_fresh14_classes import _count_step
from tests.nlu.test_fresh15_classes import _asking

NAME = {"type": "text", "kind": "person_name", "prompt": "?"}
PHONE = {"type": "phone", "prompt": "?"}
DATE = {"type": "date", "prompt": "?"}
TIME = {"type": "time", "prompt": "?"}
BIKES = {"type": "integer", "kind": "count", "unit": "items", "prompt": "?"}
PESTS = {"type": "enum", "values": ["ants", "mice"], "prompt": "?"}
TREATMENTS = {"type": "enum", "values": ["ジェルネイル", "ネイルケア"], "prompt": "?"}


@pytest.mark.parametrize(
    ("said", "phone"),
    [
        ("네, 제 핸드폰이 공일공 사팔이칠 일오구삼이에요", "010-4827-1593"),
        ("제 번호는 공일공에 사칠팔이 구구공일이요", "010-4782-9901"),
    ],
)
def test_a_numeral_that_ends_another_word_starts_no_number(said: str, phone: str) -> None:
    assert extract_phone(said) == phone


@pytest.mark.parametrize(
    ("language", "said", "asks"),
    [
        ("ko", "어디 보자… 다음 주 금요일이 좋겠네요.", False),
        ("ja", "来週の金曜日…あ、いや、木曜日のほうがいいかな", False),
        ("ja", "近所のホームセンターで済ませちゃおうかな", False),
        ("ja", "どれがいいかな", True),
        ("ko", "어디로 가면 돼요?", True),
    ],
)
def test_musing_and_a_filler_ask_nothing(language: str, said: str, asks: bool) -> None:
    assert is_question(said, language) is asks


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ko", "어디 보자… 다음 주 금요일이 좋겠네요.", "2026-12-04"),
        ("ja", "来週の金曜日…あ、いや、木曜日のほうがいいかな", "2026-12-03"),
    ],
)
def test_a_date_said_after_a_filler_or_mused_is_the_date(
    language: str, said: str, value: str
) -> None:
    read = analyse(_asking(language, DATE), "ask", said, "asked")
    assert read.entities.get("asked") == value


def test_a_sum_after_a_pause_written_as_dots() -> None:
    said = "母と私と、あと高校生の娘も連れて行きたいので…三人ですね"
    assert analyse(_count_step("ja"), "ask_party", said, "party").entities["party"] == 3


@pytest.mark.parametrize(
    ("language", "slot", "declared", "held", "said", "intent"),
    [
        (
            "en",
            "day",
            DATE,
            "2026-12-10",
            "Oh shoot, my in-laws fly in that Thursday and the place will be total chaos.",
            "redo",
        ),
        (
            "en",
            "day",
            DATE,
            "2026-12-05",
            "Ah, that Saturday's a write-off now, the in-laws are flying in.",
            "redo",
        ),
        (
            "en",
            "phone",
            PHONE,
            "5125550147",
            "Ah, that's my old work line. I left that job last month, so nobody'll pick up there.",
            "redo",
        ),
        (
            "en",
            "phone",
            PHONE,
            "5125550147",
            "That line's about to be disconnected, so you won't reach me on it.",
            "redo",
        ),
        (
            "en",
            "pest",
            PESTS,
            "ants",
            "Hmm, my wife just told me what she actually found in the kitchen, and it's not ants "
            "at all.",
            "redo",
        ),
        (
            "ko",
            "day",
            DATE,
            "2026-12-01",
            "아이고, 그 화요일에 시어머니가 올라오신다고 방금 연락이 왔네요.",
            "redo",
        ),
        (
            "ko",
            "time",
            TIME,
            "10:00",
            "오전엔 제가 가게를 지켜야 해서 좀 늦은 오후로 가야 할 것 같아요",
            "redo",
        ),
        (
            "ko",
            "service",
            {"type": "enum", "values": ["연말정산", "종합소득세"], "prompt": "?"},
            "연말정산",
            "알고 보니 연말정산은 회사 경리팀에서 알아서 해 준대요. 제가 여쭤볼 건 그게 아니었네요",
            "redo",
        ),
        ("ko", "day", DATE, "2026-12-01", "어… 잠깐만요, 뭔가 하나 어긋난 것 같은데요.", "deny"),
        (
            "ja",
            "day",
            DATE,
            "2026-11-24",
            "その火曜、急に義母が泊まりに来ることになっちゃって",
            "redo",
        ),
        (
            "ja",
            "day",
            DATE,
            "2026-11-28",
            "あっ、その日って子どもの運動会でした…今思い出しました",
            "redo",
        ),
        (
            "ja",
            "bikes",
            BIKES,
            1,
            "考えてみたら、娘のもチェーンがガタガタいってるんで、ついでに持っていこうかと",
            "redo",
        ),
        (
            "ja",
            "treatment",
            TREATMENTS,
            "ジェルネイル",
            "あ、皮膚科の先生にジェルは当分控えるように言われてたんでした。ほかのでお願いできます？",
            "redo",
        ),
        ("ja", "name", NAME, "山田太郎", "予約の名義を別の人にしたいんですが", "redo"),
        (
            "ja",
            "day",
            DATE,
            "2026-11-28",
            "あれ、どこか聞き間違えてません？私が伝えたのとズレてるところがあるような…",
            "deny",
        ),
    ],
)
def test_a_read_back_in_other_words(
    language: str, slot: str, declared: dict[str, Any], held: Any, said: str, intent: str
) -> None:
    assert changed(language, slot, declared, held, said) == intent


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Hi there, we've got a big family do coming up and I was hoping you lot could whip "
            "something up for it.",
        ),
        ("ko", "작년에 가게를 열었는데 장부 정리부터 막막해서요, 선생님 한번 뵐 수 있을까요?"),
    ],
)
def test_a_request_to_be_seen_is_the_offer(language: str, said: str) -> None:
    assert analyse(greeting(language), "start", said, None).intent == "book"


def test_a_leave_taking_after_alright_takes_leave() -> None:
    on = [
        {"condition": {"field": "nlu.intent", "operator": "equals", "value": name}, "target": "end"}
        for name in ("book", "goodbye")
    ]
    nodes = [{"id": "start", "next_nodes": on}, {"id": "end", "terminal": True}]
    intents = {"book": {"examples": ["I'd like to book a visit"]}}
    scenario = Scenario.from_dict(make_graph(nodes, intents=intents))
    said = "Alright, that's all I needed to know. Take care!"
    assert analyse(scenario, "start", said, None).intent == "goodbye"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Look, my sister's just messaged, she's already got one from a shop near her, so "
            "don't worry about it.",
        ),
        ("ja", "今回は見送ることにします"),
    ],
)
def test_new_withdrawals(language: str, said: str) -> None:
    assert is_withdrawal(said, language)


def test_having_it_done_elsewhere_trails_off_into_a_withdrawal() -> None:
    said = "すみません、よく考えたら近所のホームセンターで済ませちゃおうかなって…"
    assert ends_in_withdrawal(said, "ja")
    assert analyse(_asking("ja", NAME), "ask", said, "asked").entities.get("asked") is None


def test_a_compliment_at_the_name_step_names_nobody() -> None:
    said = "電話の対応がすごく丁寧で、感じいいですね"
    assert analyse(_asking("ja", NAME), "ask", said, "asked").entities.get("asked") is None


@pytest.mark.parametrize(
    ("language", "intent", "examples", "said"),
    [
        ("en", "ask_price", None, "Ballpark, what would I be up for with a three-tier one?"),
        (
            "en",
            "ask_hours",
            ["do you work on weekends?"],
            "Do your guys ever come out on a Saturday, or is it strictly weekdays?",
        ),
        ("ko", "ask_price", None, "네 짝 싹 다 새 걸로 하면 대충 몇 장 깨질까요?"),
        (
            "ko",
            "ask_price",
            None,
            "카드 긁을 때 놀라지 않게, 대충 어느 선인지 미리 알 수 있을까요?",
        ),
        (
            "ko",
            "ask_hours",
            ["몇 시까지 하세요?", "주말에도 문 열어요?"],
            "회사 끝나고 부랴부랴 달려가도 셔터 안 내려가 있을까요?",
        ),
        (
            "ko",
            "ask_hours",
            ["주말에도 문 열어요?"],
            "제가 퇴근하면 일곱 시가 넘는데, 그때 가도 사람 있어요?",
        ),
        (
            "ko",
            "ask_duration",
            ["작업 시간 얼마나 걸려요?"],
            "옆 카페에서 커피 한 잔 하고 오면 될 정도예요, 아니면 반나절은 각오해야 돼요?",
        ),
        ("ja", "ask_price", None, "タイヤの穴ふさぐだけなら、千円札一枚で足ります？"),
        (
            "ja",
            "ask_hours",
            ["何時まで開いていますか？"],
            "仕事終わりだと夜八時過ぎちゃうんですけど、そんな遅くでもお店やってます？",
        ),
        (
            "ja",
            "ask_duration",
            ["修理にどのくらい時間がかかりますか？"],
            "通勤で毎日乗るんで、あんまり長いこと手元に無いと困っちゃうんですけど、どんなもんですかね？",
        ),
    ],
)
def test_a_question_in_other_words(
    language: str, intent: str, examples: list[str] | None, said: str
) -> None:
    also = {intent: {"examples": examples}} if examples else None
    assert analyse(greeting(language, also=also), "start", said, None).intent == intent
