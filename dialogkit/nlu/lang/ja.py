"""Japanese."""

from __future__ import annotations

from typing import Final

from dialogkit.nlu.lang import LanguagePack

PACK: Final = LanguagePack(
    code="ja",
    openers=("えっと", "あの", "あ"),
    positive_words=("はい", "うん", "ええ"),
    negation=(r"ない", r"なかった", r"ません", r"忘れ", r"いいえ", r"いや", r"まだ", r"違"),
    question=(r"(?:ですか|ますか|でしょうか|か|かな|かね|っけ|の)\s*$",),
    request=(
        r"(?:に|へ)(?:して|変えて|変更して|替えて|直して)(?:もらえ|いただけ|くれ|くださ)",
        r"(?:に|へ)(?:変更|変え|し)(?:られ|でき)ますか",
        r"(?:で|に)(?:予約|お願い)(?:でき|できま)",
    ),
    correction=(r"訂正(?:します|です)?", r"間違え(?:ました|た)", r"^いや(?=[\s、,])"),
    replaced=(r"じゃなくて", r"じゃなく", r"ではなくて", r"ではなく", r"でなく", r"の代わりに"),
    moved=(r"から",),
    range_end=(r"まで",),
    range_start=(r"から",),
    range_joint=(r"から", r"~", r"〜"),
    wishes=(
        r"ください",
        r"お願い",
        r"したい",
        r"たいです",
        r"します\s*$",
        r"しましょう",
        r"にする",
    ),
    function_words=(
        "お願いします",
        "おねがいします",
        "お願い",
        "ください",
        "下さい",
        "してください",
        "します",
        "でお願いします",
        "です",
    ),
    self_words=("私", "僕", "わたし", "ぼく", "俺"),
    alone=(r"一人で", r"ひとりで", r"私だけ", r"自分だけ"),
    with_companion=(
        r"(?:私|僕|わたし|自分)と(?:妻|夫|主人|友達|友人|母|父|息子|娘|彼女|彼氏)",
        r"(?:妻|夫|主人|友達|友人|母|父|息子|娘|彼女|彼氏)と(?:私|僕|わたし|自分)",
        r"夫婦",
    ),
    zero_after=(
        r"\s*(?:は|も)?\s*(?:いません|いない|なし|無し|ゼロ|0人|来ません|連れて(?:いき|行き)ません)",
    ),
    particles=("は", "が", "も"),
    conjunctions=(
        r"と",
        r"、",
    ),
    zero_answers=(r"いません", r"いない", r"なし", r"無し", r"ゼロ", r"0人"),
    labels={
        "person_name": ("名前", "氏名"),
        "address": ("住所",),
        "phone": ("電話番号",),
        "email": ("メール",),
        "birth_date": ("誕生日", "生年月日"),
        "date": ("日付",),
        "time": ("時間",),
    },
    meta_remarks=(r"言わないと", r"必要ですか"),
    place_units=(r"[都道府県市区町村]", r"丁目", r"番地"),
    wrong=(r"違います", r"違う", r"間違って", r"間違い"),
)
