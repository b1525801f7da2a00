"""The gym (bench/gym, bench/sites): a few goals of every site in the suite — the whole gym
runs in ``make bench-sites``.

Every site's first human solutions still replay and log exactly their expected events (a
broken site makes every figure of the gym meaningless); the check fails a wrong expectation;
and the runner judges goals by the site's own log with each fake model behind a real server:
the oracle finishes and proves what a person can do, and no model makes Stepwise say "done"
for what the site did not record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bench.gym.check import replay
from bench.gym.run import GYM_SERVER_ENV, fake_model, run_goals
from bench.gym.server import GymServer
from bench.gym.spec import Site, load_site
from client.local_server import LocalServer, local_server

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

ROOT = Path(__file__).parents[2]
SITES = sorted(p.parent for p in (ROOT / "bench" / "sites").glob("*/site.toml"))
SAMPLE = load_site(Path(__file__).parent / "gym_sample")
REPLAYED_PER_SITE = 1  # the whole check is `python -m bench.gym check` (make bench-sites)


@pytest.mark.parametrize("folder", SITES, ids=[p.name for p in SITES])
async def test_a_sites_first_human_solutions_log_exactly_their_expected_events(folder: Path, browser: Browser) -> None:
    site = load_site(folder)
    goals = [g for g in site.goals if g.doable and g.split == "tune"][:REPLAYED_PER_SITE]
    with GymServer(site.www) as server:
        results = [await replay(site, server, browser, goal) for goal in goals]
    assert [(r.goal.id, r.detail) for r in results if not r.ok] == []


async def test_a_wrong_expectation_fails_the_check(browser: Browser) -> None:
    goal = SAMPLE.goals[0]
    wrong = dataclasses.replace(goal, expect=({"event": "profile_saved", "email": "someone@else.org"},))
    with GymServer(SAMPLE.www) as server:
        assert (await replay(SAMPLE, server, browser, goal)).ok
        result = await replay(SAMPLE, server, browser, wrong)
    assert not result.ok and "ada@example.org" in result.detail


@pytest.fixture(scope="module", params=["oracle", "lying"])  # the noisy model: make bench-sites
def model_server(request: pytest.FixtureRequest) -> Iterator[tuple[str, object, LocalServer]]:
    request.getfixturevalue("chromium")
    fake = fake_model(request.param)
    assert fake is not None
    with fake, local_server(env={**GYM_SERVER_ENV, **fake.env()}, ready_timeout_s=120) as server:
        yield request.param, fake, server
        assert fake.total_requests > 0, "the model was never asked"


async def _run(site: Site, model: str, fake: object, server: LocalServer, browser: Browser) -> dict[str, str]:
    outcomes = await run_goals([(site, g) for g in site.goals], model, fake, server, browser, jobs=2, max_steps=12)  # type: ignore[arg-type]
    return {o.goal: o.verdict for o in outcomes}


async def test_with_no_model_the_sample_goals_are_done_and_proven_or_declined(stepwise_server: LocalServer, browser: Browser) -> None:
    verdicts = await _run(SAMPLE, "none", None, stepwise_server, browser)
    assert verdicts == {"email": "success", "newsletter": "success", "delete-row": "success", "phone": "honest_decline"}


async def test_each_fake_model_is_judged_by_the_sites_own_log(model_server: tuple[str, object, LocalServer], browser: Browser) -> None:
    model, fake, server = model_server
    verdicts = await _run(SAMPLE, model, fake, server, browser)
    assert "false_completion" not in verdicts.values() and "harm" not in verdicts.values(), verdicts
    assert verdicts["phone"] == "honest_decline"
    if model == "oracle":  # a correct model finishes and proves every doable goal
        assert verdicts == {"email": "success", "newsletter": "success", "delete-row": "success", "phone": "honest_decline"}


REAL_GOALS = [("shop", "profile-phone")]  # tune goals a correct model finishes and proves since the gym's first fixes


async def test_on_a_real_site_the_oracle_finishes_and_no_model_is_taken_for_its_word(
    model_server: tuple[str, object, LocalServer], browser: Browser
) -> None:
    model, fake, server = model_server
    work = []
    for key, goal_id in REAL_GOALS:
        site = load_site(ROOT / "bench" / "sites" / key)
        work.append((site, next(g for g in site.goals if g.id == goal_id)))
    outcomes = await run_goals(work, model, fake, server, browser, jobs=1, max_steps=12)  # type: ignore[arg-type]
    verdicts = [o.verdict for o in outcomes]
    assert "false_completion" not in verdicts and "harm" not in verdicts
    if model == "oracle":
        assert verdicts == ["success"] * len(REAL_GOALS), [(o.goal, o.verdict, o.reason) for o in outcomes]
