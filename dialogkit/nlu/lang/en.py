"""English."""

from __future__ import annotations

from typing import Final

from dialogkit.nlu.lang import LanguagePack

_PARTNER: Final = (
    r"(?:my\s+)?(?:wife|husband|partner|friend|girlfriend|boyfriend|son|daughter|mom|mum|dad|"
    r"mother|father|brother|sister|colleague|fianc[eé]e?|kid|child|spouse|plus\s+one)"
)

PACK: Final = LanguagePack(
    code="en",
    intents={
        "deny": (
            (
                "no",
                "nope",
                "not really",
                "that's wrong",
                "no thanks",
                "that's not right",
                "not correct",
                "nah",
                "no that's wrong",
            ),
            (
                "nope",
                "not now",
                "maybe later",
                "i'm good",
                "not correct",
                "incorrect",
                "not right",
                "wrong",
            ),
        ),
        "affirm": (
            (
                "yes",
                "yeah",
                "yep",
                "correct",
                "that's right",
                "sure",
                "okay",
                "sounds good",
                "yes please",
                "sure, go ahead",
                "yeah that's right",
            ),
            (
                "yes",
                "correct",
                "go ahead",
                "that's right",
                "sounds good",
                "sounds great",
                "that works",
                "works for me",
                "that's fine",
                "perfect",
            ),
        ),
        "greet": (
            (
                "hello",
                "hi",
                "good morning",
                "hey there",
            ),
            (),
        ),
        "goodbye": (
            (
                "bye",
                "goodbye",
                "see you",
                "that's all",
                "i'm done",
                "that's all, thanks",
                "talk to you later",
                "have a good day",
            ),
            (
                "goodbye",
                "quit",
                "exit",
                "bye",
                "see you",
                "that's all",
                "talk to you later",
                "have a good day",
                "i'm done",
            ),
        ),
        "help": (
            (
                "help",
                "what should i say",
                "what can you do",
                "how does this work",
                "how does this work",
                "i need help",
            ),
            (
                "help",
                "how does this work",
            ),
        ),
        "repeat": (
            (
                "say that again",
                "repeat please",
                "pardon",
                "what did you say",
            ),
            (
                "repeat",
                "say that again",
                "pardon",
                "come again",
            ),
        ),
        "thanks": (
            (
                "thanks",
                "thank you",
                "thanks a lot",
                "i appreciate it",
            ),
            (
                "thank",
                "appreciate",
            ),
        ),
    },
    lead_words={
        "deny": (
            "nop",
            "no",
            "nope",
            "nah",
            "negative",
            "not really",
        ),
        "affirm": (
            "yes",
            "yeah",
            "yep",
            "yup",
            "yea",
            "ya",
            "sure",
            "ok",
            "okay",
            "correct",
            "right",
            "absolutely",
            "of course",
            "definitely",
            "affirmative",
        ),
    },
    act_fillers=(
        "please",
        "thanks",
        "thank you",
        "that s right",
        "that s correct",
        "that s fine",
        "that s wrong",
        "go ahead",
        "sounds good",
        "do it",
        "sure",
        "of course",
        "not really",
        "thanks though",
        "i m good",
    ),
    openers=("well", "oh", "um", "uh", "hmm", "so"),
    positive_words=("yes", "yeah", "yep", "yup", "true"),
    negation=(
        r"\b(?:no|not|never|nope|nah|didn t|haven t|hasn t|don t|doesn t|wasn t|weren t|"
        r"won t|isn t|aren t|can t|forgot|forget|forgotten|missed|skipped|false|negative|"
        r"none|nobody|without)\b",
    ),
    question=(
        r"^(?:(?:what|when|where|why|how|who|which)(?:\s+\S+){0,3}?\s+"
        r"(?:is|are|was|were|do|does|did|can|could|will|would|should|s|re|about|much|many|long)\b"
        r"|(?:do|does|did|can|could|will|would|should|is|are|was|were|may|must)\s+"
        r"(?:i|you|we|they|he|she|it|there|this|that|the|a|an|my|your)\b)",
        r"^(?:how\s+much|how\s+many|how\s+long|what\s+time|is\s+there|are\s+there)\b",
    ),
    request=(
        r"^(?:can|could|would|will)\s+(?:you|i|we)\s+(?:please\s+)?"
        r"(?:change|make|move|switch|set|put|bring|push|book|have|get|reserve|do|add|go\s+with|"
        r"take)\b",
        r"^(?:is\s+it\s+possible\s+to|would\s+it\s+be\s+possible\s+to)\s+(?:change|make|move|"
        r"switch|book|have|get|reserve|do|add|go)",
        r"^(?:may|can|could)\s+i\s+(?:please\s+)?(?:have|get|book|reserve|take)\b",
    ),
    correction=(
        r"\bi\s+meant?\b",
        r"\bmake\s+(?:that|it)\b",
        r"\bchange\s+(?:that|it)\s+to\b",
        r"\bscratch\s+that\b",
        r"\bcorrection\b",
        r"\bno\s+wait\b",
        r"\bactually\b",
        r"\bsorry\b(?=\s*[,.]|\s+(?:i|it|make|no))",
    ),
    replaced=(r"\bnot\b[^,.]*?,?\s*\bbut\b", r"^\s*(?:no\s*,?\s*)?not\s+[^,.;]+?[,;]\s*"),
    moved=(r"\b(?:change|move|switch|push|bring)\w*\b[^.]*?\bfrom\b",),
    rejected_after=(r"\binstead of\b", r"\brather than\b", r",\s*not\b"),
    range_end=(r"\buntil\b", r"\btill\b", r"\bthrough\b", r"\bthru\b"),
    range_start=(r"\bfrom\b", r"\bbetween\b"),
    range_joint=(r"\bto\b", r"\buntil\b", r"\btill\b", r"\bthrough\b", r"\bthru\b", r"\band\b"),
    wishes=(
        r"^(?:please\s+)?[a-z]+(?:\s|$)(?!.*\?)",
        r"\bplease\b",
        r"\bi\s*(?:d|would|want|wanna|need|ll)\b",
        r"\blet\s*s\b",
    ),
    function_words=(
        "please",
        "i d like to",
        "i would like to",
        "i want to",
        "i d like",
        "i would like",
        "i want",
        "can you",
        "could you",
        "can i",
        "could i",
        "i need to",
        "i need",
        "thanks",
        "for me",
        "let s",
    ),
    self_words=("i", "me", "my", "i m", "myself"),
    alone=(
        r"\bjust\s+(?:me|myself)\b",
        r"\bby\s+myself\b",
        r"\bonly\s+me\b",
        r"\bjust\s+one\s+of\s+us\b",
        r"\bi\s*(?:'|’)?m\s+alone\b",
        r"\bsolo\b",
    ),
    with_companion=(
        rf"\b(?:me|myself|i)\s*(?:,|\band\b|&|\bplus\b|\bwith\b)\s*{_PARTNER}\b",
        rf"\b{_PARTNER}\s+(?:and|&)\s+(?:me|myself|i)\b",
        r"\bjust\s+(?:the\s+)?two\s+of\s+us\b",
        r"\b(?:a|one)\s+couple\b",
    ),
    zero_before=(r"\bno\b", r"\bwithout\b", r"\bzero\b", r"\bnot\s+any\b", r"\bno\s+more\b"),
    zero_after=(r"\s*(?:s\s+)?(?:at\s+all|none)\b",),
    one_before=(r"(?:^|\s)(?:a|an|one|single)\s+(?:(?:little|small|young)\s+)?$",),
    conjunctions=(
        r"\band\b",
        r"\bplus\b",
        r"\bwith\b",
    ),
    zero_answers=(r"\bnone\b", r"\bnobody\b", r"\bno\s+one\b", r"\bzero\b", r"\bnot\s+any\b"),
    counted={
        "adult": ("adult", "adults", "grown-up", "grown-ups", "grownups", "grown ups", "grownup"),
        "child": ("child", "children", "kid", "kids", "minor", "minors"),
        "infant": ("infant", "infants", "baby", "babies", "toddler", "toddlers"),
        "senior": ("senior", "seniors", "elderly"),
        "student": ("student", "students"),
        "room": ("room", "rooms"),
        "bag": ("bag", "bags", "suitcase", "suitcases", "luggage"),
        "ticket": ("ticket", "tickets"),
        "dog": ("dog", "dogs", "pet", "pets"),
    },
    name_frames=(
        r"^\s*(?:(?:yes|yeah|sure|ok)[,.\s]+)?(?:(?:my|the)\s+name\s+is|it\s*'?s|it\s+is|i\s*'?m|"
        r"i\s+am|this\s+is|(?:(?:my|the)\s+)?name\s*[\'’]?s|call\s+me|under)?\s*(?P<value>[a-z][a-z.'-]*(?:\s+[a-z][a-z.'-]*){0,3}?)"
        r"\s*(?:please|thanks|thank\s+you)?[\s.!]*$",
    ),
    labels={
        "person_name": ("name",),
        "address": ("address",),
        "phone": ("phone number", "phone"),
        "email": ("email", "e-mail"),
        "birth_date": ("birthday", "date of birth"),
        "date": ("date", "day"),
        "time": ("time",),
    },
    meta_remarks=(r"do i have to", r"why", r"must i"),
    place_units=(r"\b(?:street|st|avenue|ave|road|rd|lane|ln|boulevard|blvd|drive|dr)\b",),
    wrong=(
        r"\bwrong\b",
        r"\bincorrect\b",
        r"\bnot\s+right\b",
        r"\bnot\s+correct\b",
        r"\bmistake\b",
        r"\bisn\s*t\s+right\b",
    ),
)
