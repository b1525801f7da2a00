"""Bad settings and goals the page cannot satisfy end honestly in the panel: a wrong API key
is an error that says 401 in words, a server that is down is an error (not a hang), and a
task the server cannot prove never shows ``completed``."""

from __future__ import annotations

import re

import pytest

from client.local_server import LocalServer, free_port
from tests.e2e.extension.fixtures import Sites
from tests.e2e.extension.harness import LoadedExtension, server_tasks, start

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def test_a_wrong_api_key_is_a_readable_401(ext_unconfigured: LoadedExtension, extension_server: LocalServer, ext_sites: Sites) -> None:
    await ext_unconfigured.configure(extension_server.url, "sk-this-is-not-a-key")
    run = await start(ext_unconfigured, ext_sites.url + "/prefs.html", "Turn on the weekly summary email, then save")
    assert await run.finish(timeout_s=30) == "error"
    text = await run.status_text()
    assert "401" in text or re.search(r"api key|unauthori[sz]ed|not authenticated", text, re.I), text
    assert ext_sites.state.events == []


async def test_a_server_that_is_down_is_an_error_not_a_hang(ext_unconfigured: LoadedExtension, ext_sites: Sites) -> None:
    down = f"http://127.0.0.1:{free_port()}"
    await ext_unconfigured.configure(down, "sk-anything")
    run = await start(ext_unconfigured, ext_sites.url + "/prefs.html", "Turn on the weekly summary email, then save")
    assert await run.finish(timeout_s=45) == "error"
    text = await run.status_text()
    assert len(text) > 10 and re.search(r"server|reach|connect|fetch|network", text, re.I), text
    assert down in text, text  # the address it tried, to check against the options page
    assert ext_sites.state.events == []


@pytest.mark.parametrize(
    ("path", "goal"),
    [
        ("/prefs.html", 'Select "Klingon" from Language and click Save preferences'),  # no such option
        ("/people.html", "Edit Zoe Park and set her team to Sales"),  # no such person
    ],
)
async def test_a_goal_the_page_cannot_satisfy_never_completes(
    ext: LoadedExtension, extension_server: LocalServer, ext_sites: Sites, path: str, goal: str
) -> None:
    run = await start(ext, ext_sites.url + path, goal)
    final = await run.finish(timeout_s=90)
    assert final != "completed", await run.status_text()
    assert final in ("failed", "needs_confirmation", "needs_user_input", "max_steps"), (final, await run.status_text())
    assert ext_sites.state.saves("person_saved") == []
    assert all(save["language"] != "Klingon" for save in ext_sites.state.saves("prefs_saved"))
    task_id = await run.task_id()
    if task_id is not None:
        statuses = {t["taskId"]: t["status"] for t in server_tasks(extension_server.url, extension_server.api_key)}
        assert statuses.get(task_id) != "completed"
