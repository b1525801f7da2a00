"""The gym's fake models, on Gemini's own HTTP protocol, behind Stepwise's real gateway.

* :class:`OracleGemini` is a **correct model**: it knows the goal's human solution (the
  gym tells it which goal runs, and lends it the live page to find each step's element the
  way a person sees it) and answers every structured call as a competent model would — a
  plan of the solution's steps with the contract clauses a careful person writes, each action
  on the element id the page lists, honest verdicts (the site's own log says whether the goal
  is done), a value only the user knows asked for rather than invented.
* ``OracleGemini(noise=Noise(...))`` is the **noisy** model: the oracle with seeded mistakes —
  some actions hit a look-alike element or skip a step, some verdicts claim success early, some
  answers claim information is missing.
* The **lying** model is :class:`bench.lying_model.LyingGemini`.

Nothing here reads a site's wording: every answer is built from the goal's data (steps,
values, expected events) and the page the prompt shows.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from bench.gym.oracle_plan import from_user as _from_user
from bench.gym.oracle_plan import label as _label
from bench.gym.oracle_plan import MARK, plan_answer
from bench.gym.spec import Goal, Site, Step
from bench.gym.steps import StepNotFound, locate
from bench.lying_model import _SCHEMA_KEYS, LyingGemini, answer_kind, generate_content_body
from bench.schema_instance import lying_instance
from bench.subtask_model import blocks_of

RESOLVE_TIMEOUT_S: Final = 15.0
LOOK_S: Final = 0.5  # the model looks at the page it is shown: an element is there or not
_ELEMENT_LINE: Final = re.compile(r'^- \[("(?:[^"\\]|\\.)*"|[^\]\s]+)\] (\S+) ("(?:[^"\\]|\\.)*")', re.M)
_STEP_INDEX: Final = re.compile(r"^index: (\d+)$", re.M)
_DESCRIPTION: Final = re.compile(r"^description: (.*)$", re.M)
FIELD_VALUE: Final = """el => {
  if (el.tagName === 'SELECT') return el.selectedOptions.length ? el.selectedOptions[0].textContent + ' ' + el.value : '';
  if ('value' in el) return String(el.value);
  return el.isContentEditable ? el.innerText : null;
}"""
ELEMENT_ID: Final = """el => {
  const own = el.closest('[data-llm-id]');
  if (own) return own.getAttribute('data-llm-id');
  const inner = el.querySelector('[data-llm-id]');
  return inner ? inner.getAttribute('data-llm-id') : null;
}"""


@dataclass(frozen=True)
class Noise:
    """How often the noisy model errs (each draw seeded by the goal and the call's number)."""

    wrong_element: float = 0.10  # an action on a look-alike element (same role, another name)
    skip_step: float = 0.10  # the next step's action instead of the current one
    early_success: float = 0.10  # a verdict that claims the goal done before it is
    claims_missing: float = 0.05  # an answer that claims a value is missing
    seed: int = 0


@dataclass
class _Brief:
    site: Site
    goal: Goal
    page: Page
    loop: asyncio.AbstractEventLoop
    done: Callable[[], bool]  # the site's log shows the goal done
    next: int = 0  # the solution step after the last one this model acted on: its own memory of the task
    redone: set[int] = field(default_factory=set)  # steps it went back to once (never twice: no loop)


class OracleGemini(LyingGemini):
    """The oracle (``noise=None``) or the noisy model; :meth:`brief` before each goal."""

    def __init__(self, *, noise: Noise | None = None) -> None:
        super().__init__("lying", model_version="gemini-noisy-gym" if noise else "gemini-oracle-gym")
        self.noise = noise
        self._briefs: dict[str, _Brief] = {}  # by the goal's text: goals run side by side
        self._calls: dict[str, int] = {}
        self._brief_lock = threading.Lock()

    @property
    def name(self) -> str:
        return "noisy" if self.noise else "oracle"

    def brief(self, site: Site, goal: Goal, page: Page, loop: asyncio.AbstractEventLoop, done: Callable[[], bool]) -> None:
        """The goal about to run, its live page, and how to tell it done (until :meth:`release`)."""
        with self._brief_lock:
            self._briefs[_key(goal.text)] = _Brief(site, goal, page, loop, done)
            self._calls[_key(goal.text)] = 0

    def release(self, goal: Goal) -> None:
        with self._brief_lock:
            self._briefs.pop(_key(goal.text), None)

    def _brief_for(self, blocks: Mapping[str, str]) -> tuple[_Brief | None, int]:
        with self._brief_lock:
            key = _key(blocks.get("goal", ""))
            if key not in self._briefs:  # the goal as sent, with what Stepwise sealed ("[secret:1]")
                sealed = re.compile(re.sub(r"\\\[secret:\d+\\\]", ".+?", re.escape(key)))
                key = next((k for k in self._briefs if sealed.fullmatch(k)), key)
            if key not in self._briefs and len(self._briefs) == 1:
                key = next(iter(self._briefs))
            if key not in self._briefs:
                return None, 0
            self._calls[key] += 1
            return self._briefs[key], self._calls[key]

    def answer(self, body: Mapping[str, Any], prompt_bytes: int) -> dict[str, Any]:
        config = body.get("generationConfig") or {}
        schema = next((config[k] for k in _SCHEMA_KEYS if isinstance(config.get(k), dict)), None)
        kind = answer_kind(schema)
        user = "".join(p.get("text", "") for c in body.get("contents", []) for p in c.get("parts", []))
        blocks = blocks_of(user)
        brief, call = self._brief_for(blocks)
        with self._lock:
            self._counts[kind] += 1
        output = self._output(kind, schema, blocks, user, brief, call)
        return generate_content_body(json.dumps(output), prompt_tokens=max(1, prompt_bytes // 4), model_version=self.model_version)

    def _draw(self, brief: _Brief | None, call: int) -> random.Random:
        seed = self.noise.seed if self.noise else 0
        return random.Random(f"{seed}:{brief.goal.id if brief else ''}:{call}")

    def _output(self, kind: str, schema: Mapping[str, Any] | None, blocks: dict[str, str], user: str, brief: _Brief | None, call: int) -> Any:
        rng = self._draw(brief, call)
        noise = self.noise
        if brief is None:
            return lying_instance(schema) if schema is not None else {"task_completed": False}
        if kind == "PLANNING":
            return plan_answer(brief.goal)
        if kind == "ACTION_GENERATION":
            if noise and rng.random() < noise.claims_missing:
                return _wait_for_user(["confirmation code"])
            return self._action(blocks, user, brief, rng)
        if kind == "VERIFICATION":
            done = brief.done()
            early = bool(noise and not done and rng.random() < noise.early_success)
            return {"action_succeeded": True, "task_completed": done or early, "confidence": 0.9,
                    "reason": "The page shows the goal done." if done or early else "The goal is not done yet."}
        if kind == "CONTEXT_ANALYSIS":
            if schema is not None and "solved" in schema.get("properties", {}):
                return lying_instance(schema)
            missing = ["account number"] if noise and rng.random() < noise.claims_missing else []
            return {"source": "ASK_USER" if missing else "PAGE", "required_sources": ["ASK_USER" if missing else "PAGE"],
                    "missing_information": missing, "search_query": None, "reason": "The page has what the goal needs."}
        if kind == "CRITIC":
            return {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9}
        if kind == "OUTCOME_PREDICTION":
            return {"description": "The page shows the step's effect.", "url_should_change": None, "elements_to_appear": [],
                    "success_text": None, "next_goal": None}
        if kind == "SELF_CORRECTION":
            step_action = self._action(blocks, user, brief, rng)
            return {"strategy": "RETRY_WITH_DELAY", "action": step_action.get("action"), "reason": "Try the step again."}
        if kind == "REPLANNING":
            return {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None}
        return lying_instance(schema) if schema is not None else {"task_completed": brief.done()}

    # -- actions ------------------------------------------------------------------------
    def _action(self, blocks: Mapping[str, str], user: str, brief: _Brief, rng: random.Random) -> dict[str, Any]:
        if not brief.goal.doable:  # a competent model says so rather than trying
            return _answer(f"fail({json.dumps(brief.goal.why or 'this site cannot do that')})", None, brief.goal.why or "", step_done=False)
        # Where the task stands: the plan step Stepwise says it is on, else the model's own
        # memory of what it did (a plan Stepwise rewrote or ran out of names no solution step).
        index = _solution_index(blocks.get("current_step", ""), brief.goal)
        if index is None:
            index = self._lost_value(brief)
        if index is None:
            index = brief.next
        if index >= len(brief.goal.steps):
            if brief.done():
                return _answer("finish()", None, "The goal is done on the page.", step_done=True)
            return _answer("wait(1)", None, "Waiting for the page to show the result.", step_done=False)
        noise = self.noise
        if noise and rng.random() < noise.skip_step and index + 1 < len(brief.goal.steps):
            index += 1
        step = brief.goal.steps[index]
        value = step.value
        if value is not None and _from_user(value, brief.goal) and value not in user:
            key = next(k for k, v in brief.goal.answers.items() if v == value)
            return _wait_for_user([key])
        if step.do == "upload":
            return _answer('fail("I cannot choose a file from your computer.")', None, "Uploading a file is not something I can do here.", step_done=False)
        element = self._element_id(brief, step)
        if element is None:  # the step's element is gone: done already (by a confirmation?), or not shown yet
            if brief.done():
                return _answer("finish()", None, "The goal is done on the page.", step_done=True)
            for later in range(index + 1, len(brief.goal.steps)):  # a competent model acts on what the page shows next
                if (found := self._element_id(brief, brief.goal.steps[later])) is not None:
                    index, step, element = later, brief.goal.steps[later], found
                    break
            else:
                return _answer("wait(1)", None, f"{step.describe()} is not on the page yet.", step_done=False)
        listing = blocks.get("elements", "")
        if _listed_ids(listing) and element not in _listed_ids(listing):
            # The live page re-rendered since the page Stepwise shows was read: the model acts on
            # the page it is shown, on the element of the same kind and name.
            element = _listed_as(listing, step) or element
        if noise and rng.random() < noise.wrong_element:
            element = _look_alike(listing, element) or element
        action = _grammar(step, element, self._checked(brief, step))
        if action is None:
            return _answer("wait(1)", None, f"{step.describe()} is already done.", step_done=True)
        chain = [] if noise else self._chain(brief, index, blocks.get("elements", ""))
        brief.next = max(brief.next, index + 1 + len(chain))
        return _answer(action, element, step.describe(), step_done=True, chain=chain)

    def _lost_value(self, brief: _Brief) -> int | None:
        """A field of the current form (the steps since the last press) that does not hold what
        this model typed or chose: a chain the client did not run, or a page that lost it."""
        steps = brief.goal.steps
        first = next((i + 1 for i in range(min(brief.next, len(steps)) - 1, -1, -1) if steps[i].do in ("click", "press")), 0)
        for i in range(first, min(brief.next, len(steps))):
            step = steps[i]
            if step.do not in ("fill", "type", "select") or step.value is None or _from_user(step.value, brief.goal):
                continue
            if i not in brief.redone and self._holds(brief, step) is False:
                brief.redone.add(i)
                return i
        return None

    def _holds(self, brief: _Brief, step: Step) -> bool | None:
        """The step's field shows its value (None: the field is not on the page)."""

        async def value() -> bool | None:
            try:
                target = (await locate(brief.page, step, appear_s=0.0)).first
                shown = await target.evaluate(FIELD_VALUE, timeout=2000)
            except (StepNotFound, PlaywrightError):
                return None
            return shown is not None and _norm(step.value or "") in _norm(shown)

        return self._run(brief, value())

    def _chain(self, brief: _Brief, index: int, elements: str) -> list[dict[str, str]]:
        """The next fields of the same form, when they are on the page now (a competent
        model fills a form in one go; never a click but a box or a radio)."""
        chain: list[dict[str, str]] = []
        listed = set(_listed_ids(elements))
        for step in brief.goal.steps[index + 1 :]:
            if step.do not in ("fill", "select", "check", "uncheck") or (step.value and _from_user(step.value, brief.goal)):
                break
            element = self._element_id(brief, step)
            if element is None or element not in listed:
                break
            action = _grammar(step, element, self._checked(brief, step))
            if action is None:
                continue
            chain.append({"action": action, "description": step.describe()[:200]})
        return chain[:9]

    def _run(self, brief: _Brief, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, brief.loop).result(timeout=RESOLVE_TIMEOUT_S)

    def _element_id(self, brief: _Brief, step: Step) -> str | None:
        async def find() -> str | None:
            try:
                target = await locate(brief.page, step, appear_s=LOOK_S)
                return await target.first.evaluate(ELEMENT_ID, timeout=3000)
            except (StepNotFound, PlaywrightError):  # a page mid-navigation: not found now
                return None

        return self._run(brief, find())

    def _checked(self, brief: _Brief, step: Step) -> bool | None:
        if step.do not in ("check", "uncheck"):
            return None

        async def state() -> bool | None:
            try:
                return await (await locate(brief.page, step, appear_s=LOOK_S)).first.is_checked(timeout=2000)
            except (StepNotFound, PlaywrightError):  # unknown state: act
                return None

        return self._run(brief, state())


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _key(goal_text: str) -> str:
    return " ".join(goal_text.split()).casefold()


# -- reading the prompt ---------------------------------------------------------------------------
def _solution_index(current: str, goal: Goal) -> int | None:
    if not current or current.startswith("none"):
        return None
    description = _DESCRIPTION.search(current)
    if description and (mark := MARK.search(description.group(1))) is not None:
        index = int(mark.group(1))
        return index if index < len(goal.steps) else None
    index_match = _STEP_INDEX.search(current)
    return int(index_match.group(1)) if index_match and int(index_match.group(1)) < len(goal.steps) else None


def _listed_ids(elements: str) -> list[str]:
    return [m.group(1).strip('"') for m in _ELEMENT_LINE.finditer(elements)]


def _listed_as(elements: str, step: Step) -> str | None:
    """The listed element with the step's role and name (the first, when a list repeats it)."""
    name = _norm(_label(step))
    for m in _ELEMENT_LINE.finditer(elements):
        listed_name = _norm(json.loads(m.group(3)) if m.group(3).startswith('"') else m.group(3))
        if m.group(2) == step.role and name and listed_name == name:
            return m.group(1).strip('"')
    return None


def _look_alike(elements: str, element: str) -> str | None:
    """Another element of the same role, the nearest in the list: what a careless model hits."""
    rows = [(m.group(1).strip('"'), m.group(2)) for m in _ELEMENT_LINE.finditer(elements)]
    where = next((i for i, (eid, _) in enumerate(rows) if eid == element), None)
    if where is None:
        return None
    role = rows[where][1]
    others = sorted((abs(i - where), eid) for i, (eid, r) in enumerate(rows) if r == role and eid != element)
    return others[0][1] if others else None


def _grammar(step: Step, element: str, checked: bool | None) -> str | None:
    quoted = json.dumps(element)
    match step.do:
        case "fill" | "type":
            return f"setValue({quoted}, {json.dumps(step.value or '')})"
        case "select":
            return f"select({quoted}, {json.dumps(step.value or '')})"
        case "check":
            return None if checked is True else f"click({quoted})"
        case "uncheck":
            return None if checked is False else f"click({quoted})"
        case "press":
            return f"press({quoted}, {json.dumps(step.key or 'Enter')})"
        case "hover":
            return f"hover({quoted})"
        case _:
            return f"click({quoted})"


def _answer(action: str, element: str | None, thought: str, *, step_done: bool, chain: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"thought": thought[:1000], "action": action, "element_id": element, "confidence": 0.92, "chain": chain or [],
            "step_done": step_done, "missing_info": []}


def _wait_for_user(missing: list[str]) -> dict[str, Any]:
    return {"thought": "I need a value from you to go on.", "action": "wait(1)", "element_id": None, "confidence": 0.9,
            "chain": [], "step_done": False, "missing_info": missing}
