"""Overlay benchmark: ``python -m bench.overlays [--seeds N] [--model none|lying|both]
[--tasks FILE] [--out DIR] [--episode-ms MS] [--max-steps N] [--quiet]``.

Plays the development MiniWoB++ tasks and a fixture site (the demo clinic: add a patient,
three phrasings, several names) through the reference client against a local Stepwise, twice: without
overlays (the baseline) and with a seeded Playwright init script (``bench/overlays.js``)
that brings up overlays at random moments — modals, plain fixed covers, ``<dialog>``s,
cookie walls and delayed interstitials, each with a control its text tells the reader to use
(the trap). With ``--model lying`` (or ``both``) the overlay run is repeated against a fake
Gemini that claims success everywhere (``bench/lying_model.py``), its calls counted at the
fake, step by step, to see whether overlays were resolved before any correction-model call.

Measured (``bench/overlays_report.py`` writes results.json and results.md to ``--out``):
success with and without overlays; overlays shown, dismissed, and by which contingency;
extra requests per overlay (same episodes, overlay run minus baseline); traps hit (a click on
a control the overlay's text names, or the Delete key while an overlay is up — from the
page, never from Stepwise's answers); correction-model calls. Seeds below ``--tune-seeds``
(and clinic episodes below ``--tune-clinic``) are the ones looked at while tuning, the rest
held out: the report gives both.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from playwright.async_api import Browser, Page

from bench.lying_model import LyingGemini
from bench.miniwob.env import read_reward, serve_html, start_episode
from bench.miniwob.run import DEFAULT_TASKS, read_tasks
from client import StepRecord, StepwiseClient, launch_browser, new_context, run_task
from client.demo_site.server import DemoSite, serve_demo_site
from client.local_server import local_server

SCRIPT: Final = Path(__file__).with_name("overlays.js")
REPO: Final = Path(__file__).resolve().parents[1]
DEFAULT_OUT: Final = REPO / "bench" / "results" / "overlays"
LAYOUTS: Final[tuple[str, ...]] = ("modal", "plain", "native", "cookie", "interstitial")
DELAYS_MS: Final[tuple[int, ...]] = (0, 0, 200, 900)  # 900 ms: often after the client's snapshot (a delayed interstitial)
CLINIC_GOALS: Final[tuple[str, ...]] = ("Add a new patient named {name}", "Add a patient called {name}", "Add a new patient called {name}")
CLINIC_NAMES: Final[tuple[str, ...]] = ("Jas", "Ana Silva", "Tom Ode", "Lia Park", "Ravi Nair", "Eva Stone", "Noor Aziz", "Ines Roy",
                                         "Kofi Mensah", "Mei Lin", "Omar Haddad", "Zoe Hart")  # fmt: skip
NO_MODEL: Final = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}


@dataclass(frozen=True)
class Spec:
    site: str  # miniwob | clinic
    task: str
    seed: int
    goal: str | None = None  # clinic: the goal (MiniWoB gives its own utterance)
    events: tuple[dict[str, Any], ...] = ()


@dataclass
class Episode:
    site: str
    task: str
    seed: int
    overlays: bool
    model: str
    goal: str = ""
    success: bool = False
    status: str = ""
    error_code: str | None = None
    requests: int = 0
    actions: list[str] = field(default_factory=list)
    contingency_steps: list[int] = field(default_factory=list)
    shown: int = 0
    dismissed: int = 0
    in_the_way: int = 0  # overlays shown before the episode's last action, or dismissed, or in a failed episode
    layouts: list[str] = field(default_factory=list)
    traps: list[dict[str, Any]] = field(default_factory=list)
    model_calls: dict[str, int] = field(default_factory=dict)
    correction_steps: list[int] = field(default_factory=list)  # steps whose request made a correction-model call
    false_completion: bool = False


def _seed(*parts: object) -> int:
    raw = json.dumps([str(p) for p in parts]).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=4).digest(), "big")


def schedule(site: str, task: str, seed: int, index: int) -> tuple[dict[str, Any], ...]:
    """One or two overlays: the first at the start or after the first action (its layout
    rotates with the episode, so every layout is seen on every task), a second (half the
    time) one or two actions later; delays from :data:`DELAYS_MS`."""
    rng = random.Random(_seed("overlays", site, task, seed))
    first = {"after": rng.choice((0, 0, 1)), "delayMs": rng.choice(DELAYS_MS), "layout": LAYOUTS[(seed + index) % len(LAYOUTS)]}
    events = [first]
    if rng.random() < 0.5:
        events.append({"after": first["after"] + rng.choice((1, 2)), "delayMs": rng.choice(DELAYS_MS), "layout": rng.choice(LAYOUTS)})
    return tuple(events)


def specs(tasks: list[str], seeds: int, clinic: int) -> list[Spec]:
    out = [Spec("miniwob", t, s, events=schedule("miniwob", t, s, i)) for i, t in enumerate(tasks) for s in range(seeds)]
    for s in range(clinic):
        goal = CLINIC_GOALS[s % len(CLINIC_GOALS)].format(name=CLINIC_NAMES[s % len(CLINIC_NAMES)])
        out.append(Spec("clinic", "add-patient", s, goal, schedule("clinic", "add-patient", s, s)))
    return out


def init_script(spec: Spec, auto: bool) -> str:
    config = {"events": list(spec.events), "auto": auto}
    return f"window.__stepwiseOverlays = {json.dumps(config)};\n" + SCRIPT.read_text()


async def _overlay_log(page: Page) -> dict[str, Any]:
    try:
        data = await page.evaluate("() => window.__overlayLog ? window.__overlayLog() : null")
    except Exception:  # noqa: BLE001 - a page that navigated while we read has no log to give
        return {}
    return data if isinstance(data, dict) else {}


class Player:
    """Plays specs against one server, with or without the overlay layer."""

    def __init__(self, browser: Browser, api: StepwiseClient, miniwob_url: str, clinic: tuple[str, DemoSite], fake: LyingGemini | None,
                 *, overlays: bool, model: str, max_steps: int, episode_ms: int, state_file: str) -> None:  # fmt: skip
        self.browser, self.api, self.miniwob_url = browser, api, miniwob_url
        self.clinic_url, self.site = clinic
        self.fake, self.overlays, self.model = fake, overlays, model
        self.max_steps, self.episode_ms, self.state_file = max_steps, episode_ms, state_file

    async def play(self, spec: Spec) -> Episode:
        context = await new_context(self.browser)
        episode = Episode(spec.site, spec.task, spec.seed, self.overlays, self.model)
        calls: list[dict[str, int]] = []
        try:
            if self.overlays:
                await context.add_init_script(init_script(spec, auto=spec.site == "clinic"))
            page = await context.new_page()
            if spec.site == "miniwob":
                goal = await start_episode(page, self.miniwob_url, spec.task, spec.seed, episode_ms=self.episode_ms)
                if self.overlays:
                    await page.evaluate("() => window.__overlayArm && window.__overlayArm()")
                url = None
            else:
                goal, url = spec.goal or "", self.clinic_url + "/"
            before = self.site.names() if spec.site == "clinic" else []
            base = self.fake.requests if self.fake else {}

            async def stop(step: StepRecord) -> str | None:
                calls.append(self.fake.requests if self.fake else {})
                if spec.site == "miniwob" and (reward := await read_reward(page)).done:
                    return f"the episode ended (raw reward {reward.raw:+.0f})"
                return None

            result = await run_task(goal, url, api=self.api, page=page, max_steps=self.max_steps, should_stop=stop,
                                    state_file=self.state_file, tab_key=f"ov-{spec.site}-{spec.task}-{spec.seed}")  # fmt: skip
            episode.goal, episode.status, episode.error_code = goal, result.status, result.error_code
            episode.requests = len(result.steps)
            episode.actions = [" → ".join(s.actions) if s.actions else s.action for s in result.steps]
            episode.contingency_steps = [s.index for s in result.steps if s.thought.startswith("Contingency (")]
            if spec.site == "miniwob":
                episode.success = (await read_reward(page)).success
            else:
                after = self.site.names()
                added = [n for n in set(after) for _ in range(after.count(n) - before.count(n))]
                episode.success = spec.goal is not None and len(added) == 1 and added[0] in spec.goal
            episode.false_completion = result.status == "completed" and not episode.success
            layer = await _overlay_log(page) if self.overlays else {}
            episode.shown, episode.dismissed = len(layer.get("shown", [])), len(layer.get("dismissed", []))
            episode.layouts = [s.get("layout", "") for s in layer.get("shown", [])]
            dismissed = {d.get("index") for d in layer.get("dismissed", [])}
            episode.in_the_way = sum(1 for s in layer.get("shown", [])
                                     if s.get("index") in dismissed or s.get("at", 0) < layer.get("actions", 0) or not episode.success)  # fmt: skip
            episode.traps = list(layer.get("traps", []))
            if self.fake:
                end = self.fake.requests
                episode.model_calls = {k: end.get(k, 0) - base.get(k, 0) for k in end if end.get(k, 0) != base.get(k, 0)}
                prev = base
                for index, now in enumerate(calls):
                    if now.get("SELF_CORRECTION", 0) > prev.get("SELF_CORRECTION", 0):
                        episode.correction_steps.append(index)
                    prev = now
        finally:
            await context.close()
        return episode


async def run_specs(all_specs: list[Spec], server: str, key: str, fake: LyingGemini | None, *, overlays: bool, model: str,
                    max_steps: int, episode_ms: int, quiet: bool) -> list[Episode]:  # fmt: skip
    miniwob_url, stop_html = serve_html()
    site = DemoSite()
    clinic_url, stop_clinic = serve_demo_site(0, site=site)
    episodes: list[Episode] = []
    try:
        with tempfile.TemporaryDirectory(prefix="overlays-state-") as state_dir:
            async with StepwiseClient(server, key) as api, launch_browser() as browser:
                player = Player(browser, api, miniwob_url, (clinic_url, site), fake, overlays=overlays, model=model,
                                max_steps=max_steps, episode_ms=episode_ms, state_file=str(Path(state_dir) / "state.json"))  # fmt: skip
                for spec in all_specs:
                    episode = await player.play(spec)
                    episodes.append(episode)
                    if not quiet:
                        flags = f" shown {episode.shown} dismissed {episode.dismissed} traps {len(episode.traps)}" if overlays else ""
                        print(f"[{'overlays' if overlays else 'baseline'}/{model}] {spec.site}:{spec.task:<22} seed {spec.seed} "
                              f"{'OK ' if episode.success else 'FAIL'} {episode.status:<9} {episode.error_code or '':<22} "
                              f"requests {episode.requests}{flags}", flush=True)  # fmt: skip
    finally:
        stop_html()
        stop_clinic()
    return episodes


def play_run(all_specs: list[Spec], *, overlays: bool, model: str, args: argparse.Namespace) -> tuple[list[Episode], dict[str, int]]:
    """One run against a fresh local server (``model``: none or lying)."""
    with contextlib.ExitStack() as stack:
        fake = stack.enter_context(LyingGemini("lying")) if model == "lying" else None
        env = {**NO_MODEL, **(fake.env() if fake else {})}
        local = stack.enter_context(local_server(env=env))
        episodes = asyncio.run(run_specs(all_specs, local.url, local.api_key, fake, overlays=overlays, model=model,
                                         max_steps=args.max_steps, episode_ms=args.episode_ms, quiet=args.quiet))  # fmt: skip
        return episodes, (fake.requests if fake else {})


def main(argv: list[str] | None = None) -> int:
    from bench.overlays_report import write

    parser = argparse.ArgumentParser(prog="bench.overlays", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--seeds", type=int, default=4, help="MiniWoB seeds per task (0 … N-1)")
    parser.add_argument("--clinic", type=int, default=6, help="fixture-site episodes (add a patient)")
    parser.add_argument("--tune-seeds", type=int, default=3, help="MiniWoB seeds below this were looked at while tuning; the rest are held out")
    parser.add_argument("--tune-clinic", type=int, default=6, help="clinic episodes below this were looked at while tuning; the rest are held out")
    parser.add_argument("--model", choices=("none", "lying", "both"), default="both")
    parser.add_argument("--episode-ms", type=int, default=30_000, help="MiniWoB episode limit (both runs; default 30 s)")
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    all_specs = specs(read_tasks(args.tasks), args.seeds, args.clinic)
    runs: dict[str, list[Episode]] = {}
    requests: dict[str, dict[str, int]] = {}
    models = ("none", "lying") if args.model == "both" else (args.model,)
    for model in models:
        for overlays in (False, True):
            name = f"{'overlays' if overlays else 'baseline'}/{model}"
            print(f"== {name} ==", file=sys.stderr, flush=True)
            runs[name], requests[name] = play_run(all_specs, overlays=overlays, model=model, args=args)
    meta = {"seeds": args.seeds, "clinic": args.clinic, "tune_seeds": args.tune_seeds, "tune_clinic": args.tune_clinic, "episode_ms": args.episode_ms,
            "max_steps": args.max_steps, "tasks_file": str(args.tasks), "model_requests": requests}  # fmt: skip
    paths = write(args.out, {k: [asdict(e) for e in v] for k, v in runs.items()}, meta)
    print(paths["markdown"].read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
