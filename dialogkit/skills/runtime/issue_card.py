"""``issue_card``: accept a card application and answer with the card's masked number.

Nothing is issued anywhere: the number is derived from the applicant's details (the same
details always give the same number), carries a valid Luhn check digit so that downstream
validation behaves as with a real card, and is returned masked except its last four digits.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from dialogkit.skills.runtime.arguments import (
    InvalidArguments,
    iso_date,
    language,
    require,
    text,
    today,
    zone,
)
from dialogkit.wire import SkillContext

DELIVERY_BUSINESS_DAYS = 5
BRANDS = (
    # (words in card_type, brand, issuer prefix): checked in order, the last is the default.
    (("debit", "check", "체크", "デビット"), "Mastercard", "52"),
    ((), "Visa", "4"),
)
RESPONSES = {
    "ko": "{name}님의 {card_type} 발급 신청이 완료되었습니다. 카드 번호 끝자리는 {last4}이며, "
    "{delivery}까지 배송될 예정입니다.",
    "ja": "{name}様の{card_type}の発行手続きが完了しました。カード番号の下4桁は{last4}で、"
    "{delivery}までにお届けする予定です。",
    "en": "{name}, your {card_type} application is complete. The card number ends in {last4} "
    "and the card should arrive by {delivery}.",
}


def luhn_check_digit(payload: str) -> str:
    """The digit that makes ``payload`` + digit pass the Luhn check."""
    total = 0
    for index, char in enumerate(reversed(payload)):
        digit = int(char)
        if index % 2 == 0:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return str(-total % 10)


def luhn_valid(number: str) -> bool:
    """Whether a digit string passes the Luhn check."""
    return number.isdigit() and luhn_check_digit(number[:-1]) == number[-1]


def brand_of(card_type: str) -> tuple[str, str]:
    """The brand and issuer prefix for a card type (debit/check cards are Mastercard)."""
    lowered = card_type.lower()
    for words, brand, prefix in BRANDS:
        if any(word in lowered for word in words):
            return brand, prefix
    return BRANDS[-1][1], BRANDS[-1][2]


def card_number(prefix: str, *details: str) -> str:
    """A 16-digit Luhn-valid number derived from the prefix and the applicant's details."""
    digest = hashlib.sha256("\x1f".join(details).encode()).hexdigest()
    body = prefix + str(int(digest, 16))[: 15 - len(prefix)]
    return body + luhn_check_digit(body)


def mask(number: str) -> str:
    """``**** **** **** 1234``."""
    return " ".join(["****"] * 3 + [number[-4:]])


def add_business_days(start: date, days: int) -> date:
    """The date ``days`` working days (Monday to Friday) after ``start``."""
    current = start
    while days > 0:
        current += timedelta(days=1)
        if current.weekday() < 5:
            days -= 1
    return current


def phone_digits(phone: str) -> str:
    """The digits of a phone number; 9 to 15 of them, else ``InvalidArguments``."""
    digits = re.sub(r"[\s\-().+]", "", phone)
    if not digits.isdigit() or not 9 <= len(digits) <= 15:
        raise InvalidArguments(
            {"phone": f"must be a phone number of 9 to 15 digits, got {phone!r}"}
        )
    return digits


def run(arguments: Mapping[str, Any], context: SkillContext) -> dict[str, Any]:
    """Arguments: card_type, name, birth_date, phone, address; optional issued_on."""
    require(arguments, "card_type", "name", "birth_date", "phone", "address")
    card_type, name, address = (text(arguments, key) for key in ("card_type", "name", "address"))
    phone = phone_digits(text(arguments, "phone"))
    issued_on = iso_date(arguments, "issued_on") or today(zone({}, context))
    birth_date = iso_date(arguments, "birth_date")
    if birth_date is None or birth_date >= issued_on:
        raise InvalidArguments({"birth_date": "must be a past date like 1990-05-17"})
    brand, prefix = brand_of(card_type)
    number = card_number(prefix, card_type, name, birth_date.isoformat(), phone, address)
    delivery = add_business_days(issued_on, DELIVERY_BUSINESS_DAYS)
    return {
        "card_type": card_type,
        "brand": brand,
        "card_number_masked": mask(number),
        "last4": number[-4:],
        "issued_on": issued_on.isoformat(),
        "delivery_estimate": delivery.isoformat(),
        "delivery_business_days": DELIVERY_BUSINESS_DAYS,
        "response": RESPONSES[language(context)].format(
            name=name, card_type=card_type, last4=number[-4:], delivery=delivery.isoformat()
        ),
    }
