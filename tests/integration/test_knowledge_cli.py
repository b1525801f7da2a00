"""``stepwise ingest`` and ``stepwise crawl`` on the configured database: files of several
formats in, a crawl of a local site with its progress, what they wrote is retrievable, and
bad input is refused with a message and a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from app.auth import issue_key
from app.main import create_app
from app.settings import Settings
from tests.integration.test_serving import _env
from tests.support.sites import Page, Site, html


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=120)


def _resolve(db: Path, tenant: str, query: str, url: str | None = None) -> dict[str, object]:
    settings = Settings(database_url=f"sqlite:///{db}", env="test")
    with TestClient(create_app(settings)) as client:
        key = client.portal.call(issue_key, client.app.state.store, tenant, "reader").secret  # type: ignore[attr-defined]
        params = {"query": query, **({"url": url} if url else {})}
        response = client.get("/api/knowledge/resolve", params=params, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200, response.text
    return response.json()


def test_ingest_reads_a_folder_of_documents_and_says_what_it_did(tmp_path: Path) -> None:
    db = tmp_path / "stepwise.db"
    env = _env(db)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "returns.md").write_text("# Returns\n\nItems can be returned within 45 days with the receipt.\n")
    (docs / "plans.csv").write_text("plan,price\nBasic,$5\nPro,$25\n")
    (docs / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    first = _cli(env, "ingest", "--tenant", "acme", str(docs))
    assert first.returncode == 1  # the PNG was skipped, and the exit says so
    assert "created" in first.stdout and "returns.md" in first.stdout and "logo.png" in first.stderr
    again = _cli(env, "ingest", "--tenant", "acme", str(docs / "returns.md"))
    assert again.returncode == 0 and again.stdout.startswith("unchanged")
    found = _resolve(db, "acme", "how many days to return an item")
    assert any("45 days" in c["text"] for c in found["chunks"])  # type: ignore[index, union-attr]
    assert _resolve(db, "other", "how many days to return an item")["chunks"] == []


def test_crawl_shows_progress_and_obeys_the_private_host_setting(tmp_path: Path) -> None:
    db = tmp_path / "stepwise.db"
    env = {**_env(db), "STEPWISE_KNOWLEDGE_CRAWL_MIN_DELAY_S": "0"}
    pages = {
        "/robots.txt": Page("User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"}),
        "/": html('<h1>Guide</h1><p>Read the <a href="/limits">limits</a>.</p>', "Guide"),
        "/limits": html("<h1>Limits</h1><p>Uploads are limited to 250 megabytes per file.</p>", "Limits"),
    }
    with Site(pages) as site:
        refused = _cli(env, "crawl", site.base_url + "/", "--tenant", "acme", "--strategy", "spider")
        assert refused.returncode == 1 and "failed" in refused.stdout
        assert site.hits == []
        allowed_env = {**env, "STEPWISE_KNOWLEDGE_ALLOW_PRIVATE_HOSTS": "127.0.0.1"}
        done = _cli(allowed_env, "crawl", site.base_url + "/", "--tenant", "acme", "--strategy", "spider", "--max-pages", "5")
    assert done.returncode == 0, done.stderr
    assert "done: 2 pages" in done.stdout
    found = _resolve(db, "acme", "how large can an upload be", "http://127.0.0.1/")
    assert any("250 megabytes" in c["text"] for c in found["chunks"])  # type: ignore[index, union-attr]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    env = _env(tmp_path / "stepwise.db")
    assert _cli(env, "crawl", "ftp://example.com/", "--tenant", "acme").returncode == 2
    missing = _cli(env, "ingest", "--tenant", "acme", str(tmp_path / "nope.pdf"))
    assert missing.returncode == 1 and "no such file" in missing.stderr
