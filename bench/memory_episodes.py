"""One episode of the replay bench, on MiniWoB++ or the demo clinic, through the real client
loop, with the perturbation layer installed (no kinds: it only keys elements and logs which
real element each action hit).

Each answer is kept with its ``memory`` (HIT / MISS / FALLBACK / DISABLED and the reason),
its model calls, its actions and the page events its execution caused (from the layer's
log), so the report can tell replayed steps from planned ones and judge wrong-element
actions from the page itself.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from playwright.async_api import Browser, Page

from bench.memory_perturb import Perturbation, apply, info, init_script, take_log
from bench.miniwob.env import read_reward, start_episode
from client import StepRecord, StepwiseClient, new_context, run_task
from client.demo_site.server import DemoSite, serve_demo_site


@dataclass
class Answer:
    """One server answer of an episode and what executing it did on the page."""

    replay: str | None
    miss_reason: str | None
    model_calls: int
    actions: list[str]
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def acts(self) -> bool:
        """The answer asked for page actions (not finish / fail / a bare wait)."""
        return any(not a.startswith(("finish(", "fail(", "wait(")) for a in self.actions)


@dataclass
class Episode:
    """One episode: what was asked, how it ended, and every answer."""

    suite: str  # miniwob | demo
    task: str
    seed: int
    phase: str  # learn | later | baseline | perturb
    regime: str  # learn | same | new
    kind: str  # none, or the perturbation kind
    goal: str
    success: bool
    status: str
    error_code: str | None
    false_completion: bool
    answers: list[Answer]
    layer: dict[str, Any]
    elapsed_s: float
    task_id: str | None = None  # Stepwise's task (GET /api/tasks/{id} for its steps)

    @property
    def model_calls(self) -> int:
        return sum(a.model_calls for a in self.answers)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Episode:
        answers = [Answer(**a) for a in data.get("answers", [])]
        return cls(**{**data, "answers": answers})


@dataclass(frozen=True)
class Spec:
    """Which episode to play: the task (a MiniWoB name, or ``demo``), its seed (MiniWoB's
    instance; the demo's patient name index), the phase and regime it counts in, and the
    perturbation (seeded) when there is one."""

    suite: str
    task: str
    seed: int
    phase: str
    regime: str
    kind: str = "none"
    perturb_seed: int = 0


def _answers(steps: list[StepRecord], events: dict[int, list[dict[str, Any]]]) -> list[Answer]:
    out = []
    for step in steps:
        memory = step.memory or {}
        out.append(
            Answer(
                replay=memory.get("replay"),
                miss_reason=memory.get("missReason"),
                model_calls=int(step.usage.get("modelCalls") or 0),
                actions=list(step.actions) if step.actions else [step.action],
                events=events.get(step.index, []),
            )
        )
    return out


async def _play(page: Page, api: StepwiseClient, goal: str, url: str | None, should_stop: Any, max_steps: int) -> tuple[Any, dict[int, list[dict[str, Any]]]]:
    events: dict[int, list[dict[str, Any]]] = {}

    async def on_step(event: str, step: StepRecord) -> None:
        if event == "executed":
            events[step.index] = await take_log(page)

    result = await run_task(goal, url, api=api, page=page, max_steps=max_steps, on_step=on_step, should_stop=should_stop)
    return result, events


def _perturbation(spec: Spec, auto: bool) -> Perturbation:
    kinds = () if spec.kind == "none" else (spec.kind,)
    return Perturbation(seed=spec.perturb_seed, kinds=kinds, auto=auto)


async def miniwob_episode(browser: Browser, api: StepwiseClient, base_url: str, spec: Spec, *, max_steps: int) -> Episode:
    """A MiniWoB episode: the task's instance for ``spec.seed``, perturbed once the task has
    built its page; success is the environment's raw reward > 0."""
    context = await new_context(browser)
    try:
        await context.add_init_script(init_script(_perturbation(spec, auto=False)))
        page = await context.new_page()
        goal = await start_episode(page, base_url, spec.task, spec.seed)
        await apply(page)

        async def over(step: StepRecord) -> str | None:
            reward = await read_reward(page)
            return "the episode ended" if reward.done else None

        began = time.monotonic()
        result, events = await _play(page, api, goal, None, over, max_steps)
        elapsed = time.monotonic() - began
        reward = await read_reward(page)
        layer = await info(page)
    finally:
        await context.close()
    return Episode(
        suite="miniwob", task=spec.task, seed=spec.seed, phase=spec.phase, regime=spec.regime, kind=spec.kind, goal=goal,
        success=reward.success, status=result.status, error_code=result.error_code,
        false_completion=result.status == "completed" and not reward.success,
        answers=_answers(result.steps, events), layer=layer, elapsed_s=round(elapsed, 2), task_id=result.task_id,
    )  # fmt: skip


DEMO_NAMES: tuple[str, ...] = (
    "Jas", "Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
    "Ken Thompson", "Frances Allen", "Donald Knuth", "Radia Perlman", "John Backus", "Hedy Lamarr",
)  # fmt: skip
DEMO_TEMPLATE = "Add a new patient named {name}"


def demo_goal(seed: int) -> tuple[str, str]:
    """The demo's goal for ``seed`` (one template, the patient's name varies) and that name."""
    name = DEMO_NAMES[seed % len(DEMO_NAMES)]
    return DEMO_TEMPLATE.format(name=name), name


async def demo_episode(browser: Browser, api: StepwiseClient, spec: Spec, *, max_steps: int) -> Episode:
    """The demo clinic, fresh for each episode (the same two seeded patients); success is the
    site's own record: a patient of exactly that name was added, and nothing else."""
    goal, name = demo_goal(spec.seed)
    site = DemoSite(save_delay_s=0.2, list_delay_s=0.05)
    url, stop = serve_demo_site(0, site=site)
    before = len(site.names())
    context = await new_context(browser)
    try:
        await context.add_init_script(init_script(_perturbation(spec, auto=True)))
        page = await context.new_page()
        began = time.monotonic()
        result, events = await _play(page, api, goal, f"{url}/", None, max_steps)
        elapsed = time.monotonic() - began
        layer = await info(page)
    finally:
        await context.close()
        stop()
    names = site.names()
    success = len(names) == before + 1 and names[-1] == name
    return Episode(
        suite="demo", task="demo", seed=spec.seed, phase=spec.phase, regime=spec.regime, kind=spec.kind, goal=goal,
        success=success, status=result.status, error_code=result.error_code,
        false_completion=result.status == "completed" and not success,
        answers=_answers(result.steps, events), layer=layer, elapsed_s=round(elapsed, 2), task_id=result.task_id,
    )  # fmt: skip
