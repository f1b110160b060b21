"""pydantic models of the version-2 scenario graph and its documented extensions.

The models are deliberately lenient about *content* (an unknown operator, a dangling target
or an empty ``metadata.slug`` still parse) and strict about *structure* (a node list that is
not a list does not). Content problems are the validator's job, so that it can report every
one of them with its JSON path instead of stopping at the first.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

SlotType = Literal[
    "text",
    "integer",
    "number",
    "boolean",
    "enum",
    "date",
    "time",
    "phone",
    "email",
    "pattern",
]

SlotKind = Literal[
    "person_name",
    "phone",
    "email",
    "address",
    "date",
    "birth_date",
    "time",
    "count",
    "duration",
    "money",
    "measure",
    "choice",
    "yes_no",
    "identifier",
    "free_text",
]
"""What a slot holds, beyond its value type: decides which words name it, which values are
plausible and where a number said in a sentence goes (see ``dialogkit.nlu._kinds``)."""

OPERATORS: frozenset[str] = frozenset(
    {
        "equals",
        "not_equals",
        "in",
        "not_in",
        "contains",
        "exists",
        "not_exists",
        "gt",
        "gte",
        "lt",
        "lte",
        "matches",
    }
)

ACTIONS: frozenset[str] = frozenset({"stay", "repeat", "help", "back", "restart"})


Template = str | list[str]
"""A response template, or a list of variants: the first one not said before is used."""


class ScenarioModel(BaseModel):
    """Base of every scenario model: unknown keys are kept and ignored."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Metadata(ScenarioModel):
    slug: str = Field("", description="Internal scenario id (required).")
    name: str = Field("", description="Display name (required).")
    description: str = Field("", description="Purpose of the scenario (recommended).")
    language: str = Field("", description="Language code such as `ko`, `ja` or `en` (required).")
    version: str = Field("", description="Scenario version (required).")
    bot_first: bool | None = Field(None, description="Legacy fallback for `graph.bot_first`.")


class Prompts(ScenarioModel):
    bot: str = Field("", description="NLG persona and general reply instructions.")
    nlu: str = Field("", description="Domain instructions for intent and entity extraction.")


class Intent(ScenarioModel):
    description: str = Field("", description="What the user means; shown to LLM NLU.")
    examples: list[str] = Field(default_factory=list, description="Example utterances.")
    keywords: list[str] = Field(
        default_factory=list, description="Substrings that signal the intent on their own."
    )
    patterns: list[str] = Field(
        default_factory=list, description="Regular expressions (searched, case-insensitive)."
    )


class SlotValidation(ScenarioModel):
    min: float | None = Field(None, description="Smallest allowed number.")
    max: float | None = Field(None, description="Largest allowed number.")
    min_length: int | None = Field(None, ge=0, description="Shortest allowed text.")
    max_length: int | None = Field(None, ge=0, description="Longest allowed text.")
    pattern: str | None = Field(None, description="Regex the whole value must match.")
    period: Literal["past", "future"] | None = Field(
        None,
        description="Dates: `past` (a birth date; two-digit years and dates without a year "
        "are read as past) or `future` (a booking). Birth-date slots default to `past`.",
    )


class Slot(ScenarioModel):
    type: SlotType = Field("text", description="Value type; decides extraction and validation.")
    description: str = Field("", description="What the slot holds; shown to LLM NLU.")
    prompt: str = Field("", description="The question that asks for the slot (a template).")
    examples: list[str] = Field(default_factory=list, description="Example values.")
    values: list[str] = Field(default_factory=list, description="Allowed values (`enum`).")
    synonyms: dict[str, list[str]] = Field(
        default_factory=dict, description="Enum value -> other words that mean it."
    )
    pattern: str | None = Field(
        None,
        description="Extraction regex (`pattern` slots; optional for `text`). A named group "
        "`value` selects the part to keep.",
    )
    unit: str | None = Field(
        None,
        description="Numbers (and `pattern` slots holding one): the unit the value is kept "
        "in (`m`, `km`, `cm`, `mm`, `g`, `kg`, `people`, `items`, `age`, `nights`, `days`, "
        "`weeks`, `hours`, `minutes`); a quantity said in "
        'another unit of the same kind is converted ("2km" -> 2000 for `m`).',
    )
    kind: SlotKind | None = Field(
        None,
        description="What the slot holds (`person_name`, `phone`, `email`, `address`, `date`, "
        "`birth_date`, `time`, `count`, `duration`, `money`, `measure`, `choice`, `yes_no`, "
        "`identifier`, `free_text`); inferred from `type`, `unit` and `pattern` when absent.",
    )
    nouns: list[str] = Field(
        default_factory=list,
        description="Words that name the slot in a sentence (`adults`, `성인`, `大人`): a count "
        "said next to one of them goes to this slot.",
    )
    range_end: str | None = Field(
        None,
        description="Dates: the date slot that takes the end of a range said in one breath "
        '("from the 10th to the 13th").',
    )
    range_length: str | None = Field(
        None,
        description="Dates: the `duration` slot that takes the length of a range said in one "
        "breath (3 for the 10th to the 13th, in the duration slot's unit).",
    )
    validation: SlotValidation = Field(default_factory=SlotValidation)
    eval_values: list[str] = Field(
        default_factory=list,
        description="Evaluation only: the values simulated users may want for this slot, as "
        "a user says them (default: drawn from `values`, `examples` and `validation`). Use it "
        "when only some values make sense, e.g. grids a skill accepts.",
    )


class Condition(ScenarioModel):
    field: str = Field(description="Dotted path such as `nlu.intent` or `slots.card_type`.")
    operator: str = Field("equals", description="One of the documented operators.")
    value: Any = Field(None, description="Operand; a list for `in` / `not_in`.")


class AllOf(ScenarioModel):
    all: list[ConditionExpr] = Field(description="True when every condition is true.")


class AnyOf(ScenarioModel):
    any: list[ConditionExpr] = Field(description="True when at least one condition is true.")


class Not(ScenarioModel):
    not_: ConditionExpr = Field(alias="not", description="True when the condition is false.")


def _condition_kind(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("all", "any", "not"):
            if key in value:
                return key
    elif isinstance(value, AllOf):
        return "all"
    elif isinstance(value, AnyOf):
        return "any"
    elif isinstance(value, Not):
        return "not"
    return "condition"


ConditionExpr = Annotated[
    Annotated[Condition, Tag("condition")]
    | Annotated[AllOf, Tag("all")]
    | Annotated[AnyOf, Tag("any")]
    | Annotated[Not, Tag("not")],
    Discriminator(_condition_kind),
]


class Transition(ScenarioModel):
    target: str | None = Field(None, description="Node id to move to.")
    action: str | None = Field(None, description="Instead of a target: stay, repeat, back...")
    condition: ConditionExpr | None = Field(None, description="Absent: always matches.")
    reason: str | None = Field(None, description="End reason when this leads to completion.")
    set_values: dict[str, Any] = Field(
        default_factory=dict,
        alias="set",
        description="`slots.NAME` / `context.KEY` -> value (strings are templates).",
    )
    append_values: dict[str, Any] = Field(
        default_factory=dict,
        alias="append",
        description="`context.KEY` -> value appended to a list there (strings are templates).",
    )
    clear_slots: list[str] = Field(default_factory=list, description="Slots to empty.")


class NodeParams(ScenarioModel):
    skill: str = Field("", description="Skill id; non-empty selects the skill executor.")
    skill_version: str = Field("", description="Sent as context.skill_version.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Fixed arguments.")
    input_map: dict[str, str] = Field(
        default_factory=dict, description="Argument name -> dotted path (overlays arguments)."
    )
    result_map: dict[str, str] = Field(
        default_factory=dict, description="`slots.NAME` / `context.KEY` -> path into result."
    )
    allowed_updates: list[str] = Field(
        default_factory=list, description="Keys the runtime may update via slot/context_updates."
    )
    response_mode: str = Field("direct", description="`direct` or `nlg`.")
    response_path: str = Field("", description="Dotted path into result for the reply text.")
    fallback: str = Field("", description="Reply when the skill fails.")
    location_based: bool = Field(
        False, description="Send latitude/longitude from session_user.location."
    )
    max_fallback_retries: int | None = Field(None, ge=0)
    turn_limit_enabled: bool = Field(False, description="Enable `turn_limit` on this node.")
    turn_limit: int | None = Field(None, ge=1, description="Turns allowed at this node.")
    turn_limit_next: str | None = Field(None, description="Where to go when the limit is hit.")


SKILL_PARAM_KEYS: frozenset[str] = frozenset(
    {"arguments", "input_map", "result_map", "allowed_updates", "response_path", "skill_version"}
)


class Node(ScenarioModel):
    id: str = Field(description="Unique node id.")
    name: str = ""
    description: str = Field("", description="Purpose and reply scope of the node.")
    responses: dict[str, Template] = Field(
        default_factory=dict,
        description="Templates (or lists of variants): default, no_input, not_understood, "
        "skill_error, error, success, help.",
    )
    params: NodeParams = Field(default_factory=NodeParams)
    collect_slots: list[str] = Field(default_factory=list)
    accept_slots: list[str] = Field(
        default_factory=list,
        description="Slots filled from the utterance without asking (e.g. corrections).",
    )
    next_nodes: list[Transition] = Field(default_factory=list)
    default_next: str | None = None
    terminal: bool = False
    outcome: Literal["success", "failure"] | None = Field(
        None,
        description="Evaluation: whether ending here means the user's goal was met "
        "(`success`) or not (`failure`: cancelled, a skill failed). Unset on a terminal node: "
        "judged from the graph (see docs/evaluate.md).",
    )
    wait_for_input: bool = Field(
        True,
        description="False: after its reply the node passes straight on in the same turn.",
    )


class Graph(ScenarioModel):
    entry: str = Field("", description="First node id (required).")
    bot_first: bool | None = None
    global_transitions: list[Transition] = Field(default_factory=list)
    nodes: list[Node] = Field(default_factory=list)


class ScenarioDocument(ScenarioModel):
    """The whole scenario file."""

    metadata: Metadata = Field(default_factory=Metadata)
    prompts: Prompts = Field(default_factory=Prompts)
    intents: dict[str, Intent] = Field(default_factory=dict)
    slots: dict[str, Slot] = Field(default_factory=dict)
    responses: dict[str, Template] = Field(
        default_factory=dict, description="Scenario-wide templates used when a node has none."
    )
    graph: Graph = Field(default_factory=Graph)


AllOf.model_rebuild()
AnyOf.model_rebuild()
Not.model_rebuild()
Transition.model_rebuild()
