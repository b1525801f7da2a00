"""A scripted model on the Gemini REST protocol for the sub-task bench: it plans a multi-part
goal as sub-tasks and carries out each plan step honestly, and it records the size of every
prompt it receives (the measurement of the fresh worker context).

``ScriptedGemini(plan)`` is :class:`bench.lying_model.LyingGemini` (a real HTTP server on
127.0.0.1) with its own answers by purpose (told by the response schema):

* ``PLANNING`` — ``plan`` (a ``PlanDraft`` as JSON, with or without ``subtasks``);
* ``ACTION_GENERATION`` — the action for the ``current_step`` block on the ``elements``
  block: the element whose label is the step's target, ``setValue`` / ``select`` / ``press``
  / ``click`` by the step's kind, one action, ``step_done``; ``finish()`` with no step left;
* ``CONTEXT_ANALYSIS`` — PAGE; ``REPLANNING`` — the plan stays valid;
* anything else (verification, critic, outcome prediction…) — the lying model's answer, a
  schema-valid claim of success: completion must not depend on it.

``worker_prompts`` lists ``(label, characters, context characters)`` per action-generation
call: the label is the sub-task the worker was given ("Part 2 of 4 …" in its goal) or the
current step's index; the context is the prompt without the page's own blocks (page,
elements, messages, page_text) — what the task's history and plan add.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping
from typing import Any, Final

from bench.lying_model import _SCHEMA_KEYS, LyingGemini, answer_kind, generate_content_body
from bench.schema_instance import lying_instance

_ELEMENT: Final = re.compile(r'\[("(?:[^"\\]|\\.)*"|[^\]\s]+)\] (\S+) ("(?:[^"\\]|\\.)*")(.*)')
_ATTR: Final = re.compile(r'(placeholder|label)=("(?:[^"\\]|\\.)*")')
_PART: Final = re.compile(r"^Part (\d+) of (\d+)")
PAGE_BLOCKS: Final = ("page", "elements", "messages", "page_text")


def blocks_of(text: str) -> dict[str, str]:
    """The data blocks of a rendered prompt, by name."""
    return {m.group(2): m.group(3) for m in re.finditer(r'<<data-([0-9a-f]+) name="([^"]+)">>\n(.*?)\n<</data-\1>>', text, re.S)}


def _field(block: str, name: str) -> str | None:
    match = re.search(rf"^{name}: (.*)$", block, re.M)
    if match is None or match.group(1) == "none":
        return None
    raw = match.group(1)
    return json.loads(raw) if raw.startswith('"') else raw


def element_for(elements: str, label: str) -> str | None:
    """The id of the element whose name (or placeholder / label) is ``label``, any case."""
    wanted = label.strip().lower()
    for line in elements.splitlines():
        match = _ELEMENT.search(line)
        if match is None:
            continue
        names = [json.loads(match.group(3))] + [json.loads(v) for _, v in _ATTR.findall(match.group(4))]
        if any(n.strip().lower() == wanted for n in names):
            raw = match.group(1)
            return json.loads(raw) if raw.startswith('"') else raw
    return None


def worker_answer(blocks: Mapping[str, str]) -> dict[str, Any]:
    """An honest worker: the current step's action on the element it names."""
    step = blocks.get("current_step", "")
    kind, target, value = _field(step, "kind"), _field(step, "target"), _field(step, "value")
    answer: dict[str, Any] = {"thought": "", "element_id": None, "confidence": 0.95, "chain": [], "step_done": True, "missing_info": []}
    if kind is None:
        return {**answer, "thought": "Every step is done.", "action": "finish()"}
    element = element_for(blocks.get("elements", ""), target or "")
    if element is None:
        return {**answer, "thought": f"{target!r} is not on the page yet.", "action": "wait(1)", "step_done": False}
    quoted = json.dumps(element)
    if kind == "fill":
        action = f"setValue({quoted}, {json.dumps(value or '')})"
    elif kind == "select":
        action = f"select({quoted}, {json.dumps(value or '')})"
    elif kind == "press":
        action = f"press({quoted}, {json.dumps(value or 'Enter')})"
    else:
        action = f"click({quoted})"
    return {**answer, "thought": f"{kind} {target!r}", "action": action, "element_id": element}


class ScriptedGemini(LyingGemini):
    """The scripted model (see the module doc)."""

    def __init__(self, plan: Mapping[str, Any]) -> None:
        super().__init__("lying", model_version="gemini-scripted-subtasks")
        self.plan = dict(plan)
        self._prompts_lock = threading.Lock()
        self.worker_prompts: list[tuple[str, int, int]] = []
        self.purposes: list[str] = []

    def answer(self, body: Mapping[str, Any], prompt_bytes: int) -> dict[str, Any]:
        config = body.get("generationConfig") or {}
        schema = next((config[k] for k in _SCHEMA_KEYS if isinstance(config.get(k), dict)), None)
        kind = answer_kind(schema)
        system = "".join(p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts", []))
        user = "".join(p.get("text", "") for c in body.get("contents", []) for p in c.get("parts", []))
        blocks = blocks_of(user)
        if kind == "PLANNING":
            output: Any = self.plan
        elif kind == "ACTION_GENERATION":
            output = worker_answer(blocks)
            part = _PART.match(blocks.get("goal", ""))
            label = f"part {part.group(1)}" if part else f"step {_field(blocks.get('current_step', ''), 'index')}"
            with self._prompts_lock:
                page = sum(len(blocks.get(name, "")) for name in PAGE_BLOCKS)
                self.worker_prompts.append((label, len(system) + len(user), len(system) + len(user) - page))
        elif kind == "CONTEXT_ANALYSIS":
            output = {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."}
        elif kind == "REPLANNING":
            output = {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None}
        else:
            output = lying_instance(schema) if schema is not None else {"task_completed": True}
        with self._prompts_lock:
            self.purposes.append(kind)
        return generate_content_body(json.dumps(output), prompt_tokens=max(1, prompt_bytes // 4), model_version=self.model_version)
