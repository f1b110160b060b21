"""Japanese pack data for everyday speech at a read-back and a free note: a read-back
confirmed in other words, a read-back with a mistake, nothing to add, and help, repeat and
goodbye said differently; and what none of these is (questions, negated forms, small talk)."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.nlu._discipline import said_wrong
from tests.nlu.reading import analyse, nothing_to_add, read_back_scenario

FILLED: dict[str, Any] = {"name": "山田", "time": "15:00"}


def scenario(*, note_denies: bool = False) -> Scenario:
    return read_back_scenario(
        "ja", ("ご要望はありますか？", "お名前は？", "何時にしますか？"), note_denies=note_denies
    )


def at_readback(text: str) -> str | None:
    return analyse(scenario(), "confirm", text, None, dict(FILLED)).intent


@pytest.mark.parametrize(
    "text",
    [
        "間違いありません",
        "間違いないです",
        "内容に間違いはございません",
        "相違ありません",
        "問題ありません",
        "特に問題はないです",
        "その内容で大丈夫です",
        "それで進めてください",
        "その内容で進めてもらって大丈夫です",
        "完璧です",
        "完璧、それで予約してください",
        "ばっちりです",
        "バッチリ",
        "今のままで構いません",
        "そのままでいいです",
        "このままでお願いします",
        "元のままでいいです",
        "全部合っています",
        "すべて正しいです",
        "おっしゃる通りです",
        "まさにそれです",
        "それで確定してください",
        "変更なしで",
        "直すところはありません",
        "直さなくて大丈夫です",
        "申し分ありません",
        "おっけーです",
        "間違いなくその内容です",
        "名前は間違いありません",
    ],
)
def test_a_read_back_confirmed_in_other_words_is_a_yes(text: str) -> None:
    assert at_readback(text) == "affirm"


@pytest.mark.parametrize(
    "text",
    [
        "一か所違います",
        "食い違っています",
        "ちょっと違っています",
        "直してほしいところがあります",
        "修正してほしい点があります",
        "訂正させてください",
        "取り違えているみたいです",
        "そうは言っていません",
        "そんなこと言ってないです",
        "合っていません",
        "合ってないです",
        "正しくないです",
        "正しくありません",
        "完璧ではありません",
        "そのままではダメです",
        "このままじゃ困ります",
        "間違いがあります",
        "どこか間違えています",
        "ちょっと問題あります",
        "誤りがあります",
        "何かおかしいです",
        "日付がごっちゃになっています",
    ],
)
def test_a_read_back_with_a_mistake_is_a_no(text: str) -> None:
    assert at_readback(text) == "deny"


@pytest.mark.parametrize(
    "text",
    [
        "間違いないですか",
        "それで合ってますか",
        "問題ありませんか",
        "完璧ですか",
        "進めてもいいですか",
        "それで進めないでください",
        "今日はいい天気ですね",
        "子供はいません",
    ],
)
def test_a_question_a_negation_or_small_talk_confirms_nothing(text: str) -> None:
    assert at_readback(text) != "affirm"


@pytest.mark.parametrize(
    "text",
    ["問題ありません", "間違いありません", "直してほしいところはありません", "違いはないです"],
)
def test_no_mistake_or_a_question_is_no_no(text: str) -> None:
    assert at_readback(text) != "deny"


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("名前が間違っています", ["name"]),
        ("名前の漢字が違っています", ["name"]),
        ("名前を訂正したいです", ["name"]),
        ("名前を直してください", ["name"]),
        ("名前は間違いありません", []),
        ("名前は間違いないです", []),
        ("名前は違っていません", []),
    ],
)
def test_a_named_slot_is_wrong_only_when_said_so(text: str, wrong: list[str]) -> None:
    graph = scenario()
    slots = {name: slot for name in ("name", "time") if (slot := graph.slot(name)) is not None}
    assert said_wrong(text, slots, "ja") == wrong


def test_a_fix_with_its_new_value_is_no_plain_no() -> None:
    result = analyse(scenario(), "confirm", "時間を4時に直してください", None, dict(FILLED))
    assert result.intent is None
    assert result.entities["time"] == "04:00"


NOTHING = [
    "特にございません",
    "これといってありません",
    "付け加えることはありません",
    "特に思い当たりません",
    "何も思いつかないです",
    "今のところ特に何もないです",
    "ご要望は特にございません",
    "特別なリクエストはないです",
    "追加は特にないです",
    "特に気になることはないです",
    "いいえ、特に思いつきません",
    "うーん、これといってないです",
    "なしでお願いします",
    "以上です",
    "それで全部です",
]


@pytest.mark.parametrize("text", NOTHING)
def test_nothing_to_add_is_a_no_where_a_transition_takes_it_else_the_note(text: str) -> None:
    nothing_to_add(scenario, text)


@pytest.mark.parametrize(
    "text",
    [
        "特にありますか",
        "何もないですか",
        "それだけですか",
        "アレルギーはありません",
        "窓側の席がいいです",
        "追加でお願いしたいことがあります",
    ],
)
def test_a_question_or_a_real_note_is_no_nothing(text: str) -> None:
    result = analyse(scenario(note_denies=True), "ask_note", text, "note")
    assert result.intent != "deny"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("聞き逃しました", "repeat"),
        ("よく聞こえませんでした", "repeat"),
        ("ちょっと聞こえなかったです", "repeat"),
        ("すみません、周りがうるさくて", "repeat"),
        ("電波が悪くて聞き取れませんでした", "repeat"),
        ("え、何ておっしゃいました？", "repeat"),
        ("今なんて言った？", "repeat"),
        ("もう少しゆっくり言ってもらえますか", "repeat"),
        ("何と答えればいいですか", "help"),
        ("どう答えればいいかわかりません", "help"),
        ("ここで何を言えばいいの？", "help"),
        ("質問の意味がよくわかりません", "help"),
        ("ちょっと混乱しています", "help"),
        ("今日はこれで失礼します", "goodbye"),
        ("もう行かなきゃ、じゃあまた", "goodbye"),
        ("バイバイ", "goodbye"),
        ("今日はここまでにします", "goodbye"),
        ("また改めて連絡します", "goodbye"),
        ("お疲れ様でした", "goodbye"),
        ("そろそろ電話を切りますね", "goodbye"),
        ("じゃあ、また来ますね", "goodbye"),
        ("今日はやめて、また今度にします", "goodbye"),
    ],
)
def test_repeat_help_and_goodbye_in_other_words(text: str, intent: str) -> None:
    assert analyse(scenario(), "ask_name", text, "name").intent == intent
    assert at_readback(text) == intent


@pytest.mark.parametrize(
    "text",
    [
        "聞こえますか",
        "よく聞こえます",
        "聞き取れました",
        "意味がわかりました",
        "病院に行かないといけません",
        "じゃあこれでお願いします",
        "締め切りはいつですか",
        "完璧な天気ですね",
        "今日はいい天気ですね",
    ],
)
def test_what_none_of_them_is(text: str) -> None:
    intent = analyse(scenario(), "ask_name", text, "name").intent
    assert intent not in ("repeat", "help", "goodbye", "affirm", "deny")


@pytest.mark.parametrize(
    "text",
    ["エンジンに問題があります", "歯の様子がおかしいです", "違っていたら教えてください"],
)
def test_a_problem_told_is_no_no(text: str) -> None:
    assert analyse(scenario(), "ask_note", text, "note").intent != "deny"
