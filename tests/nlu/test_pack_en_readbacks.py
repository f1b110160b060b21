"""The English pack on everyday speech at a read-back, at a free note and around the
conversation: a read-back confirmed in other words ("spot on", "leave it as is"), a read-back
with a mistake ("one thing is off"), nothing to add ("nothing comes to mind"), and asking
again, for help or to leave in other words. Questions and negated forms are not taken."""

from __future__ import annotations

import pytest

from dialogkit import Scenario
from dialogkit.nlu._acts import says_nothing
from tests.nlu.reading import analyse, nothing_to_add, read_back_scenario


def scenario(*, note_denies: bool = False) -> Scenario:
    return read_back_scenario(
        "en", ("Any special requests?", "Your name?", "What time?"), note_denies=note_denies
    )


READ_BACK = scenario()


def at_read_back(text: str) -> str | None:
    return analyse(READ_BACK, "confirm", text, None).intent


@pytest.mark.parametrize(
    "text",
    [
        "spot on",
        "Bang on, thanks",
        "yep, everything matches",
        "it all checks out",
        "all accurate",
        "exactly right",
        "Precisely.",
        "indeed",
        "you got it",
        "you've got it all right",
        "nailed it",
        "that's the one",
        "that's exactly what I said",
        "lock it in",
        "great, book it",
        "just book it",
        "go for it",
        "confirmed",
        "please proceed",
        "fine by me",
        "we're good to go",
        "sounds about right",
        "everything is right",
        "everything's in order",
        "that'll do",
        "leave it as it was",
        "keep it as is",
        "no, leave it like that",
        "it's fine as it is",
        "everything you said is right",
        "it's all fine",
        "no changes, it's fine",
    ],
)
def test_a_read_back_confirmed_in_other_words_is_a_yes(text: str) -> None:
    assert at_read_back(text) == "affirm"


@pytest.mark.parametrize(
    "text",
    [
        "is that all accurate?",
        "is everything in order?",
        "did you book it?",
        "is it spot on?",
        "it doesn't match",
        "not spot on",
        "don't book it yet",
        "don't lock it in",
        "I don't know how to proceed",
        "I'm not fine with that",
        "good night",
        "the weather is lovely",
    ],
)
def test_questions_negations_and_chat_are_no_yes(text: str) -> None:
    assert at_read_back(text) != "affirm"


@pytest.mark.parametrize(
    "text",
    [
        "hmm, one detail is off",
        "something's a bit off there",
        "the time looks off",
        "you've got the details mixed up",
        "I think you mixed something up",
        "the name needs fixing",
        "one thing needs correcting",
        "there's a mistake in the name",
        "there's a typo",
        "you misheard me",
        "I think you misunderstood",
        "that's not what I asked for",
        "not what I meant",
        "not quite",
        "not exactly",
        "close, but not quite right",
        "almost, but the time is different",
        "I need to correct one thing",
        "small correction, please",
        "none of that is right",
        "all correct except the time",
        "the name is right but the time is off",
        "looks good but the date is wrong",
        "that's fine, but the time should be 5",
        "hmm, something isn't right",
        "I don't think that's right",
        "not all of that is correct",
        "I said something different",
        "it all matches except for the name",
    ],
)
def test_a_read_back_with_a_mistake_is_a_no(text: str) -> None:
    assert at_read_back(text) == "deny"


@pytest.mark.parametrize(
    "text",
    [
        "is anything off?",
        "what's the mistake?",
    ],
)
def test_a_question_about_a_mistake_is_no_yes(text: str) -> None:
    assert at_read_back(text) != "affirm"


NOTE = scenario()


@pytest.mark.parametrize(
    "text",
    [
        "nothing to add",
        "Nothing further.",
        "nothing comes to mind",
        "nothing that I can think of",
        "not that I can think of",
        "I can't think of anything else",
        "no special requests",
        "nope, no particular requests",
        "no thanks, that's everything",
        "no, that's all for now",
        "that's everything",
        "I don't have anything to add",
        "I've got nothing else to add",
        "nah, I'm good",
        "no need",
        "nothing at the moment",
        "no special requirements",
        "I think that's everything",
        "nothing I need to add",
        "no notes from me",
        "no, that's all I need",
        "nothing else, thanks",
        "nothing on my end",
    ],
)
def test_nothing_to_add_is_the_note_or_a_no(text: str) -> None:
    assert says_nothing(text, "en")
    _, noted = nothing_to_add(scenario, text)
    # The note is what was said, but for a closing courtesy, which no value holds.
    assert noted.entities["note"] == text.rstrip(".").removesuffix(", thanks")


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("no additional notes, thanks", "no additional notes"),
        ("we're all set, thank you", "we're all set"),
    ],
)
def test_nothing_to_add_with_thanks_is_the_note(text: str, note: str) -> None:
    assert says_nothing(text, "en")
    noted = analyse(NOTE, "ask_note", text, "note")
    assert noted.intent is None
    assert noted.entities.get("note") == note


@pytest.mark.parametrize(
    "text",
    [
        "no onions please",
        "nothing spicy",
        "a quiet room, nothing near the lift",
        "good",
        "fine",
        "I'm fine with any table",
        "none of the rooms near the elevator",
        "is there anything else?",
    ],
)
def test_a_real_note_or_a_question_is_not_nothing(text: str) -> None:
    assert not says_nothing(text, "en")


def at_name(text: str) -> str | None:
    return analyse(READ_BACK, "ask_name", text, "name").intent


@pytest.mark.parametrize(
    "text",
    [
        "sorry, I missed that",
        "I didn't quite catch what you said",
        "sorry, it's really noisy here, what was that?",
        "you're breaking up",
        "I couldn't hear the question",
        "could you run it by me again?",
        "say it again, please",
        "huh?",
        "one more time, please",
        "sorry what?",
        "sorry, the line is bad",
    ],
)
def test_asking_again_in_other_words_is_repeat(text: str) -> None:
    assert at_name(text) == "repeat"


@pytest.mark.parametrize(
    "text",
    [
        "I'm a bit confused, how does this go?",
        "what exactly am I supposed to say here?",
        "I'm lost",
        "hmm, I'm stuck here",
        "I don't understand what you want",
        "what do you want me to say?",
        "what are my options?",
        "not sure what to answer",
        "how should I answer that?",
        "what do I need to say?",
        "I'm not sure what you want from me",
        "can you explain?",
    ],
)
def test_asking_for_help_in_other_words_is_help(text: str) -> None:
    assert at_name(text) == "help"


@pytest.mark.parametrize(
    "text",
    [
        "gotta run, bye",
        "sorry, I've got to run",
        "I'll leave it for today",
        "let's call it a day",
        "ok, I'll stop here",
        "that's enough for today",
        "I'll call back later",
        "catch you later",
        "good night",
        "have a great day",
        "I should get going",
        "let's end it here",
        "Alright, I'm off now, take care.",
        "I'll come back another time",
        "maybe some other time, thanks",
    ],
)
def test_taking_leave_in_other_words_is_goodbye(text: str) -> None:
    assert at_name(text) == "goodbye"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("I missed the bus this morning", "repeat"),
        ("I didn't order that", "repeat"),
        ("I have to go to the doctor tomorrow", "goodbye"),
        ("can you take care of my brakes", "goodbye"),
        ("once more I want the blue one", "repeat"),
        ("I want one more", "repeat"),
        ("I'd like one more coffee", "repeat"),
        ("I lost my card", "help"),
        ("I'm stuck in traffic", "help"),
        ("what are the options for delivery?", "help"),
        ("should I call back later?", "goodbye"),
        ("I have nothing to add", "goodbye"),
        ("I'm off work on Friday", "goodbye"),
        ("I'll come back to pick it up at 5", "goodbye"),
        ("can I come at another time?", "goodbye"),
    ],
)
def test_everyday_sentences_are_not_taken_for_control(text: str, intent: str) -> None:
    assert at_name(text) != intent


FILLED = {"time": "15:00", "name": "Ann Lee"}


@pytest.mark.parametrize(
    "text",
    [
        "perfect, but the time should be 5 pm",
        "lock it in, but at 5 pm",
        "spot on, but make it 5 pm",
    ],
)
def test_a_yes_that_changes_a_value_reads_it_back(text: str) -> None:
    result = analyse(READ_BACK, "confirm", text, None, FILLED)
    assert result.intent is None
    assert result.dialogue_act == "correct"
    assert result.entities == {"time": "17:00"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Imogen Park", "Imogen Park"),
        ("Itsuki Tanaka", "Itsuki Tanaka"),
        ("I'm Ann Lee", "Ann Lee"),
    ],
)
def test_a_name_frame_ends_on_a_whole_word(text: str, name: str) -> None:
    assert analyse(READ_BACK, "ask_name", text, "name").entities.get("name") == name
