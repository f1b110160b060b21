"""Text that a slot's regular expression matches: values for pattern slots nobody gave.

A fresh author writes a ``pattern`` slot (a booking code, a grid, a plate number) with no
``examples`` and no ``eval_values``; without a value the goal could not want that slot and
the graph's branch behind it would go untested. The simple regular expressions such slots
use (literals, classes, ``\\d``/``\\w``, groups, alternation, counted repeats) are read here
and one matching text is drawn. Look-arounds and anchors produce nothing; optional parts
(``?``, ``*``) are left out, so a prefix such as ``(?:code\\s*)?`` is not said. Anything
else (back references, conditionals) gives up: the caller then leaves the slot out and
says so. Every drawn text is checked by the caller against the slot itself.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from dialogkit.errors import DialogkitError

MAX_REPEAT = 3
"""Repeats drawn for an open-ended ``+`` or ``{n,}``: enough to look like a value."""

_CLASSES = {
    "d": string.digits,
    "w": string.ascii_lowercase + string.digits,
    "s": " ",
    "D": string.ascii_lowercase,
    "W": "-",
    "S": string.ascii_lowercase,
}
_PRINTABLE = string.ascii_lowercase + string.digits


class Unsupported(DialogkitError):
    """The expression uses something this generator does not draw from (caught here: the
    caller only sees that no text could be drawn)."""


@dataclass
class _Reader:
    pattern: str
    rng: random.Random
    at: int = 0

    def peek(self) -> str:
        return self.pattern[self.at] if self.at < len(self.pattern) else ""

    def take(self) -> str:
        char = self.peek()
        self.at += 1
        return char

    def alternation(self) -> str:
        """Branches separated by ``|`` up to a closing parenthesis; one is drawn."""
        branches = [self.sequence()]
        while self.peek() == "|":
            self.take()
            branches.append(self.sequence())
        return self.rng.choice(branches)

    def sequence(self) -> str:
        out: list[str] = []
        while self.peek() not in {"", "|", ")"}:
            atom = self.atom()
            out.append(self.repeat(atom))
        return "".join(out)

    def repeat(self, atom: tuple[str, ...]) -> str:
        """The atom's choices repeated as the quantifier after it says."""
        low, high, mark = 1, 1, self.peek()
        if mark in {"?", "*"}:
            self.take()
            low = high = 0
        elif mark == "+":
            self.take()
            low, high = 1, MAX_REPEAT
        elif mark == "{" and self._counted():
            low, high = self._bounds()
        else:
            mark = ""
        if mark and self.peek() in {"?", "+"}:
            self.take()  # lazy or possessive: the same texts
        return "".join(self.rng.choice(atom) for _ in range(self.rng.randint(low, high)))

    def _counted(self) -> bool:
        end = self.pattern.find("}", self.at)
        inner = self.pattern[self.at + 1 : end] if end > 0 else ""
        return bool(inner) and all(part.strip().isdigit() or not part for part in inner.split(","))

    def _bounds(self) -> tuple[int, int]:
        end = self.pattern.index("}", self.at)
        inner = self.pattern[self.at + 1 : end]
        self.at = end + 1
        low_text, _, high_text = inner.partition(",")
        low = int(low_text or 0)
        if "," not in inner:
            return low, low
        return low, int(high_text) if high_text else low + MAX_REPEAT

    def atom(self) -> tuple[str, ...]:
        """The texts one atom may stand for (a single character class, or a group's text)."""
        char = self.take()
        if char == "(":
            return (self.group(),)
        if char == "[":
            return self.char_class()
        if char == "\\":
            return self.escape()
        if char in {"^", "$"}:
            return ("",)
        if char == ".":
            return tuple(_PRINTABLE)
        return (char,)

    def group(self) -> str:
        if self.peek() == "?":
            self.take()
            kind = self.take()
            named = (kind == "P" and self.peek() == "<") or (
                kind == "<" and self.peek() not in {"=", "!"}
            )
            if named:
                self.at = self.pattern.index(">", self.at) + 1
            elif kind in {"=", "!"} or (kind == "<" and self.take() in {"=", "!"}):
                self.alternation()  # a look-around says nothing
                self._close()
                return ""
            elif kind != ":":
                raise Unsupported(f"group (?{kind}")
        text = self.alternation()
        self._close()
        return text

    def _close(self) -> None:
        if self.take() != ")":
            raise Unsupported("unbalanced parenthesis")

    def escape(self) -> tuple[str, ...]:
        char = self.take()
        if char in _CLASSES:
            return tuple(_CLASSES[char])
        if char in {"b", "B", "A", "Z"}:
            return ("",)
        if char.isdigit() or char == "":
            raise Unsupported(f"escape \\{char}")
        return (char,)

    def char_class(self) -> tuple[str, ...]:
        negated = self.peek() == "^"
        if negated:
            self.take()
        chars: list[str] = []
        first = True
        while first or self.peek() != "]":
            first = False
            char = self.take()
            if char == "":
                raise Unsupported("unclosed character class")
            if char == "\\":
                chars.extend(self.escape())
            elif self.peek() == "-" and self.pattern[self.at + 1 : self.at + 2] not in {"]", ""}:
                self.take()
                end = self.take()
                chars.extend(chr(code) for code in range(ord(char), ord(end) + 1))
            else:
                chars.append(char)
        self.take()
        if negated:
            chars = [c for c in _PRINTABLE if c not in chars]
        if not chars:
            raise Unsupported("empty character class")
        return tuple(chars)


def text_matching(pattern: str, rng: random.Random) -> str | None:
    """A text ``pattern`` matches, drawn with ``rng``; None when it cannot be drawn."""
    reader = _Reader(pattern, rng)
    try:
        text = reader.alternation()
    except (Unsupported, ValueError, IndexError):
        return None
    if reader.at < len(pattern):
        return None
    return text.strip() or None
