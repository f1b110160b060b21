"""``LLMUser``: a simulated user whose words come from a language model.

The model plays a persona with a goal (the values to give, the end to reach), through the
engine's own model routing: the name must be served (an endpoint, or the engine's cassette),
calls follow the same retries, timeouts and text caps, and with a cassette they are recorded
and replayed like the bot's own, so a model-played evaluation reruns without a network.
The conversation so far is sent with the roles turned around (the bot speaks as ``user``,
the simulated user as ``assistant``), so any chat model can play the part. The model answers
``<END>`` to leave; a failed call leaves too, so a broken endpoint cannot spin a
conversation to ``max_turns``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from openai.types.chat import ChatCompletionMessageParam

from dialogkit.errors import DialogkitError
from dialogkit.evaluate.users import Persona, SimulatedUser, Situation, Utterance
from dialogkit.llm._router import ModelRouter
from dialogkit.usage import Usage

if TYPE_CHECKING:
    from dialogkit.engine.engine import Engine
    from dialogkit.evaluate.goal import Goal
    from dialogkit.evaluate.runner import Task, UserFactory

END = "<END>"
PURPOSE: Final = "simulated_user"

PERSONA_TEXT: dict[str, str] = {
    "cooperative": "You answer each question plainly, one piece of information at a time.",
    "terse": "You answer with as few words as possible.",
    "over_informative": "You give several pieces of information at once, unasked.",
    "self_correcting": "You sometimes give a wrong value first, then correct yourself.",
    "paraphrasing": "You say everything in your own words, never the way the assistant "
    "phrased it, with everyday fillers; dates and numbers in whatever form comes naturally.",
    "noisy": "You sometimes make typos or drift off topic for a moment.",
}


class LLMUser:
    """A model-played user; build many with ``LLMUser.factory`` for ``evaluate(user=...)``."""

    def __init__(
        self, goal: Goal, persona: Persona = "cooperative", *, model: str, router: ModelRouter
    ) -> None:
        if router.caller(model) is None:
            raise DialogkitError(
                f"No endpoint serves the simulated user's model {model!r}: map it in "
                "DIALOGKIT_LLM_ENDPOINTS (or DIALOGKIT_LLM_MODELS with OPENAI_BASE_URL), or "
                "replay it from the engine's cassette."
            )
        self.goal = goal
        self.persona: Persona = persona
        self.model = model
        self.usage = Usage()
        self._router = router

    @classmethod
    def factory(cls, model: str, engine: Engine) -> UserFactory:
        """Users of ``model``, sent through ``engine``'s routing (and cassette)."""
        router = engine.router
        if not isinstance(router, ModelRouter):
            raise DialogkitError(
                f"LLMUser needs an engine that routes model names; this one's router is a "
                f"{type(router).__name__}."
            )

        def build(task: Task, seed: str) -> SimulatedUser:
            del seed  # the model's answers, not a random generator, vary the user
            return cls(task.goal, task.persona, model=model, router=router)

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
        caller = self._router.caller(self.model)
        if situation.reply.session_complete or caller is None:
            return None
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": self.instructions(situation)}
        ]
        for role, said in situation.history:
            if role == "assistant":
                messages.append({"role": "user", "content": said})
            else:
                messages.append({"role": "assistant", "content": said})
        text = await caller.complete(
            model=self.model, messages=messages, purpose=PURPOSE, usage=self.usage, parse=str.strip
        )
        if not text or END in text:
            return None
        return Utterance(text)
