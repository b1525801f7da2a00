"""A dialog the task's own click opens is the task's, on a real page through the real server
with a correct (fake) model: "Publish" opens its "Publish now?", "Delete draft" its type-the-
name confirmation, and no contingency closes either — the site logs the published and the
deleted draft, and Stepwise proves each from the page (completed). A newsletter a timer brings up right after an unrelated click ("Edit") is
still closed by the contingency, and nothing is subscribed (tests/e2e/gym_dialogs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bench.gym.run import GYM_SERVER_ENV, Outcome, fake_model, run_goals
from bench.gym.spec import load_site
from client.local_server import LocalServer, local_server

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

SITE = load_site(Path(__file__).parent / "gym_dialogs")
DONE = ("success",)  # the site logged exactly the goal's events and Stepwise proved it


@pytest.fixture(scope="module")
def oracle_server(chromium: None) -> Iterator[tuple[object, LocalServer]]:
    fake = fake_model("oracle")
    assert fake is not None
    with fake, local_server(env={**GYM_SERVER_ENV, **fake.env()}, ready_timeout_s=120) as server:
        yield fake, server


async def _outcomes(oracle_server: tuple[object, LocalServer], browser: Browser) -> dict[str, Outcome]:
    fake, server = oracle_server
    outcomes = await run_goals([(SITE, g) for g in SITE.goals], "oracle", fake, server, browser, jobs=3, max_steps=10)  # type: ignore[arg-type]
    return {o.goal: o for o in outcomes}


def _dismissals(outcome: Outcome) -> list[str]:
    return [a["action"] for a in outcome.actions if str(a.get("thought", "")).startswith("Contingency (")]


async def test_the_dialog_the_tasks_click_opened_is_kept_and_a_timed_newsletter_is_closed(
    oracle_server: tuple[object, LocalServer], browser: Browser
) -> None:
    by_goal = await _outcomes(oracle_server, browser)
    story = {g: (o.verdict, o.reason, [a["action"] for a in o.actions]) for g, o in by_goal.items()}
    for goal in ("publish", "delete"):
        assert _dismissals(by_goal[goal]) == [], story[goal]
        assert by_goal[goal].verdict in DONE, story[goal]
    rename = by_goal["rename"]
    assert len(_dismissals(rename)) == 1 and rename.verdict in DONE, story["rename"]
    assert not any(e.get("event") == "newsletter_subscribed" for e in rename.logged)
