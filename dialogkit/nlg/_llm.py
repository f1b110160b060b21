"""Reply text written by a language model from the scenario's persona, the node and the turn.

The template sentence of a reply is given as a reference to convey, not a script, so the
model can adapt wording to the user while the scenario still decides what is said. One call
writes one reply; the engine decides whether to try again (the fallback no-repeat rule) and
passes the sentences to avoid from the second attempt on.
"""

from __future__ import annotations

from typing import Final

from openai.types.chat import ChatCompletionMessageParam

from dialogkit.errors import LLMError
from dialogkit.llm._chat import ModelCaller
from dialogkit.llm._prompting import earlier_turns, prompt_json
from dialogkit.nlg._base import NLGRequest
from dialogkit.sanitize import clean_text

HISTORY_ENTRIES: Final = 10
"""Earlier turns sent as chat messages: enough for tone and for not repeating oneself."""

LANGUAGE_NAMES: Final = {"ko": "Korean", "ja": "Japanese", "en": "English"}

STYLE: Final = """\
You write the assistant's next message in a scripted spoken conversation. Write in \
{language} only, in a natural spoken style: one to three short sentences of plain text, \
without markdown, lists or emojis. Use only the information given here; do not invent facts."""

# Chat templates of many open models expect the conversation to end with a user turn; when
# the user said nothing that can stand there, a bracketed stage direction does.
OPENING_CUE: Final = "(The user has joined the conversation.)"
SILENCE_CUE: Final = "(The user said nothing.)"


class LLMNLG:
    """One chat completion per reply; returns None instead of raising.

    The text is cleaned (``dialogkit.sanitize``) and capped at the caller's
    ``max_text_chars``; text that is empty once cleaned is a failed call, so the engine says
    the template reply instead.
    """

    def __init__(self, caller: ModelCaller, model: str) -> None:
        self.caller = caller
        self.model = model

    async def generate(self, request: NLGRequest) -> str | None:
        return await self.caller.complete(
            model=self.model,
            messages=messages(request),
            purpose="nlg",
            usage=request.usage,
            parse=self._clean,
            deadline=request.deadline,
        )

    def _clean(self, content: str) -> str:
        text = clean_text(content, self.caller.policy.max_text_chars)
        if not text:
            raise LLMError("the reply is empty once control characters are removed")
        return text


def messages(request: NLGRequest) -> list[ChatCompletionMessageParam]:
    """The system prompt, recent history as chat turns, and a final user turn."""
    chat: list[ChatCompletionMessageParam] = [{"role": "system", "content": system_prompt(request)}]
    for entry in earlier_turns(request.history, request.user_text, HISTORY_ENTRIES):
        if entry.role == "user":
            chat.append({"role": "user", "content": entry.message})
        elif entry.role == "assistant":
            chat.append({"role": "assistant", "content": entry.message})
    if request.user_text:
        chat.append({"role": "user", "content": request.user_text})
    elif chat[-1]["role"] != "user":
        cue = OPENING_CUE if request.kind == "greeting" else SILENCE_CUE
        chat.append({"role": "user", "content": cue})
    return chat


def system_prompt(request: NLGRequest) -> str:
    """Persona, operator instructions, the node, the task of this kind of reply, the user."""
    language = request.language.split("-")[0].lower()
    sections = [
        text.strip()
        for text in (request.scenario.document.prompts.bot, request.user_system_prompt)
        if text.strip()
    ]
    sections.append(STYLE.format(language=LANGUAGE_NAMES.get(language, request.language)))
    if request.node.description:
        sections.append(f"Current step of the conversation: {request.node.description}")
    sections.append(_task(request))
    if request.user:
        sections.append(f"About the user: {prompt_json(request.user)}")
    return "\n\n".join(sections)


def _task(request: NLGRequest) -> str:
    lines: list[str] = []
    if request.kind == "greeting":
        lines.append("Write the opening message: greet the user and begin the current step.")
    elif request.kind == "fallback":
        if request.fallback_kind == "no_input":
            lines.append("Nothing was heard from the user. Say briefly that you did not hear them.")
        else:
            lines.append("The user's last message was not understood. Say so briefly and kindly.")
        lines.append(
            f"Then ask again: {request.question}"
            if request.question
            else "Then invite them to try again."
        )
    else:
        lines.append("Write the reply to the user's last message.")
    if request.reference:
        lines.append(
            "Reference text (convey its meaning, including any question it asks, in your own "
            f"words; do not copy it verbatim): {request.reference}"
        )
    if request.facts:
        lines.append(f"What happened in this turn: {prompt_json(request.facts)}")
    if request.kind != "fallback" and request.question:
        # The engine appends the question itself when the reply lacks it word for word.
        lines.append(f"End with this question, word for word: {request.question}")
    if request.attempt >= 2 and request.avoid:
        lines.append(
            "Do not repeat any of these earlier sentences; word your reply differently:\n"
            + "\n".join(f"- {sentence}" for sentence in request.avoid)
        )
    return "\n".join(lines)
