"""Skills: what a correction taught about a site, used only once it is confirmed.

A skill is the triplet of a verified correction (spec "Episodic Memory"): on this site,
for goals of this shape, acting on *this* element did nothing (the failed state), and the
same action on *that* element worked (the successful action). It is learned only from the
verifier — the page proved the corrected action worked, never a model's word — and
admitted only after it is confirmed by a second task (:data:`ADMIT_AFTER`). An admitted
skill whose Wilson lower bound of success is under the spec's 50 % gate is not used.

A used skill steers the action before it is sent: when the chosen action is the failed
one — re-identified on the live page, uniquely, from its recorded semantics — it goes to
the successful element instead (re-identified the same way). With a model the admitted
skills are also given to it, as a data block of hints.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from agent.memory.ranking import passes_gate, skill_score
from agent.memory.scrub import leaks
from agent.memory.targets import SemanticTarget, reidentify, templated
from agent.memory.templates import GoalTemplate, make_template

from agent.policy.text import similarity
from storage import Skill
from verification import Action, PageState

if TYPE_CHECKING:
    from agent.state import Candidate

ADMIT_AFTER: Final = 2  # verified successes in distinct tasks before a skill is used
SKILL_CAP: Final = 10_000  # per tenant (spec); the weakest are evicted beyond it
MAX_HINTS: Final = 3
RELATED: Final = 0.6  # a goal this close to a skill's template (without its values) gets its hint
_VAR: Final = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Applicable:
    skill: Skill
    bindings: dict[str, str]  # the goal's values for the skill's template variables ({} when only related)
    score: float


def applicable(skills: Iterable[Skill], goal: str, now: datetime, limit: int = MAX_HINTS) -> list[Applicable]:
    """Admitted skills above the gate whose goal template is this goal's (values bound) or
    close to it, best first (lower confidence bound × time decay)."""
    plain = _skeleton(make_template(goal)[0].text)
    found: list[Applicable] = []
    for skill in skills:
        if skill.status != "admitted" or not passes_gate(skill.success_count, skill.failure_count):
            continue
        template = GoalTemplate.parse(skill.goal)
        bindings = template.bind(goal)
        if bindings is None:
            if similarity(_skeleton(template.text), plain) < RELATED:
                continue
            bindings = {}
        found.append(Applicable(skill, bindings, skill_score(skill.success_count, skill.failure_count, skill.last_used, now)))
    found.sort(key=lambda a: a.score, reverse=True)
    return found[:limit]


def _skeleton(template_text: str) -> str:
    return " ".join(_VAR.sub(" ", template_text).split())


def steer(candidate: Candidate, page: PageState, skills: Sequence[Applicable]) -> tuple[Candidate, tuple[str, ...]]:
    """The candidate, sent to the element a skill learned works when it is about to repeat
    the skill's failed action (see :func:`steer_action`)."""
    action, used, note = steer_action(candidate.action, page, skills)
    if not used:
        return candidate, ()
    return dataclasses.replace(candidate, action=action, thought=candidate.thought + note), used


def steer_action(action: Action, page: PageState, skills: Sequence[Applicable]) -> tuple[Action, tuple[str, ...], str]:
    """``action`` moved to the element a skill learned works, when it is the skill's failed
    action on its failed element; both re-identified uniquely on this page. Returns the
    action, the skill used (or none) and a note for the thought."""
    if action.target is None:
        return action, (), ""
    for item in skills:
        failed, worked = item.skill.failed_state, item.skill.successful_action
        if failed.get("action") != action.name or worked.get("action") != action.name:
            continue
        try:
            was = reidentify(SemanticTarget.from_dict(failed.get("target") or {}), page, item.bindings)
            now = reidentify(SemanticTarget.from_dict(worked.get("target") or {}), page, item.bindings)
        except (KeyError, TypeError, ValueError):
            continue
        if was.element is None or was.element.id != action.target or now.element is None or now.element.id == action.target:
            continue
        note = f" Memory: {failed.get('elementDescription') or 'that element'} did nothing here before; {worked.get('elementDescription') or 'this one'} worked."
        return dataclasses.replace(action, target=now.element.id), (item.skill.id,), note
    return action, (), ""


def hints(skills: Sequence[Applicable]) -> list[str]:
    """The skills as data for the model's prompt (never instructions)."""
    lines = []
    for item in skills:
        failed, worked = item.skill.failed_state, item.skill.successful_action
        lines.append(
            f"For goals like {item.skill.goal!r}: {failed.get('action')} on {failed.get('elementDescription')} did not work "
            f"({failed.get('errorType') or 'no effect'}); {worked.get('action')} on {worked.get('elementDescription')} worked "
            f"({item.skill.success_count} verified successes, {item.skill.failure_count} failures)."
        )
    return lines


def lesson(
    *,
    tenant_id: str,
    domain: str,
    goal: str,
    values: Iterable[str],
    failed: Mapping[str, Any],
    worked_action: str,
    worked_target: Mapping[str, Any],
    strategy: str,
    secrets: Iterable[str],
    at: datetime,
) -> Skill | None:
    """The skill a verified correction teaches, or None when it would store a secret or
    has no element on either side."""
    failed_target, worked_raw = failed.get("target"), dict(worked_target)
    if not failed_target or not worked_raw or failed.get("action") != worked_action:
        return None
    template, bindings = make_template(goal, values)
    failed_semantics = templated(SemanticTarget.from_dict(failed_target), bindings)
    worked_semantics = templated(SemanticTarget.from_dict(worked_raw), bindings)
    if failed_semantics == worked_semantics:
        return None
    skill = Skill(
        id=_key(tenant_id, domain, template.text, worked_action, failed_semantics, worked_semantics),
        tenant_id=tenant_id,
        domain=domain,
        goal=template.text,
        failed_state={
            "action": worked_action,
            "target": failed_semantics.to_dict(),
            "elementDescription": failed_semantics.describe(),
            "errorType": str(failed.get("error") or "VERIFICATION_FAILED"),
        },
        successful_action={
            "action": worked_action,
            "target": worked_semantics.to_dict(),
            "elementDescription": worked_semantics.describe(),
            "strategy": strategy,
        },
        last_used=at,
        created_at=at,
    )
    if leaks(skill.model_dump(mode="json", include={"goal", "failed_state", "successful_action"}), secrets) is not None:
        return None
    return skill


def _key(*parts: Any) -> str:
    raw = json.dumps([p.to_dict() if isinstance(p, SemanticTarget) else p for p in parts], sort_keys=True, ensure_ascii=False)
    return "skill-" + hashlib.sha256(raw.encode()).hexdigest()[:32]


def weakest(skills: Iterable[Skill], now: datetime, keep: int) -> list[str]:
    """Ids beyond the ``keep`` strongest (candidates before admitted ones, then by score)."""
    ranked = sorted(skills, key=lambda s: (s.status == "admitted", skill_score(s.success_count, s.failure_count, s.last_used, now)), reverse=True)
    return [s.id for s in ranked[keep:]]
