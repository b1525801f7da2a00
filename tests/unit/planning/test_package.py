from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import BaseModel

import planning
from agent.llm import CallContext, DataBlock, Prompt, ScriptedGateway, gemini_response_schema
from planning import (
    PLANNER_INSTRUCTIONS,
    REFINEMENT_INSTRUCTIONS,
    ChainItem,
    ClauseDraft,
    DraftStep,
    PlanDraft,
    PlanValidation,
    RefinedAction,
    VerificationSummary,
    check_plan,
    plan_from_draft,
    planning_blocks,
    refinement_blocks,
    validate_refined_action,
)

from tests.unit.planning.support import form_page, list_page
from verification import ElementRef

PACKAGE = Path(planning.__file__).parent
LLM_SCHEMAS: tuple[type[BaseModel], ...] = (PlanDraft, DraftStep, ClauseDraft, ElementRef, RefinedAction, ChainItem, PlanValidation)


def test_every_export_resolves() -> None:
    for name in planning.__all__:
        assert getattr(planning, name) is not None, name


def test_planning_never_imports_agent_or_app() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            for module in modules:
                root = module.split(".")[0]
                assert root not in ("agent", "app", "storage"), f"{path.name} imports {module}"


@pytest.mark.parametrize("schema", LLM_SCHEMAS, ids=lambda s: s.__name__)
def test_llm_schemas_forbid_extras_and_describe_every_field(schema: type[BaseModel]) -> None:
    assert schema.model_config.get("extra") == "forbid"
    for name, field in schema.model_fields.items():
        assert field.description, f"{schema.__name__}.{name} has no description"


@pytest.mark.parametrize("schema", (PlanDraft, RefinedAction, PlanValidation), ids=lambda s: s.__name__)
def test_llm_schemas_are_expressible_for_gemini(schema: type[BaseModel]) -> None:
    cleaned = gemini_response_schema(schema)
    assert cleaned["type"] == "object"
    assert "$ref" not in str(cleaned)


async def test_planning_and_refinement_through_the_gateway() -> None:
    """How the agent wires it: blocks → DataBlock, instructions → Prompt, answer → pure step."""
    goal = 'Add a new patient with name "Jas"'
    draft = {
        "steps": [
            {"description": "Open the form", "kind": "open", "target": "New patient", "value": None, "success_criterion": "Form open"},
            {"description": "Type the name", "kind": "fill", "target": "Name", "value": "Jas", "success_criterion": "Name filled"},
            {"description": "Save", "kind": "submit", "target": "Save", "value": None, "success_criterion": "Saved"},
        ],
        "contract": [
            {"kind": "field_value", "target": {"name": "Name", "role": "textbox"}, "value": "Jas", "description": "Name holds Jas"},
            {"kind": "shown", "value": "Jas", "description": "Jas is listed"},
        ],
        "needs_user_input": [],
    }
    refined = {"thought": "Typing the name.", "action": 'setValue("10", "Jas")', "element_id": "10", "confidence": 0.95,
               "chain": [], "step_done": True, "missing_info": []}
    gateway = ScriptedGateway({"PLANNING": [draft], "REFINEMENT": [refined]})
    ctx = CallContext(task_id="t1")

    page = list_page()
    blocks = [DataBlock(name, content) for name, content in planning_blocks(goal, page)]
    generation = await gateway.generate("PLANNING", PlanDraft, Prompt(PLANNER_INSTRUCTIONS, blocks), ctx=ctx)
    plan = plan_from_draft(generation.output, goal, page)
    assert check_plan(plan, goal, page).verdict == "PASS"

    plan.steps[0].status = "completed"
    plan.current_step_index = 1
    form = form_page()
    blocks = [
        DataBlock(name, content)
        for name, content in refinement_blocks(
            goal, plan, plan.steps[1], form, previous_actions_summary='step 0: click("4") — verified',
            verification_summary=VerificationSummary(True, False),
        )
    ]
    generation = await gateway.generate("REFINEMENT", RefinedAction, Prompt(REFINEMENT_INSTRUCTIONS, blocks), ctx=ctx)
    result = validate_refined_action(generation.output, form)
    assert result.text == 'setValue("10", "Jas")' and result.step_done

    call = gateway.calls[-1]
    assert '[10] textbox "Name" (required)' in call.user
    assert "Previous action succeeded; full goal not yet achieved." in call.user
    assert '"Name"' not in call.system.split("NONCE")[0]
