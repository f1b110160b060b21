"""A person named by relation ("my wife", "우리 애요", "主人です"), an anecdote ("우리 애가
차만 타면 자요", "うちの子、車に乗るとすぐ寝ちゃうんですよね") or a remark about the place
("ここの電話、なかなかつながらなかったですよ") is no person's name: at a name step each was
stored as the name."""

from __future__ import annotations

import pytest

from dialogkit import Engine
from tests.nlu.test_pack_fillers import stored


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("ko", "우리 애요", None),
        ("ko", "아내 이름으로 해 주세요", None),
        ("ko", "우리 애가 차만 타면 자요", None),
        ("ja", "妻です", None),
        ("ja", "主人の名前で", None),
        ("ja", "うちの子、車に乗るとすぐ寝ちゃうんですよね", None),
        ("ja", "子供が車ですぐ寝ちゃうんです", None),
        ("en", "my husband", None),
        ("ja", "娘の名前で、山田花子です", "山田花子"),
        ("ko", "아내 이름으로, 박지영이요", "박지영"),
        ("en", "It's for my wife, Emma Johnson", "Emma Johnson"),
        ("ko", "고 민수요", "고민수"),
        ("ja", "田中です", "田中"),
        # A remark about the place is no name either.
        ("ja", "ここの電話、なかなかつながらなかったですよ", None),
        ("ja", "受付の方、とても親切でした", None),
        ("ja", "この店、駅から遠いですね", None),
        ("ja", "田中ですよ", "田中"),
        ("ja", "山田の名前で予約してます", "山田"),
    ],
)
def test_a_relation_or_an_anecdote_is_no_name(
    offline: Engine, language: str, said: str, value: object
) -> None:
    assert stored(offline, language, "name", said) == value
