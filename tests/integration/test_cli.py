"""The ``stepwise`` command line: keys are listed and revoked by id (the secret is never
shown again), a revoked key stops working at once, and ``--version`` / ``--help`` answer
without loading the web stack."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.main import create_app
from app.settings import Settings
from tests.integration.test_serving import _env


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=60)


def test_keys_are_listed_without_their_secret_and_a_revoked_key_stops_working(tmp_path: Path) -> None:
    env = _env(tmp_path / "stepwise.db")
    secret = _cli(env, "keys", "create", "--tenant", "acme", "--user", "ann", "--name", "laptop").stdout.strip()
    assert secret.startswith("sw_")
    listed = _cli(env, "keys", "list", "--tenant", "acme")
    assert listed.returncode == 0 and "laptop" in listed.stdout and secret not in listed.stdout
    key_id = listed.stdout.splitlines()[1].split()[0]

    revoked = _cli(env, "keys", "revoke", "--tenant", "acme", key_id)
    assert revoked.returncode == 0 and key_id in revoked.stdout
    assert _cli(env, "keys", "revoke", "--tenant", "acme", key_id).returncode == 0  # idempotent
    other_tenant = _cli(env, "keys", "revoke", "--tenant", "someone-else", key_id)
    assert other_tenant.returncode == 1 and "no key" in other_tenant.stderr

    from fastapi.testclient import TestClient

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'stepwise.db'}", env="test")
    with TestClient(create_app(settings)) as client:
        response = client.post(
            "/api/agent/interact",
            json={"url": "https://a.example/", "query": "click Save", "interactiveTree": []},
            headers={"Authorization": f"Bearer {secret}"},
        )
    assert response.status_code == 401


@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_version_and_help_answer_without_loading_the_web_stack(args: tuple[str, ...]) -> None:
    probe = (
        "import sys; from app.cli import main\n"
        f"try: main({list(args)!r})\n"
        "except SystemExit: pass\n"
        "heavy = [m for m in ('fastapi', 'langgraph', 'google.genai', 'langfuse', 'storage') if m in sys.modules]\n"
        "print('LOADED', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60).stdout
    assert "LOADED []" in out
    assert ("stepwise " in out) if args == ("--version",) else ("keys" in out and "serve" in out)
