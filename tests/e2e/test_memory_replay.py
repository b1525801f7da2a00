"""Replay of a verified flow, end to end: the demo clinic in Debian's Chromium, the real client
loop and real servers sharing one database.

Two verified runs of "Add a new patient named …" (no model) promote a recipe. A later task of
the same template with another name, on a server whose model lies about everything (it
claims success and proposes ``finish()``), is served from memory: every answer that acts is a
``HIT``, no model is called, and the clinic's own records show the patient added — with the
page perturbed (wrapper divs, renamed ids and classes) and with an overlay that appears
mid-flow (the fallback comes at that step only, and the flow ends proven).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bench.lying_model import LyingGemini
from bench.memory_episodes import Episode, Spec, demo_episode
from bench.memory_perturb import perturb_seed
from client import StepwiseClient
from client.local_server import LocalServer, local_server, sqlite_url

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

_NO_MODEL = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}
_REPLAY = {"STEPWISE_MEMORY_REPLAY": "true"}
MAX_STEPS = 15


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replay") / "stepwise.db"


@pytest.fixture(scope="module")
def lying_server(database: Path, chromium: None) -> Iterator[LocalServer]:
    """The server of the later tasks: the learning runs' database, a model that lies."""
    with LyingGemini("lying") as fake, local_server(database_url=sqlite_url(database), env={**fake.env(), **_REPLAY}) as server:
        yield server


def _recipes(server: LocalServer) -> list[dict[str, object]]:
    answer = httpx.get(f"{server.url}/api/recipes", headers={"Authorization": f"Bearer {server.api_key}"}, timeout=10)
    answer.raise_for_status()
    recipes = answer.json()["recipes"]
    assert isinstance(recipes, list)
    return recipes


async def _episode(browser: Browser, server: LocalServer, spec: Spec) -> Episode:
    async with StepwiseClient(server.url, server.api_key) as api:
        return await demo_episode(browser, api, spec, max_steps=MAX_STEPS)


def _served_from_memory(episode: Episode) -> None:
    acting = [a for a in episode.answers if a.acts]
    assert acting, episode.answers
    assert [a.replay for a in acting] == ["HIT"] * len(acting), [(a.replay, a.miss_reason, a.actions) for a in episode.answers]
    assert sum(a.model_calls for a in acting) == 0


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def learned(browser: Browser, database: Path) -> list[dict[str, object]]:
    """Two verified runs with two names, on a server with no model: the recipe is promoted."""
    with local_server(database_url=sqlite_url(database), env={**_NO_MODEL, **_REPLAY}) as server:
        for seed in (0, 1):
            episode = await _episode(browser, server, Spec("demo", "demo", seed, "learn", "learn"))
            assert episode.success and episode.status == "completed", episode
        return _recipes(server)


async def test_two_verified_runs_promote_one_recipe_with_the_name_as_a_variable(learned: list[dict[str, object]]) -> None:
    promoted = [r for r in learned if r["status"] == "promoted"]
    assert len(promoted) >= 1, learned
    assert all("Jas" not in str(r) and "Ada Lovelace" not in str(r) for r in learned)  # the names are variables, never stored


async def test_a_later_task_is_replayed_with_no_model_call_and_proven_on_the_page(
    learned: list[dict[str, object]], browser: Browser, lying_server: LocalServer
) -> None:
    episode = await _episode(browser, lying_server, Spec("demo", "demo", 2, "later", "new"))
    assert episode.success and episode.status == "completed" and not episode.false_completion, episode
    _served_from_memory(episode)
    assert episode.model_calls == 0


@pytest.mark.parametrize("kind", ["wrap", "rename", "shuffle"])
async def test_replay_finds_its_targets_again_on_a_page_whose_markup_changed(
    learned: list[dict[str, object]], browser: Browser, lying_server: LocalServer, kind: str
) -> None:
    spec = Spec("demo", "demo", 3, "perturb", "new", kind, perturb_seed(7, "demo", kind, 3))
    episode = await _episode(browser, lying_server, spec)
    changed = {"wrap": episode.layer.get("wrapped"), "shuffle": episode.layer.get("shuffled")}.get(kind) or (
        episode.layer.get("renamedIds") or episode.layer.get("renamedClasses")
    )
    assert changed, episode.layer  # the layer did change the page the replay ran on
    assert episode.success and not episode.false_completion, episode
    _served_from_memory(episode)


async def test_an_overlay_mid_flow_falls_back_at_that_step_only_and_never_completes_unproven(
    learned: list[dict[str, object]], browser: Browser, lying_server: LocalServer
) -> None:
    spec = Spec("demo", "demo", 4, "perturb", "new", "overlay", perturb_seed(7, "demo", "overlay", 4))
    episode = await _episode(browser, lying_server, spec)
    assert not episode.false_completion, episode
    kinds = [a.replay for a in episode.answers if a.acts]
    assert "HIT" in kinds, episode.answers
    if "FALLBACK" in kinds or "MISS" in kinds:
        # the fallback is the overlay's step: replay resumes once the page matches again
        first = next(i for i, k in enumerate(kinds) if k != "HIT")
        assert "HIT" in kinds[first:] or episode.status != "completed", [(a.replay, a.miss_reason, a.actions) for a in episode.answers]
    assert episode.success == (episode.status == "completed"), episode
