"""Values the way people say them, found by a blind set of value answers on three graphs
nobody tuned on (`benchmarks/paraphrases/fresh3`): counters of things for a count of items,
an offer worded as a question, a name said twice, a correction said with "違う", a booking
name after "예약은", a closing courtesy, "a week from today", "double oh"."""

from __future__ import annotations

import pytest

from dialogkit import Engine, Scenario
from dialogkit.nlu._acts import asks_about_values, correction, offers_values
from dialogkit.nlu._counts import read_counts
from dialogkit.nlu._dates import read_date
from dialogkit.nlu._entities import INVALID, extract_email, extract_phone, extract_text
from dialogkit.nlu._frame import Frame
from dialogkit.nlu._times import read_time
from dialogkit.nlu._words import meant_part
from dialogkit.scenario.model import Slot
from tests.helpers import make_graph
from tests.nlu.reading import analyse
from tests.nlu.test_pack_fillers import stored


def asking(language: str, name: str, slot: dict[str, object]) -> Scenario:
    """A one-step scenario whose node ``n`` asks for ``slot``."""
    step = {"id": "n", "collect_slots": [name], "terminal": True}
    return Scenario.from_dict(make_graph([step], language=language, slots={name: slot}))


ITEMS = Slot(type="integer", unit="items", kind="count", prompt="How many?")
NOTE = Slot(type="text", prompt="Anything to add?")


@pytest.mark.parametrize(
    ("language", "said", "count"),
    [
        ("ko", "양복 세 벌이요, 출장 다녀와서 좀 밀렸거든요.", 3),
        ("ko", "이불은 두 채예요. 큰 거랑 작은 거요.", 2),
        ("ko", "와이셔츠가 한 열두 장이에요", 12),
        ("ja", "スーツが2着です", 2),
    ],
)
def test_items_are_counted_with_any_counter_of_things(
    offline: Engine, language: str, said: str, count: int
) -> None:

    graph = make_graph(
        [
            {"id": "ask", "collect_slots": ["count"], "default_next": "end"},
            {"id": "end", "terminal": True},
        ],
        language=language,
        slots={"count": ITEMS.model_dump(exclude_none=True)},
    )
    session = offline.start(Scenario.from_dict(graph))
    session.send(said)
    assert session.info().slots.get("count") == count


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Um, let's say quarter to two in the afternoon?"),
        ("en", "I'm in meetings till noon, so how about one o'clock?"),
        ("ja", "仕事終わりなので、夕方の5時45分ごろですかね。"),
    ],
)
def test_an_offer_worded_as_a_question_offers_its_values(language: str, said: str) -> None:
    assert offers_values(said, language)


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("en", "My name's Sarah, Sarah Mitchell.", "Sarah Mitchell"),
        ("ja", "えーと、田中です。田中美咲。", "田中美咲"),
        ("ko", "예약은 이민호로 해 주세요, 남편 이름이에요.", "이민호"),
        ("en", "Maria Lopez, 555-201-3344, I need metformin", "Maria Lopez"),
    ],
)
def test_a_name_is_read_in_full(offline: Engine, language: str, said: str, value: str) -> None:
    assert stored(offline, language, "name", said) == value


def test_a_correction_said_with_chigau_replaces_the_value() -> None:
    assert (
        correction("来週の火曜日…あ、違う、水曜日でお願いします。", "ja") == "水曜日でお願いします"
    )
    assert correction("名前が違います", "ja") is None


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("27 Maple Avenue, thanks.", "27 Maple Avenue"),
        ("창가 자리로 부탁해요, 감사합니다", "창가 자리로 부탁해요"),
        ("窓側の席で、ありがとうございます", "窓側の席で"),
        ("thanks", "thanks"),
    ],
)
def test_a_closing_courtesy_is_no_part_of_a_text_value(said: str, value: str) -> None:
    assert extract_text(NOTE, said) == value


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("could we move it to a week from today instead?", "2026-11-30"),
        ("two weeks from now", "2026-12-07"),
        ("3 days from tomorrow", "2026-11-27"),
    ],
)
def test_a_span_from_today_counts_from_today(said: str, day: str) -> None:
    frame = Frame.of({"date_time": "2026-11-23T10:00:00-05:00", "timezone": "America/New_York"})
    found = read_date(said, frame)
    assert found is not None and found.isoformat() == day


def test_double_and_triple_repeat_the_next_digit() -> None:
    said = "Let me see, it's four one five, five five five, two three double oh."
    assert extract_phone(said) == "4155552300"
    assert extract_phone("triple five, one two, three four five six seven") == "5551234567"


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("en", "Sure, it's under Mrs. Patricia Nguyen.", "Patricia Nguyen"),
        ("en", "It's Dr. Alvarez", "Dr. Alvarez"),
        ("en", "Um, the booking should be under Michael O'Connor, thanks.", "Michael O'Connor"),
        ("en", "the reservation is under Ann Lee", "Ann Lee"),
        ("ko", "저희 회사 정하늘 과장님 이름으로 잡아 주세요", "정하늘"),
        ("ko", "아, 예약은 박서준 이름으로 해 주세요", "박서준"),
        ("ko", "예약자 이름을 한지민으로 바꿔 주세요, 제 아내가 갈 거라서요", "한지민"),
        ("ja", "山田様でお願いします", "山田"),
    ],
)
def test_a_name_is_read_without_its_title_and_frame(
    offline: Engine, language: str, said: str, value: str
) -> None:
    """A title goes when the name stays whole without it; "X 이름으로" and "the booking is
    under X" frame a name as "under X" does."""
    assert stored(offline, language, "name", said) == value


@pytest.mark.parametrize("said", ["남편 이름으로 해 주세요", "제 이름으로 해 주세요"])
def test_a_name_by_relation_or_self_is_no_name(offline: Engine, said: str) -> None:
    assert stored(offline, "ko", "name", said) is None


ADDRESS = Slot(type="text", kind="address", prompt="Where?")


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Um, it's 27 Maple Avenue, thanks.", "27 Maple Avenue"),
        ("we live on 5 Oak Lane", "5 Oak Lane"),
        ("my address is 301 Main St, Apt 2", "301 Main St, Apt 2"),
        ("48 Birch Lane, Apt 3, Somerville", "48 Birch Lane, Apt 3, Somerville"),
        ("저희 집 주소는 서울시 마포구 합정동 123이에요", "서울시 마포구 합정동 123"),
        ("住所は東京都港区芝公園4-2-8です", "東京都港区芝公園4-2-8"),
    ],
)
def test_an_address_is_read_out_of_the_sentence_around_it(said: str, value: str) -> None:
    assert extract_text(ADDRESS, said, "address") == value


@pytest.mark.parametrize(
    ("language", "said", "count"),
    [
        ("ko", "저랑 남편이랑 애들 둘 해서 네 명이요", 4),
        ("ja", "私と妻と、子供が二人なので、全部で四人ですね。", 4),
        ("en", "me, my wife and our two boys, so four", 4),
        ("en", "two couples, four in total... no, a total of five", 5),
    ],
)
def test_a_sum_announced_after_a_list_is_the_count(
    offline: Engine, language: str, said: str, count: int
) -> None:
    assert stored(offline, language, "people", said) == count


@pytest.mark.parametrize(
    ("language", "said", "counts"),
    [
        ("en", "Well, it's me, my husband and my sister, so three adults.", {"adults": 3}),
        ("ja", "夫と私と、友達が二人なので、全部で四人です", {"adults": 4}),
        ("en", "2 adults and 1 kid, so 3 of us in total", {"adults": 2, "children": 1}),
    ],
)
def test_the_parts_of_a_sum_fill_no_other_count(
    language: str, said: str, counts: dict[str, int]
) -> None:
    """The people listed before "so three" are the three, not children besides them."""
    slots = {
        "adults": Slot(type="integer", kind="count", unit="people", nouns=["adults"]),
        "children": Slot(type="integer", kind="count", unit="people", nouns=["kid", "children"]),
    }
    assert read_counts(said, slots, "adults", language) == counts


@pytest.mark.parametrize(
    ("said", "readings"),
    [
        ("저녁 일곱 시 되기 십오 분 전쯤 도착할 것 같아요", ("18:45",)),
        ("朝の九時の十五分前にお願いします。", ("08:45",)),
        ("午後3時の10分前", ("14:50",)),
        ("quarter to nine pm", ("20:45",)),
        ("quarter to nine", ("08:45", "20:45")),
    ],
)
def test_minutes_before_the_hour_keep_the_day_part(said: str, readings: tuple[str, ...]) -> None:
    assert read_time(said, bare=True) == readings


@pytest.mark.parametrize(
    ("said", "phone"),
    [
        ("ゼロハチゼロの、キュウハチナナロクの、ゴーヨンサンニーです。", "080-9876-5432"),
        (
            "携帯でいいですか？ゼロナナゼロ、サンサンヨンヨン、ゴーゴーロクロクです。",
            "070-3344-5566",
        ),
        ("ぜろきゅーぜろ いちにさんよん ごーろくななはち", "090-1234-5678"),
        ("080の、9876の、5432です", "080-9876-5432"),
    ],
)
def test_a_phone_number_read_out_in_kana_is_its_digits(said: str, phone: str) -> None:
    assert extract_phone(said) == phone


@pytest.mark.parametrize("said", ["サンドイッチ", "ニンジン", "ゴールデンウィーク"])
def test_a_digit_word_inside_a_word_is_no_digit(said: str) -> None:
    assert extract_phone(said) is INVALID


@pytest.mark.parametrize(
    ("language", "said", "asks"),
    [
        ("ja", "来月の3日です。ちょっと先なんですけど大丈夫ですか？", False),
        ("en", "Could you do the third of next month? That's when my landlord's around.", False),
        ("ko", "토요일 2시요. 그때 괜찮으세요?", False),
        ("en", "Are you open on Sundays? Just wondering.", True),
        ("ko", "토요일에도 되나요?", True),
        ("ja", "夜だと割増になりますか？", True),
    ],
)
def test_a_question_said_beside_a_given_value_asks_about_something_else(
    language: str, said: str, asks: bool
) -> None:
    assert asks_about_values(said, language) is asks


def test_a_house_number_after_at_is_no_time() -> None:
    assert read_time("we're at 9 Pine Road") == ()
    assert read_time("at 9 please") == ("09:00", "21:00")


def test_a_span_from_today_is_no_move_from_today() -> None:
    """ "Move it to a week from today" moves it to a week on, not from today to something."""
    said = "Oh, I can't do that day after all, could we move it to a week from today instead?"
    assert meant_part(said, "en") is None
    assert meant_part("move it from Tuesday to Friday", "en") == " Friday"
    assert not asks_about_values(said, "en")


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("음... 최수진이요. 최, 수, 진.", "최수진"),
        ("It is Ann, A, N, N.", "Ann"),
        ("O. J. Simpson", "O. J. Simpson"),
    ],
)
def test_a_name_spelled_out_after_it_is_the_name(said: str, value: str) -> None:
    name = Slot(type="text", kind="person_name")
    assert extract_text(name, said, "name") == value


def test_an_afterthought_that_owns_a_mistake_announces_nothing_after_it() -> None:
    """ "제가 잘못 말했네요" said last does not empty the correction before it."""
    said = "아 잠깐만요, 정장이 아니라 이불이에요. 제가 잘못 말했네요."
    found = correction(said, "ko")
    assert found is not None and found.startswith("이불")


@pytest.mark.parametrize(
    ("language", "said", "count"),
    [
        ("ko", "아 맞다, 친구 한 명 더 와요. 세 명으로 해 주세요.", {"guests": 3}),
        ("ja", "すみません、人数が一人増えて三人になりました。", {"guests": 3}),
        ("ko", "친구 한 명 더 와요", {}),
    ],
)
def test_a_change_by_some_is_no_count_but_the_new_total_is(
    language: str, said: str, count: dict[str, int]
) -> None:
    slots = {
        "guests": Slot(type="integer", kind="count", unit="people"),
        "nights": Slot(type="integer", kind="duration", unit="nights"),
    }
    assert read_counts(said, slots, None, language) == count


@pytest.mark.parametrize(
    ("said", "email"),
    [
        (
            "えーっと、hanako アンダーバー sato アットマーク gmail ドット com です。",
            "hanako_sato@gmail.com",
        ),
        ("kim dot j at example dot org", "kim.j@example.org"),
        ("제 이메일은 minsu 골뱅이 naver 점 com 이에요", "minsu@naver.com"),
    ],
)
def test_an_email_address_said_aloud_is_written(said: str, email: str) -> None:
    assert extract_email(said) == email


@pytest.mark.parametrize("said", ["I am at home", "lunch at noon dot", "제 점수는 90점이에요"])
def test_words_for_symbols_make_no_address_alone(said: str) -> None:
    assert extract_email(said) is INVALID


@pytest.mark.parametrize(
    ("language", "said", "offers"),
    [
        ("en", "Um, let me see, quarter to nine in the morning?", True),
        ("en", "you guys open on Sundays?", False),
        ("ko", "낮 열두 시 어때요?", True),
        ("ko", "주말에도 하나요?", False),
        ("ja", "夜の九時十五分前くらいですかね。", True),
        ("ja", "3時でどうですか", True),
        ("ja", "何時ぐらいがいいですか？", False),
        ("ja", "夜だと割増になりますか？", False),
    ],
)
def test_a_value_offered_with_a_rising_voice_or_how_about_is_given(
    language: str, said: str, offers: bool
) -> None:
    assert offers_values(said, language) is offers


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("en", "It's under Martinez, Carlos Martinez.", "Carlos Martinez"),
        ("ko", "최유나 이름으로 해 주시면 돼요.", "최유나"),
        ("ko", "저희 팀장님 이름으로 해 주세요, 한지호 팀장님이요.", "한지호"),
        ("ja", "あ、はい、えーと、山田太郎の名前で予約してます。", "山田太郎"),
        ("ja", "予約は主人の名前で取ってまして、鈴木一郎です。", "鈴木一郎"),
        ("ja", "のぞみです", "のぞみ"),
    ],
)
def test_a_name_framed_by_whose_name_the_booking_is_under(
    offline: Engine, language: str, said: str, value: str
) -> None:
    assert stored(offline, language, "name", said) == value


@pytest.mark.parametrize("said", ["팀장님이요", "우리 남편 이름으로요", "우리 팀장님 이름으로요"])
def test_a_title_or_a_relation_alone_names_nobody(offline: Engine, said: str) -> None:
    assert stored(offline, "ko", "name", said) is None


def test_a_whole_number_said_after_a_piece_of_it_is_the_number() -> None:
    said = "Let me see... it's 555-0192, oh sorry, with the area code it's 212-555-0192."
    read = analyse(asking("en", "phone", {"type": "phone"}), "n", said, "phone")
    assert read.entities == {"phone": "2125550192"}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "いえ、電車で行くので大丈夫です。"),
        ("ja", "いえ、大丈夫です"),
        ("en", "No, we're taking the train, so we're fine."),
        ("ko", "아니요, 지하철 타고 갈 거라 괜찮아요"),
    ],
)
def test_a_no_that_says_all_is_fine_declines(language: str, said: str) -> None:
    """ "大丈夫です" alone reads as a yes; after a no, it is the polite form of the no."""
    read = analyse(asking(language, "parking", {"type": "boolean"}), "n", said, "parking")
    assert read.intent == "deny"
    assert read.entities == {"parking": False}


@pytest.mark.parametrize(
    ("language", "said", "count"),
    [
        ("en", "two adults and two kids", 4),
        ("en", "2 adults, 1 child", 3),
        ("ja", "大人2人と子供1人です", 3),
        ("ko", "어른 둘이랑 아이 하나요", 3),
        ("en", "2 adults", 2),
        ("en", "4 people and 2 dogs", 4),
        ("ja", "父と母と私と、あと妹の四人です", 4),
    ],
)
def test_people_counted_by_kind_add_up_for_a_party_size(
    offline: Engine, language: str, said: str, count: int
) -> None:
    """A slot that counts people of every kind takes them all; a dog is no person."""
    assert stored(offline, language, "people", said) == count


@pytest.mark.parametrize(
    ("language", "said", "count"),
    [
        ("en", "me and 3 friends", 4),
        ("en", "Me and my 2 kids", 3),
        ("en", "just me and my wife", 2),
        ("en", "me and my wife", 2),
        ("ja", "私と妻の二人です", 2),
        ("ja", "私と友達一人です", 2),
        ("ja", "私と子供二人です", 3),
        ("ja", "私と友達の二人で", 2),
        ("ko", "저랑 아내 둘이요", 2),
        ("ko", "저랑 제 친구 한 명이요.", 2),
        ("ko", "저랑 애들 둘이요", 3),
    ],
)
def test_the_speaker_before_a_count_of_others_is_one_more(
    offline: Engine, language: str, said: str, count: int
) -> None:
    """ "me and 3 friends" is four, and so is "저랑 친구 세 명"; "私と妻の二人" and "저랑 아내
    둘" count the speaker already (a spouse is one)."""
    assert stored(offline, language, "people", said) == count


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("그러니까 부산시 해운대구 센텀중앙로 55", "부산시 해운대구 센텀중앙로 55"),
        ("음, 주소는 서울시 마포구 월드컵북로 400이에요", "서울시 마포구 월드컵북로 400"),
    ],
)
def test_an_authors_pattern_reads_past_an_opening_hesitation(said: str, value: str) -> None:
    """`dialogkit eval card_issuance` showed a paraphrasing user's "그러니까" kept in the
    address: the author's pattern takes everything it is given."""
    address = Slot(
        type="text",
        kind="address",
        pattern=r"^\s*(?:(?:제\s*)?(?:주소는)\s*)?(?P<value>.+?)\s*(?:이에요|예요|요)?[\s.!]*$",
    )
    assert extract_text(address, said, "address") == value
