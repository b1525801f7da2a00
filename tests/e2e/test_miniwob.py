"""The MiniWoB++ harness reads the environment's own reward correctly: deliberate right and
wrong actions, and three tasks (click-button, click-link, enter-text) played through the real
loop against the real server. Stepwise's success rate is not asserted here."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.async_api import Browser, Page

from bench.miniwob.env import read_reward, serve_html, start_episode
from bench.miniwob.harness import run_episode
from client import PageProbe, StepwiseClient, execute_action
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


@pytest.fixture(scope="module")
def miniwob_url() -> Iterator[str]:
    pytest.importorskip("miniwob", reason="the miniwob package is not installed")
    url, stop = serve_html()
    yield url
    stop()


async def tree_of(page: Page) -> list[dict[str, object]]:
    probe = PageProbe(page)
    await probe.install()
    return (await probe.capture()).tree


async def test_click_button_rewards(page: Page, miniwob_url: str) -> None:
    utterance = await start_episode(page, miniwob_url, "click-button", 0)
    wanted = re.fullmatch(r'Click on the "(.+)" button\.', utterance)
    assert wanted, utterance
    tree = await tree_of(page)
    buttons = [n for n in tree if n["r"] == "btn"]
    wrong = next((n for n in buttons if n["n"] != wanted.group(1)), None)
    right = next(n for n in buttons if n["n"] == wanted.group(1))
    probe = PageProbe(page)

    assert not (await read_reward(page)).done
    if wrong is not None:
        await execute_action(probe, f'click("{wrong["i"]}")')
        reward = await read_reward(page)
        assert reward.done and reward.raw <= 0 and reward.reward <= 0 and not reward.success

    utterance = await start_episode(page, miniwob_url, "click-button", 0)  # same seed, same problem
    tree = await tree_of(page)
    right = next(n for n in tree if n["r"] == "btn" and n["n"] == wanted.group(1))
    await execute_action(PageProbe(page), f'click("{right["i"]}")')
    reward = await read_reward(page)
    assert reward.done and reward.raw == 1.0 and 0 < reward.reward <= 1.0 and reward.success


async def test_enter_text_rewards(page: Page, miniwob_url: str) -> None:
    for typed_right in (False, True):
        utterance = await start_episode(page, miniwob_url, "enter-text", 1)
        wanted = re.fullmatch(r'Enter "(.+)" into the text field and press Submit\.', utterance)
        assert wanted, utterance
        tree = await tree_of(page)
        field = next(n for n in tree if n["r"] == "inp")
        submit = next(n for n in tree if n["r"] == "btn")
        probe = PageProbe(page)
        text = wanted.group(1) if typed_right else wanted.group(1) + "zz"
        await execute_action(probe, f'setValue("{field["i"]}", "{text}")')
        await execute_action(probe, f'click("{submit["i"]}")')
        reward = await read_reward(page)
        assert reward.done
        assert reward.success is typed_right and (reward.raw > 0) is typed_right


@pytest.mark.parametrize(
    ("task", "pattern"),
    [
        ("click-button", r'Click on the "(.+)" button\.'),
        ("click-link", r'Click on the link "(.+)"\.'),
        ("enter-text", r'Enter "(.+)" into the text field and press Submit\.'),
    ],
)
async def test_tasks_through_the_loop(browser: Browser, miniwob_url: str, stepwise_server: LocalServer, task: str, pattern: str) -> None:
    async with StepwiseClient(stepwise_server.url, stepwise_server.api_key) as api:
        episode = await run_episode(browser, api, miniwob_url, task, 0, max_steps=6)
    assert re.fullmatch(pattern, episode.utterance), episode.utterance
    assert episode.episode_limit_ms == 10_000
    assert episode.steps >= 1 or episode.error_code is not None
    # The harness's verdict is the environment's: success exactly when raw reward > 0.
    assert episode.success == (episode.done and episode.raw_reward > 0)
    if episode.done:
        assert episode.raw_reward in (-1.0, 1.0) or -1.0 <= episode.raw_reward <= 1.0
        assert (episode.reward > 0) == (episode.raw_reward > 0)
        assert abs(episode.reward) <= abs(episode.raw_reward) + 1e-9  # time discount only shrinks it
    else:
        assert episode.reward == 0 and episode.raw_reward == 0 and not episode.success
    assert episode.false_completion == (episode.stepwise_status == "completed" and not episode.success)
    assert episode.missed_completion == (episode.success and episode.stepwise_status != "completed")
