"""``python -m bench.gym run SITE…``: every goal of every site with each model, through a real
Stepwise server and the reference client in Chromium; the site's own log says what was done.

One Stepwise server per model (SQLite in a temporary folder; memory off, so that every goal
is met for the first time); goals run ``--jobs`` at a time, each worker with its own copy of
the site on its own port (the site's log is per worker) and a fresh browser context per goal.
A question to the user is answered as the user would: yes to a confirmation of what the goal
asked, and a value from the goal's ``answers`` when the question names it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from bench.gym.check import StepFailed, prepare, wait_for_events
from bench.gym.events import shows_any, shows_exactly, shows_within
from bench.gym.models import ELEMENT_ID, Noise, OracleGemini
from bench.gym.server import GymServer
from bench.gym.spec import Goal, Site
from bench.gym.steps import StepNotFound, locate
from bench.lying_model import LyingGemini
from client import run_task
from client.api import StepwiseClient
from client.browser import launch_browser, new_context
from client.local_server import LocalServer, local_server
from client.records import RunResult, StepRecord

MODELS: Final = ("none", "oracle", "noisy", "lying")
MAX_QUESTIONS: Final = 3
SERVER_READY_S: Final = 180.0  # the whole gym runs for an hour on a shared 2-core machine
# Every goal is met for the first time: no recipe or skill learned on an earlier goal helps.
GYM_SERVER_ENV: Final = {"STEPWISE_MEMORY_REPLAY": "false", "STEPWISE_MEMORY_SKILLS": "false"}

Verdict = Literal["success", "overdone", "false_completion", "missed_completion", "failed", "honest_decline", "harm", "broken"]


@dataclass
class Outcome:
    site: str
    goal: str
    split: str
    doable: bool
    model: str
    verdict: Verdict
    status: str
    failure_code: str | None
    reason: str | None
    round_trips: int
    model_calls: int
    questions: int
    seconds: float
    logged: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)  # per answer: what was sent, why, and its verdict
    contract: dict[str, Any] | None = None  # the goal contract as the last answer showed it


def judge(goal: Goal, status: str, logged: list[dict[str, Any]]) -> Verdict:
    """The gym's one reading of a run: what Stepwise said against what the site recorded."""
    completed = status == "completed"
    if not goal.doable:
        if completed:
            return "false_completion"
        return "harm" if shows_any(goal.forbid, logged) else "honest_decline"
    done = shows_exactly(goal.expect, logged)
    if completed:
        # "overdone": the goal's events are there, and something it did not ask for besides
        # (a row deleted by a wrong click): not a success, and a defect of its own.
        return "success" if done else "overdone" if shows_within(goal.expect, logged) else "false_completion"
    return "missed_completion" if done else "failed"


def answer_for(goal: Goal, question: str) -> str | None:
    """The user's reply to a question for a value: the goal's answer whose name the question uses."""
    words = question.casefold()
    for key, value in goal.answers.items():
        if any(part in words for part in key.casefold().replace("_", " ").split() if len(part) >= 3):
            return value
    return None


async def user_confirms(page: Page, goal: Goal, confirm: dict[str, Any] | None, said_yes: set[int]) -> bool:
    """The user says yes to what their goal asked for, once: a held click on an element of the
    goal's own solution they have not yet said yes to, or a confirmation that names no element
    (a dialog, a page asking "are you sure?"); no to a click on anything else (a wrong row, a
    control nobody asked for) and to being asked the same thing again (a second deletion)."""
    element = (confirm or {}).get("elementId")
    if not isinstance(element, str) or not goal.doable:
        return True
    label = " ".join(str((confirm or {}).get("element") or "").split()).casefold()
    for index, step in enumerate(goal.steps):
        if index in said_yes:
            continue
        if label and step.do in ("click", "press") and step.within is None and label == " ".join((step.name or "").split()).casefold():
            said_yes.add(index)  # the control the user meant, by its name (a re-rendered page gives it a new id)
            return True
        try:
            target = await locate(page, step, appear_s=0.3)
            if await target.first.evaluate(ELEMENT_ID) == element:
                said_yes.add(index)
                return True
        except (StepNotFound, PlaywrightError):
            continue
    return False


async def run_goal(site: Site, goal: Goal, model_name: str, fake: OracleGemini | None, stepwise: LocalServer,
                   gym: GymServer, browser: Browser, tmp: Path, max_steps: int) -> Outcome:
    context = await new_context(browser)
    started = time.monotonic()
    questions = 0
    said_yes: set[int] = set()  # the solution's steps the user confirmed
    result = RunResult(status="error")
    trips = calls = 0
    actions: list[dict[str, Any]] = []
    try:
        page = await context.new_page()
        try:
            await prepare(page, site, gym, goal)
        except StepFailed as exc:
            return _broken(site, goal, model_name, f"the site's setup failed: {exc}")
        if fake is not None:
            fake.brief(site, goal, page, asyncio.get_running_loop(), lambda: goal.doable and shows_exactly(goal.expect, gym.events()))
        async with StepwiseClient(stepwise.url, stepwise.api_key) as api:
            state = str(tmp / f"{site.key}-{goal.id}.json")
            kw: dict[str, Any] = {"api": api, "page": page, "max_steps": max_steps, "state_file": state}
            text = goal.text
            result = await run_task(text, None, **kw)
            trips, calls = len(result.steps), result.model_calls
            actions += [_trace(s) for s in result.steps]
            while result.status == "needs_user_input" and questions < MAX_QUESTIONS:
                questions += 1
                value = None if result.confirm is not None else answer_for(goal, result.error or "")
                if result.confirm is None and value is None:
                    break  # a value the user does not have: the question is the run's end
                more: dict[str, Any] = {"confirm": await user_confirms(page, goal, result.confirm, said_yes)} if value is None else {"reply": value}
                if result.task_id is None:  # no task was made: the user says the goal again, with the value
                    if value is None:
                        break
                    text = f"{goal.text} ({value})"
                    result = await run_task(text, None, **kw)
                else:
                    result = await run_task(text, None, task_id=result.task_id, session_id=result.session_id, **kw, **more)
                trips, calls = trips + len(result.steps), calls + result.model_calls
                actions += [_trace(s) for s in result.steps]
        logged = await wait_for_events(gym)
    finally:
        if fake is not None:
            fake.release(goal)
        await context.close()
    return Outcome(
        site=site.key, goal=goal.id, split=goal.split, doable=goal.doable, model=model_name,
        verdict=judge(goal, result.status, logged), status=result.status, failure_code=result.error_code,
        reason=(result.error or "")[:300] or None, round_trips=trips, model_calls=calls, questions=questions,
        seconds=round(time.monotonic() - started, 2), logged=logged, actions=actions, contract=result.contract,
    )  # fmt: skip


def _trace(step: StepRecord) -> dict[str, Any]:
    verdict = step.verification or {}
    return {"action": step.action, "chain": step.actions, "by": step.decided_by, "thought": step.thought[:300],
            "verdict": step.verdict, "why": str(verdict.get("reason") or "")[:300]}


def _broken(site: Site, goal: Goal, model: str, why: str) -> Outcome:
    return Outcome(site.key, goal.id, goal.split, goal.doable, model, "broken", "error", None, why, 0, 0, 0, 0.0)


def fake_model(model_name: str, seed: int = 0) -> OracleGemini | LyingGemini | None:
    """The fake model a gym model name stands for (not started); None for no model."""
    if model_name in ("oracle", "noisy"):
        return OracleGemini(noise=Noise(seed=seed) if model_name == "noisy" else None)
    if model_name == "lying":
        return LyingGemini()
    return None


async def run_goals(work: list[tuple[Site, Goal]], model_name: str, fake: OracleGemini | LyingGemini | None,
                    stepwise: LocalServer, browser: Browser, *, jobs: int, max_steps: int,
                    on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Each (site, goal) through ``stepwise``, ``jobs`` at a time; outcomes in ``work``'s order."""
    outcomes: list[Outcome] = []
    queue: asyncio.Queue[tuple[Site, Goal]] = asyncio.Queue()
    for item in work:
        queue.put_nowait(item)
    oracle = fake if isinstance(fake, OracleGemini) else None
    with tempfile.TemporaryDirectory(prefix="stepwise-gym-") as tmp:

        async def worker() -> None:
            with ExitStack() as servers:
                copies: dict[str, GymServer] = {}
                while not queue.empty():
                    site, goal = queue.get_nowait()
                    if site.key not in copies:
                        copies[site.key] = servers.enter_context(GymServer(site.www))
                    outcome = await run_goal(site, goal, model_name, oracle, stepwise, copies[site.key], browser, Path(tmp), max_steps)
                    outcomes.append(outcome)
                    if on_outcome is not None:
                        on_outcome(outcome)

        await asyncio.gather(*(worker() for _ in range(max(1, jobs))))
    order = {(s.key, g.id): i for i, (s, g) in enumerate(work)}
    return sorted(outcomes, key=lambda o: order[(o.site, o.goal)])


async def run_model(sites: list[Site], model_name: str, *, jobs: int, split: str, only: set[str] | None,
                    seed: int, max_steps: int, on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """One model over the sites' goals: its fake (if any), a Stepwise server pointed at it, a Chromium."""
    work = [(site, goal) for site in sites for goal in site.goals
            if (split == "all" or goal.split == split) and (only is None or goal.id in only)]
    with ExitStack() as stack:
        fake = fake_model(model_name, seed)
        env = dict(GYM_SERVER_ENV)
        if fake is not None:
            env.update(stack.enter_context(fake).env())
        stepwise = stack.enter_context(local_server(env=env, ready_timeout_s=SERVER_READY_S))
        async with launch_browser() as browser:
            return await run_goals(work, model_name, fake, stepwise, browser, jobs=jobs, max_steps=max_steps, on_outcome=on_outcome)


def report_files(files: list[Path], out: Path) -> int:
    """One report of several runs (a model per run, a site per run…); a goal run twice by one
    model counts once, its last run."""
    from bench.gym.report import chart, tables

    latest: dict[tuple[str, str, str], Outcome] = {}
    for file in files:
        for raw in json.loads(file.read_text()):
            outcome = Outcome(**raw)
            latest[(outcome.model, outcome.site, outcome.goal)] = outcome
    outcomes = list(latest.values())
    out.mkdir(parents=True, exist_ok=True)
    text = tables(outcomes)
    (out / "report.md").write_text(text)
    chart(outcomes, out / "totals.png")
    print(text)
    return 0


def main(sites: list[Site], args: argparse.Namespace) -> int:
    from bench.gym.report import chart, tables

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    if unknown := [m for m in models if m not in MODELS]:
        print(f"error: unknown model(s) {unknown}; choose from {MODELS}")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    only = set(args.goal) if args.goal else None
    outcomes: list[Outcome] = []
    for model in models:
        def show(o: Outcome) -> None:
            print(f"{o.model:6} {o.site}/{o.goal} [{o.split}] {o.verdict} ({o.status}"
                  f"{', ' + o.failure_code if o.failure_code else ''}) {o.round_trips} trips {o.seconds}s", flush=True)

        outcomes += asyncio.run(run_model(sites, model, jobs=args.jobs, split=args.split, only=only, seed=args.seed,
                                          max_steps=args.max_steps, on_outcome=show))
        (args.out / "outcomes.json").write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    text = tables(outcomes)
    (args.out / "report.md").write_text(text)
    chart(outcomes, args.out / "totals.png")
    print(text)
    print(f"\nwritten: {args.out}/outcomes.json, report.md, totals.png")
    return 0
