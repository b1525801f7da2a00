"""Goals that fill several fields with one verb ("Type Ada into First name, Lovelace into
Last name … and click Submit"), through the HTTP API with no model: a V3 form (and HTML
forms whose fields are named by label, aria-label or placeholder only) that reacts to the
actions the service answers. The task completes only when every field holds its value and
the form was submitted; a field left out or typed wrong never completes."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.integration.api.conftest import Api

URL = "https://forms.example/signup"
DONE_URL = "https://forms.example/thanks"
FIELDS = {"1": "First name", "2": "Last name", "3": "Email", "4": "Phone", "5": "City"}
SUBMIT = "9"
_ACTION = re.compile(r'^(?P<name>\w+)\((?P<args>.*)\)$')
_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass
class Form:
    """A sign-up form that applies what the service answers; Submit shows a thank-you page.
    ``sabotage``: a field id whose typed value the page mangles (a field that ignores input)."""

    names: dict[str, str] = field(default_factory=lambda: dict(FIELDS))
    values: dict[str, str] = field(default_factory=dict)
    submitted: dict[str, str] | None = None
    sabotage: str | None = None
    html_layout: str | None = None  # "label" | "aria" | "placeholder": sent as HTML instead of V3

    def apply(self, action: str) -> None:
        match = _ACTION.match(action)
        assert match is not None, action
        args = [a.encode().decode("unicode_escape") for a in _ARG.findall(match.group("args"))]
        if match.group("name") in ("setValue", "type", "fill") and args[0] in self.names:
            self.values[args[0]] = "" if args[0] == self.sabotage else args[1]
        elif match.group("name") == "click" and args[0] == SUBMIT:
            self.submitted = dict(self.values)

    def body(self) -> dict[str, Any]:
        if self.submitted is not None:
            thanks = [{"i": "20", "r": "link", "n": "Back to start"}]
            return {"url": DONE_URL, "interactiveTree": thanks, "hasSuccess": True, "success_messages": ["Thank you, you are signed up"]}
        if self.html_layout is not None:
            return {"url": URL, "dom": self._html()}
        tree: list[dict[str, Any]] = [{"i": i, "r": "inp", "n": n, "v": self.values.get(i, "")} for i, n in self.names.items()]
        tree.append({"i": "8", "r": "chk", "n": "Subscribe to newsletter", "c": False})
        tree.append({"i": SUBMIT, "r": "btn", "n": "Submit"})
        return {"url": URL, "interactiveTree": tree}

    def _html(self) -> str:
        rows = []
        for i, name in self.names.items():
            value = html.escape(self.values.get(i, ""), quote=True)
            if self.html_layout == "label":
                rows.append(f'<label for="f{i}">{name}</label><input id="f{i}" data-llm-id="{i}" value="{value}">')
            elif self.html_layout == "aria":
                rows.append(f'<input data-llm-id="{i}" aria-label="{name}" value="{value}">')
            else:
                rows.append(f'<input data-llm-id="{i}" placeholder="{name}" value="{value}">')
        rows.append('<label><input type="checkbox" data-llm-id="8"> Subscribe to newsletter</label>')
        rows.append(f'<button data-llm-id="{SUBMIT}" type="submit">Submit</button>')
        return "<html><body><h1>Sign up</h1><form>" + "".join(f"<div>{r}</div>" for r in rows) + "</form></body></html>"


async def run(api: Api, goal: str, form: Form, limit: int = 16) -> list[dict[str, Any]]:
    bodies: list[dict[str, Any]] = []
    ids: dict[str, Any] = {}
    for _ in range(limit):
        request = form.body() | (ids if ids else {"query": goal})
        response = await api.interact(request)
        assert response.status_code == 200, response.text
        answer = response.json()
        bodies.append(answer)
        ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
        if answer["status"] != "active":
            break
        if answer.get("action"):
            form.apply(answer["action"])
    return bodies


WANTED = {"1": "Ada", "2": "Lovelace", "3": "ada@example.com", "4": "555-0100", "5": "London"}


async def test_a_verb_shared_by_five_fields_never_types_the_list_into_the_last_one(api: Api) -> None:
    """The worst bug: "Type A into X, B into Y … and click Submit" once typed "A into X, B
    into Y, …" into the last field and called that done."""
    form = Form()
    goal = "Type Ada into First name, Lovelace into Last name, ada@example.com into Email, 555-0100 into Phone, London into City and click Submit"
    bodies = await run(api, goal, form)
    assert not any("into" in v for v in form.values.values()), form.values
    assert bodies[-1]["status"] == "completed", [(b["action"], b["status"], b.get("error")) for b in bodies]
    assert form.submitted == WANTED


PHRASINGS = [
    "Type Ada into First name, Lovelace into Last name, ada@example.com into Email, 555-0100 into Phone, London into City and click Submit",
    'Enter "Ada" in First name, "Lovelace" in Last name, "ada@example.com" in Email, "555-0100" in Phone and "London" in City, then submit',
    'Fill the form: First name "Ada", Last name "Lovelace", Email "ada@example.com", Phone "555-0100", City "London". Submit.',
    "Fill in the first name with Ada, the last name with Lovelace, the email with ada@example.com, the phone with 555-0100 and the city with London, then press Submit",
    "Set First name to Ada, Last name to Lovelace, Email to ada@example.com, Phone to 555-0100, City to London and press Submit",
]


@pytest.mark.parametrize("goal", PHRASINGS)
@pytest.mark.parametrize("layout", [None, "label", "aria", "placeholder"])
async def test_every_phrasing_fills_every_field_then_submits(api: Api, goal: str, layout: str | None) -> None:
    form = Form(html_layout=layout)
    bodies = await run(api, goal, form)
    assert bodies[-1]["status"] == "completed", [(b["action"], b["status"], b.get("error")) for b in bodies]
    assert form.submitted == WANTED
    assert all(b["decidedBy"] == "policy" for b in bodies)


@pytest.mark.parametrize("goal", PHRASINGS[:3])
async def test_a_field_that_does_not_take_its_value_is_never_completed(api: Api, goal: str) -> None:
    form = Form(sabotage="4")  # the Phone field drops what is typed into it
    bodies = await run(api, goal, form, limit=30)
    assert bodies[-1]["status"] != "completed"
    assert form.submitted is None or form.submitted.get("4") != "555-0100"


@pytest.mark.parametrize("goal", PHRASINGS[:3])
async def test_a_field_the_page_does_not_have_is_never_completed(api: Api, goal: str) -> None:
    names = {i: n for i, n in FIELDS.items() if n != "City"}
    form = Form(names=names)
    bodies = await run(api, goal, form, limit=30)
    assert bodies[-1]["status"] != "completed", [(b["action"], b["status"]) for b in bodies]


async def test_a_field_left_out_of_the_goal_is_not_filled_by_guessing(api: Api) -> None:
    """Four values for five fields: the fifth stays empty and the task is still done — it
    is the goal's list, not the page's, that must hold."""
    form = Form()
    bodies = await run(api, "Type Ada into First name, Lovelace into Last name, ada@example.com into Email and 555-0100 into Phone, then click Submit", form)
    assert bodies[-1]["status"] == "completed"
    assert form.submitted == {k: v for k, v in WANTED.items() if k != "5"}


@pytest.mark.parametrize(
    "goal",
    [
        "Fill the form with first name Ada last name Lovelace and click Submit",
        "Type Tom and Jerry into First name, Lovelace into Last name and click Submit",
    ],
)
async def test_a_list_that_cannot_be_split_is_declined_before_anything_is_typed(api: Api, goal: str) -> None:
    form = Form()
    bodies = await run(api, goal, form)
    assert bodies[0]["status"] == "failed"
    assert form.values == {} and form.submitted is None
    assert bodies[0]["failureCode"] == "GOAL_NOT_UNDERSTOOD"
