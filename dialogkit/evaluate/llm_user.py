"""``LLMUser``: a simulated user whose words come from a language model.

The model plays a persona with a goal (the values to give, the end to reach), through the
same OpenAI-compatible routing as the engine's NLU and NLG: a model name is served at its
``DIALOGKIT_LLM_ENDPOINTS`` entry, else at ``OPENAI_BASE_URL``. The conversation so far is
sent with the roles turned around (the bot speaks as ``user``, the simulated user as
``assistant``), so any chat model can play the part. The model answers ``<END>`` to leave;
a failed call leaves too, so a broken endpoint cannot spin a conversation to ``max_turns``.
"""

from __future__ import annotations

import logging
import zlib
from typing import TYPE_CHECKING

from openai.types.chat import ChatCompletionMessageParam

from dialogkit.evaluate.users import Persona, SimulatedUser, Situation, Utterance
from dialogkit.llm.clients import ClientPool
from dialogkit.llm.endpoints import Endpoint, parse_endpoints
from dialogkit.settings import Settings
from dialogkit.usage import Usage

if TYPE_CHECKING:
    from dialogkit.evaluate.goal import Goal
    from dialogkit.evaluate.runner import Task, UserFactory

logger = logging.getLogger(__name__)

END = "<END>"
PURPOSE = "simulated_user"

PERSONA_TEXT: dict[str, str] = {
    "cooperative": "You answer each question plainly, one piece of information at a time.",
    "terse": "You answer with as few words as possible.",
    "over_informative": "You give several pieces of information at once, unasked.",
    "self_correcting": "You sometimes give a wrong value first, then correct yourself.",
    "noisy": "You sometimes make typos or drift off topic for a moment.",
}


class LLMUser:
    """A model-played user; build many with ``LLMUser.factory`` for ``evaluate(user=...)``."""

    def __init__(
        self,
        goal: Goal,
        persona: Persona = "cooperative",
        seed: int | str = 0,
        *,
        model: str,
        settings: Settings | None = None,
        pool: ClientPool | None = None,
    ) -> None:
        self.goal = goal
        self.persona: Persona = persona
        self.model = model
        self.usage = Usage()
        settings = settings or Settings()
        self._endpoint = parse_endpoints(settings.llm_endpoints).get(
            model, Endpoint(base_url=settings.openai_base_url, api_key=settings.openai_api_key)
        )
        self._pool = pool or ClientPool(
            timeout=settings.llm_timeout_s, max_retries=settings.llm_max_retries
        )
        self._seed = zlib.crc32(f"user:{seed}".encode())

    @classmethod
    def factory(cls, model: str, settings: Settings | None = None) -> UserFactory:
        """Users of ``model`` for ``evaluate``; they share one set of HTTP clients."""
        settings = settings or Settings()
        pool = ClientPool(timeout=settings.llm_timeout_s, max_retries=settings.llm_max_retries)

        def build(task: Task, seed: str) -> SimulatedUser:
            return cls(task.goal, task.persona, seed, model=model, settings=settings, pool=pool)

        return build

    def instructions(self, situation: Situation) -> str:
        """The system prompt: who the user is, what it wants, how to answer."""
        scenario = situation.scenario
        wants = "\n".join(
            f"- {name}: {', '.join(self.goal.phrasings(name))}" for name in self.goal.slots
        )
        return (
            f"You play a user talking to a bot ({scenario.name}: "
            f"{scenario.document.metadata.description}).\n"
            f"Speak {scenario.language or 'the bot’s language'} only. "
            f"{PERSONA_TEXT.get(self.persona, '')}\n"
            f"What you want to tell the bot, when it asks:\n{wants or '- nothing in particular'}\n"
            "Answer with your next message only, no quotes or explanations. "
            f"When the bot has done what you wanted or you give up, answer {END}."
        )

    async def respond(self, situation: Situation) -> Utterance | None:
        if situation.reply.session_complete:
            return None
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": self.instructions(situation)}
        ]
        for role, text in situation.history:
            if role == "assistant":
                messages.append({"role": "user", "content": text})
            else:
                messages.append({"role": "assistant", "content": text})
        prompt_tokens = completion_tokens = 0
        failed = True
        try:
            client = await self._pool.client(self._endpoint)
            response = await client.chat.completions.create(
                model=self.model, messages=messages, temperature=0, seed=self._seed
            )
            if response.usage is not None:
                prompt_tokens = response.usage.prompt_tokens
                completion_tokens = response.usage.completion_tokens
            content = response.choices[0].message.content if response.choices else None
            failed = content is None
        except Exception as exc:
            logger.warning("simulated user model %r failed: %s", self.model, exc)
            return None
        finally:
            self.usage.record(
                PURPOSE,
                self.model,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                failed=failed,
            )
        text = (content or "").strip()
        if not text or END in text:
            return None
        return Utterance(text)
