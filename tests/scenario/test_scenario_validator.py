"""The validator reports every problem kind with its JSON path and severity."""

from __future__ import annotations

from typing import Any

import pytest

from dialogkit import Scenario
from dialogkit.scenario import validate_document
from tests.helpers import make_graph

END = {"id": "end", "description": "The end.", "terminal": True}


def problems_of(data: Any) -> dict[str, tuple[str, str]]:
    """path -> (severity, message) for every problem."""
    return {p.path: (p.severity, p.message) for p in validate_document(data)[1]}


def only(data: Any, path: str) -> tuple[str, str]:
    found = problems_of(data)
    assert path in found, f"expected a problem at {path}, got {found}"
    return found[path]


def node(node_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "description": f"Node {node_id}.", **fields}


def test_a_valid_graph_has_no_problem() -> None:
    data = make_graph([node("start", default_next="end"), END])
    assert validate_document(data)[1] == []
    assert Scenario.from_dict(data).is_valid


def test_missing_metadata_is_an_error() -> None:
    data = make_graph([node("start", default_next="end"), END])
    del data["metadata"]
    assert only(data, "metadata")[0] == "error"


@pytest.mark.parametrize("field", ["slug", "name", "language", "version"])
def test_each_required_metadata_field(field: str) -> None:
    data = make_graph([node("start", default_next="end"), END])
    data["metadata"][field] = ""
    severity, message = only(data, f"metadata.{field}")
    assert severity == "error" and "required" in message


def test_malformed_metadata_field_is_reported_at_its_path() -> None:
    data = make_graph([node("start", default_next="end"), END])
    data["metadata"]["language"] = 7
    assert only(data, "metadata.language")[0] == "error"


def test_missing_recommended_fields_are_warnings() -> None:
    data = make_graph([node("start", default_next="end"), END])
    data["metadata"]["description"] = ""
    data["prompts"] = {}
    assert only(data, "metadata.description")[0] == "warning"
    assert only(data, "prompts.bot")[0] == "warning"


def test_missing_entry() -> None:
    data = make_graph([node("start", default_next="end"), END])
    data["graph"]["entry"] = ""
    assert only(data, "graph.entry") == ("error", "graph.entry (the first node id) is missing.")


def test_unknown_entry_names_the_choices() -> None:
    data = make_graph([node("start", default_next="end"), END], entry="begin")
    severity, message = only(data, "graph.entry")
    assert severity == "error" and "'begin'" in message and "'start'" in message


def test_no_nodes() -> None:
    data = make_graph([END])
    data["graph"]["nodes"] = []
    assert only(data, "graph.nodes")[0] == "error"


def test_duplicate_node_ids() -> None:
    data = make_graph([node("start", default_next="end"), END, node("start", terminal=True)])
    severity, message = only(data, "graph.nodes[2].id")
    assert severity == "error" and "graph.nodes[0]" in message


def test_transition_to_unknown_node() -> None:
    data = make_graph([node("start", next_nodes=[{"target": "nowhere"}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].target")[0] == "error"


def test_default_next_to_unknown_node() -> None:
    data = make_graph([node("start", default_next="nowhere"), END])
    assert only(data, "graph.nodes[0].default_next")[0] == "error"


def test_global_transition_to_unknown_node() -> None:
    data = make_graph(
        [node("start", default_next="end"), END], global_transitions=[{"target": "gone"}]
    )
    assert only(data, "graph.global_transitions[0].target")[0] == "error"


def test_transition_needs_target_or_action() -> None:
    data = make_graph(
        [node("start", default_next="end", next_nodes=[{"target": "end", "action": "stay"}]), END]
    )
    assert only(data, "graph.nodes[0].next_nodes[0]")[0] == "error"


def test_unknown_action() -> None:
    data = make_graph([node("start", default_next="end", next_nodes=[{"action": "jump"}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].action")[0] == "error"


def test_unknown_operator_inside_combinator() -> None:
    condition = {"any": [{"field": "input.text", "operator": "looks_like", "value": "x"}]}
    data = make_graph(
        [
            node(
                "start", default_next="end", next_nodes=[{"target": "end", "condition": condition}]
            ),
            END,
        ]
    )
    path = "graph.nodes[0].next_nodes[0].condition.any[0].operator"
    severity, message = only(data, path)
    assert severity == "error" and "looks_like" in message


def test_condition_on_undeclared_slot() -> None:
    condition = {"field": "slots.colour", "operator": "exists"}
    data = make_graph([node("start", next_nodes=[{"target": "end", "condition": condition}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].condition.field")[0] == "error"


def test_condition_on_undeclared_entity() -> None:
    condition = {"field": "nlu.entities.colour", "operator": "exists"}
    data = make_graph([node("start", next_nodes=[{"target": "end", "condition": condition}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].condition.field")[0] == "error"


def test_condition_on_undeclared_intent() -> None:
    condition = {"field": "nlu.intent", "operator": "in", "value": ["affirm", "order_pizza"]}
    data = make_graph([node("start", next_nodes=[{"target": "end", "condition": condition}]), END])
    severity, message = only(data, "graph.nodes[0].next_nodes[0].condition.value")
    assert severity == "warning" and "order_pizza" in message and "offline NLU" in message


def test_condition_with_unknown_root() -> None:
    condition = {"field": "session.turns", "operator": "gt", "value": 1}
    data = make_graph([node("start", next_nodes=[{"target": "end", "condition": condition}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].condition.field")[0] == "error"


def test_invalid_regex_in_matches() -> None:
    condition = {"field": "input.text", "operator": "matches", "value": "(unclosed"}
    data = make_graph([node("start", next_nodes=[{"target": "end", "condition": condition}]), END])
    assert only(data, "graph.nodes[0].next_nodes[0].condition.value")[0] == "error"


def test_collect_slots_must_be_declared() -> None:
    data = make_graph([node("start", collect_slots=["colour"], default_next="end"), END])
    assert only(data, "graph.nodes[0].collect_slots[0]")[0] == "error"


def test_enum_slot_needs_values() -> None:
    data = make_graph(
        [node("start", collect_slots=["size"], default_next="end"), END],
        slots={"size": {"type": "enum", "prompt": "Size?"}},
    )
    assert only(data, "slots.size.values")[0] == "error"


def test_unknown_slot_type_is_a_structure_error() -> None:
    data = make_graph([node("start", default_next="end"), END], slots={"x": {"type": "colour"}})
    assert only(data, "slots.x.type")[0] == "error"


def test_non_terminal_node_without_way_out_is_a_warning() -> None:
    data = make_graph([node("start", next_nodes=[{"target": "stuck"}]), node("stuck"), END])
    severity, message = only(data, "graph.nodes[1]")
    assert severity == "warning" and "stuck" in message


def test_unreachable_node_is_a_warning() -> None:
    data = make_graph([node("start", default_next="end"), END, node("island", terminal=True)])
    severity, message = only(data, "graph.nodes[2]")
    assert severity == "warning" and "cannot be reached" in message
    assert Scenario.from_dict(data).is_valid


def test_skill_node_without_skill_name() -> None:
    params = {"input_map": {"q": "input.text"}, "response_mode": "nlg"}
    data = make_graph([node("start", params=params, default_next="end"), END])
    severity, message = only(data, "graph.nodes[0].params.skill")
    assert severity == "error" and "input_map" in message


def test_input_map_paths_are_checked() -> None:
    params = {"skill": "lookup", "input_map": {"q": "slots.unknown"}}
    data = make_graph([node("start", params=params, default_next="end"), END])
    assert only(data, "graph.nodes[0].params.input_map.q")[0] == "error"


def test_result_map_cannot_write_reserved_context() -> None:
    params = {"skill": "lookup", "result_map": {"context.last_skill_status": "status"}}
    data = make_graph([node("start", params=params, default_next="end"), END])
    assert only(data, "graph.nodes[0].params.result_map.context.last_skill_status")[0] == "error"


def test_negative_max_fallback_retries() -> None:
    data = make_graph([node("start", params={"max_fallback_retries": -1}, default_next="end"), END])
    assert only(data, "graph.nodes[0].params.max_fallback_retries")[0] == "error"


def test_template_with_undeclared_slot_is_a_warning() -> None:
    data = make_graph(
        [node("start", responses={"default": "Hi {slots.nick}"}, default_next="end"), END]
    )
    assert only(data, "graph.nodes[0].responses.default")[0] == "warning"


def test_every_problem_is_reported_at_once() -> None:
    data = make_graph(
        [node("start", next_nodes=[{"target": "a"}, {"target": "b"}], default_next="c"), END],
        entry="zzz",
    )
    paths = set(problems_of(data))
    assert {
        "graph.entry",
        "graph.nodes[0].next_nodes[0].target",
        "graph.nodes[0].next_nodes[1].target",
        "graph.nodes[0].default_next",
    } <= paths


def test_pass_through_with_an_unconditional_transition_is_fine() -> None:
    data = make_graph([node("start", wait_for_input=False, next_nodes=[{"target": "end"}]), END])
    assert validate_document(data)[1] == []
    data = make_graph(
        [
            node(
                "start",
                wait_for_input=False,
                next_nodes=[{"target": "end", "condition": {"field": "input.text"}}],
            ),
            END,
        ]
    )
    assert only(data, "graph.nodes[0].wait_for_input")[0] == "warning"
