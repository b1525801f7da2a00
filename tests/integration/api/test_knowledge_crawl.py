"""Crawl jobs over HTTP against small sites on 127.0.0.1: a job runs in the background,
reports progress, ends done / failed / cancelled, and what it ingested is retrievable."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.sites import Page, Site, html

DOCS = {
    "/robots.txt": Page("User-agent: *\nDisallow: /private/\n", headers={"Content-Type": "text/plain"}),
    "/": html('<h1>Docs</h1><p>Start here.</p><a href="/setup">Setup</a> <a href="/private/keys">Keys</a>', "Docs"),
    "/setup": html("<h1>Setup</h1><p>Install the Acme agent with the command acme-install --region eu.</p>", "Setup"),
    "/private/keys": html("<h1>Keys</h1><p>The master key is hunter2.</p>", "Keys"),
}


async def crawl_api(make_api: ApiFactory, **overrides: Any) -> Api:
    settings: dict[str, Any] = {"knowledge_crawl_min_delay_s": 0.0, "rate_limit_per_minute": 1000, "api_rate_limit_per_minute": 10_000}
    return await make_api(**(settings | overrides))


async def wait_for(api: Api, job_id: str, *, until: tuple[str, ...] = ("done", "failed", "cancelled")) -> dict[str, Any]:
    for _ in range(400):
        job = (await api.client.get(f"/api/knowledge/jobs/{job_id}", headers=api.headers())).json()
        if job["status"] in until:
            return job
        await asyncio.sleep(0.025)
    raise AssertionError(f"job {job_id} still {job['status']}")


async def test_a_spider_crawl_ingests_the_site_obeying_robots(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api, knowledge_allow_private_hosts=["127.0.0.1"])
    with Site(DOCS) as site:
        started = await api.client.post(
            "/api/knowledge/index-link", json={"url": site.base_url + "/", "strategy": "spider", "maxPages": 10}, headers=api.headers()
        )
        assert started.status_code == 202, started.text
        assert started.json()["status"] in ("queued", "running")
        job = await wait_for(api, started.json()["jobId"])
        requested = [hit.path for hit in site.hits]
    assert job["status"] == "done", job
    assert job["pagesDone"] == 2 and job["documents"] == 2 and job["pagesTotal"] == 2
    assert "/private/keys" not in requested  # robots.txt said no
    found = (await api.client.get("/api/knowledge/resolve", params={"query": "how do I install the agent", "url": "http://127.0.0.1/"}, headers=api.headers())).json()
    assert found["hasOrgKnowledge"] and "acme-install --region eu" in found["chunks"][0]["text"]


async def test_a_private_address_is_refused_unless_allowed(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api)  # no private host allowed: 127.0.0.1 is not public
    with Site(DOCS) as site:
        started = await api.client.post("/api/knowledge/index-link", json={"url": site.base_url + "/"}, headers=api.headers())
        job = await wait_for(api, started.json()["jobId"])
        assert site.hits == []  # not even robots.txt was fetched
    assert job["status"] == "failed" and job["pagesDone"] == 0
    assert "not allowed" in (job["error"] or "").lower()
    assert "127.0.0.1" not in (job["error"] or "")  # opaque: no address in the answer


async def test_a_crawl_is_cancelled_and_keeps_what_it_ingested(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api, knowledge_allow_private_hosts=["127.0.0.1"])
    index = html("".join(f"<a href='/p{i}'>page {i}</a>" for i in range(1, 40)))
    pages = {f"/p{i}": html(f"<h1>Page {i}</h1><p>Topic number {i} explained.</p>") for i in range(1, 40)}
    with Site({"/robots.txt": Page("", status=404), "/p0": index, **pages}, delay_s=0.2) as site:
        started = await api.client.post(
            "/api/knowledge/index-link", json={"url": site.base_url + "/p0", "strategy": "spider", "maxPages": 40, "maxDepth": 1}, headers=api.headers()
        )
        job_id = started.json()["jobId"]
        await wait_for(api, job_id, until=("running",))
        await asyncio.sleep(0.3)
        cancel = await api.client.post(f"/api/knowledge/jobs/{job_id}/cancel", headers=api.headers())
        assert cancel.status_code == 200
        job = await wait_for(api, job_id)
    assert job["status"] == "cancelled" and 0 < job["pagesDone"] < 40
    again = await api.client.post(f"/api/knowledge/jobs/{job_id}/cancel", headers=api.headers())
    assert again.status_code == 409 and again.json()["error"]["code"] == "JOB_FINISHED"
    other = await api.client.get(f"/api/knowledge/jobs/{job_id}", headers=api.headers(api.key_b))
    assert other.status_code == 404


async def test_a_re_crawl_of_an_unchanged_site_writes_nothing(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api, knowledge_allow_private_hosts=["127.0.0.1"])
    etagged = {path: Page(p.body, headers={**p.headers, "ETag": f'"{path}-v1"'}) for path, p in DOCS.items() if path != "/private/keys"}
    with Site(etagged) as site:
        body = {"url": site.base_url + "/", "strategy": "spider", "maxPages": 10}
        first = await wait_for(api, (await api.client.post("/api/knowledge/index-link", json=body, headers=api.headers())).json()["jobId"])
        second = await wait_for(api, (await api.client.post("/api/knowledge/index-link", json=body, headers=api.headers())).json()["jobId"])
    assert first["documents"] == 2
    assert second["status"] == "done" and second["documents"] == 0


async def test_an_unreadable_page_is_an_error_of_that_page_not_of_the_crawl(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api, knowledge_allow_private_hosts=["127.0.0.1"])
    site_pages = {
        "/robots.txt": Page("", status=404),
        "/": html('<h1>Manuals</h1><p>All manuals.</p><a href="/broken.pdf">PDF</a> <a href="/care">Care</a>'),
        "/broken.pdf": Page(b"%PDF-1.7\n1 0 obj garbage", headers={"Content-Type": "application/pdf"}),
        "/care": html("<h1>Care</h1><p>Clean the filter every 30 days with warm water.</p>"),
    }
    with Site(site_pages) as site:
        started = await api.client.post(
            "/api/knowledge/index-link", json={"url": site.base_url + "/", "strategy": "spider", "maxPages": 10}, headers=api.headers()
        )
        job = await wait_for(api, started.json()["jobId"])
    assert job["status"] == "done", job
    assert job["pagesDone"] == 2 and job["pagesFailed"] == 1 and job["documents"] == 2
    assert [e["url"].rsplit("/", 1)[-1] for e in job["errors"]] == ["broken.pdf"]


async def test_a_deployment_can_refuse_to_fetch_for_clients(make_api: ApiFactory) -> None:
    api = await crawl_api(make_api, knowledge_crawl_enabled=False, knowledge_allow_private_hosts=["127.0.0.1"])
    with Site(DOCS) as site:
        response = await api.client.post("/api/knowledge/index-link", json={"url": site.base_url + "/"}, headers=api.headers())
        assert site.hits == []
    assert response.status_code == 403 and response.json()["error"]["code"] == "CRAWLING_DISABLED"
    assert (await api.client.get("/api/knowledge/jobs", headers=api.headers())).json() == []
    uploaded = await api.client.post("/api/knowledge/ingest", json={"text": "# Setup\n\nRun acme-install."}, headers=api.headers())
    assert uploaded.status_code == 200
