"""One MiniWoB++ episode through the real client loop, scored by the environment itself.

After every answer of Stepwise the harness reads ``WOB_DONE_GLOBAL``: once the episode has
ended, the run stops. That gives the two disagreements the bench reports:

* **false completion** — Stepwise said the task was completed (``finish()``) but the
  environment's raw reward is ≤ 0 (or the episode never ended);
* **missed completion** — the episode had already succeeded (raw reward > 0) but Stepwise
  did not finish: it asked for another action, failed, or ran out of steps.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from statistics import mean
from typing import Any

from playwright.async_api import Browser

from bench.miniwob.env import Reward, episode_limit_ms, read_reward, start_episode
from client import RunResult, StabilityConfig, StepRecord, StepwiseClient, new_context, run_task


@dataclass
class EpisodeResult:
    task: str
    seed: int
    utterance: str
    done: bool
    reward: float
    raw_reward: float
    reward_reason: str | None
    success: bool
    stepwise_status: str
    error_code: str | None
    error: str | None
    steps: int
    actions: list[str]
    model_calls: int
    input_tokens: int
    output_tokens: int
    server_ms_per_step: float | None
    client_ms_per_step: float | None
    false_completion: bool
    missed_completion: bool
    episode_limit_ms: int
    elapsed_s: float
    verdicts: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def classify(result: RunResult, reward: Reward) -> tuple[bool, bool]:
    """(false completion, missed completion) of a finished run."""
    false_completion = result.status == "completed" and not reward.success
    missed_completion = reward.success and result.status != "completed"
    return false_completion, missed_completion


async def run_episode(
    browser: Browser,
    api: StepwiseClient,
    base_url: str,
    task: str,
    seed: int,
    *,
    max_steps: int = 10,
    episode_ms: int | None = None,
    stability: StabilityConfig | None = None,
    state_file: str | None = None,
) -> EpisodeResult:
    context = await new_context(browser)
    try:
        page = await context.new_page()
        utterance = await start_episode(page, base_url, task, seed, episode_ms=episode_ms)
        limit = await episode_limit_ms(page)

        async def episode_over(step: StepRecord) -> str | None:
            reward = await read_reward(page)
            return f"the episode ended (raw reward {reward.raw:+.2f})" if reward.done else None

        began = time.monotonic()
        result = await run_task(
            utterance,
            None,
            api=api,
            page=page,
            max_steps=max_steps,
            stability=stability,
            should_stop=episode_over,
            state_file=state_file,
            tab_key=f"miniwob-{task}-{seed}",
        )
        elapsed = time.monotonic() - began
        reward = await read_reward(page)
    finally:
        await context.close()
    false_completion, missed_completion = classify(result, reward)
    server = [s.server_ms for s in result.steps if s.server_ms is not None]
    client = [s.client_ms for s in result.steps if s.action_status in ("success", "failure")]
    return EpisodeResult(
        task=task,
        seed=seed,
        utterance=utterance,
        done=reward.done,
        reward=reward.reward,
        raw_reward=reward.raw,
        reward_reason=reward.reason,
        success=reward.success,
        stepwise_status=result.status,
        error_code=result.error_code,
        error=result.error,
        steps=len(result.steps),
        actions=[" → ".join(s.actions) if s.actions else s.action for s in result.steps],
        model_calls=result.model_calls,
        input_tokens=result.input_tokens,
        output_tokens=result.output_tokens,
        server_ms_per_step=round(mean(server), 2) if server else None,
        client_ms_per_step=round(mean(client), 1) if client else None,
        false_completion=false_completion,
        missed_completion=missed_completion,
        episode_limit_ms=limit,
        elapsed_s=round(elapsed, 2),
        verdicts=[
            {"step": s.index, "verdict": s.verdict, "tier": s.tier}
            for s in result.steps
            if s.verification is not None
        ],
    )
