"""Secrets stay secret through the whole loop: ``stepwise run`` drives a real Chromium
through a real Stepwise server on a login page; the browser types the real password (the
page only lets the right one in), and the password is in none of the CLI's output, the
server's log, its database file or the task record."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx
import pytest

from client.local_server import LocalServer, local_server

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

SECRET = "Quokka-hunter7"


async def _cli_run(goal: str, url: str, server: LocalServer) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "run", goal, "--url", url, "--server", server.url, "--api-key", server.api_key, "--max-steps", "8",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(process.communicate(), timeout=120)
    return process.returncode or 0, out.decode()


def _stored_bytes(server: LocalServer) -> bytes:
    path = Path(server.database_url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if not p.name.endswith(".secret-key"))


async def _task_records(server: LocalServer) -> str:
    headers = {"Authorization": f"Bearer {server.api_key}"}
    async with httpx.AsyncClient(base_url=server.url, headers=headers) as client:
        listing = (await client.get("/api/tasks")).json()
        details = [(await client.get(f"/api/tasks/{t['taskId']}")).text for t in listing["tasks"]]
    return str(listing) + "".join(details)


@pytest.mark.parametrize(
    "goal",
    [f'Log in as alice with password "{SECRET}"', f"Sign in with username alice and password {SECRET}"],
)
async def test_stepwise_run_logs_in_and_never_shows_the_password(chromium: None, pages_url: str, goal: str) -> None:
    with local_server() as server:
        code, out = await _cli_run(goal, f"{pages_url}/pages/login.html", server)
        assert code == 0 and "Completed" in out, out  # the page let alice in: the real value was typed
        assert SECRET not in out and "[secret:1]" in out, out
        records = await _task_records(server)
        assert SECRET not in records and "[secret:1]" in records
        assert SECRET.encode() not in _stored_bytes(server)
        assert SECRET not in server.log_path.read_text(errors="replace")


async def test_a_login_page_without_a_password_field_is_never_completed(chromium: None, pages_url: str) -> None:
    """The decoy: the password has nowhere to go (only the site search box): not completed,
    never typed anywhere, never shown."""
    with local_server() as server:
        code, out = await _cli_run(f'Log in as alice with password "{SECRET}"', f"{pages_url}/pages/login.html?nopw", server)
        assert "Completed" not in out
        assert SECRET not in out
        assert SECRET not in server.log_path.read_text(errors="replace")
        assert SECRET.encode() not in _stored_bytes(server)
