"""The knowledge API over HTTP: ingest (JSON text and multipart files), documents,
resolve, tenant and site isolation, typed errors that change nothing."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import httpx
import pytest

from tests.integration.api.conftest import Api, ApiFactory

GUIDE = """# Acme Clinic help

## Billing

Refunds for a cancelled appointment are paid back within 7 business days to the card used.
A refund can only go back to the card that paid; clinics cannot refund in cash or by bank
transfer. Invoices list every payment with its date, the amount and the last four digits.

## Scheduling

A follow-up visit can be booked from the Patients page with the "New visit" button.
Visits can be moved up to 24 hours before they start; later changes need a call to the
front desk. Each visit type has its own length, shown beside its name in the booking form.
"""


async def ingest_text(api: Api, body: dict[str, Any], key: str | None = None) -> httpx.Response:
    return await api.client.post("/api/knowledge/ingest", json=body, headers=api.headers(key))


async def upload(api: Api, name: str, data: bytes, content_type: str, **fields: str) -> httpx.Response:
    files = {"file": (name, data, content_type)}
    return await api.client.post("/api/knowledge/ingest", files=files, data=fields, headers=api.headers())


async def resolve(api: Api, query: str, url: str | None = None, key: str | None = None) -> dict[str, Any]:
    params = {"query": query, **({"url": url} if url else {})}
    response = await api.client.get("/api/knowledge/resolve", params=params, headers=api.headers(key))
    assert response.status_code == 200, response.text
    return response.json()


async def test_text_is_ingested_once_replaced_when_changed_and_resolved(api: Api) -> None:
    first = await ingest_text(api, {"text": GUIDE, "title": "Clinic help"})
    assert first.status_code == 200, first.text
    created = first.json()
    assert created["status"] == "created" and created["chunks"] >= 2 and created["source"] == "text:Clinic help"
    again = (await ingest_text(api, {"text": GUIDE, "title": "Clinic help"})).json()
    assert again == {**created, "status": "unchanged"}
    changed = (await ingest_text(api, {"text": GUIDE.replace("7 business days", "10 business days"), "title": "Clinic help"})).json()
    assert changed["status"] == "replaced"

    found = await resolve(api, "how long until I get my refund back", "https://app.acme-clinic.test/billing")
    assert found["hasOrgKnowledge"] is True
    texts = [c["text"] for c in found["chunks"]]
    assert any("10 business days" in t for t in texts) and not any("7 business days" in t for t in texts)
    assert found["chunks"][0]["headingPath"][-1] == "Billing"

    listing = (await api.client.get("/api/knowledge/documents", headers=api.headers())).json()
    assert [d["source"] for d in listing["documents"]] == ["text:Clinic help"] and listing["nextCursor"] is None


async def test_another_tenant_never_sees_the_documents(api: Api) -> None:
    created = (await ingest_text(api, {"text": GUIDE})).json()
    other = await resolve(api, "refund business days", key=api.key_b)
    assert other["chunks"] == [] and other["hasOrgKnowledge"] is False
    response = await api.client.get(f"/api/knowledge/documents/{created['documentId']}", headers=api.headers(api.key_b))
    assert response.status_code == 404 and response.json()["error"]["code"] == "DOCUMENT_NOT_FOUND"
    deleted = await api.client.delete(f"/api/knowledge/documents/{created['documentId']}", headers=api.headers(api.key_b))
    assert deleted.status_code == 404
    assert (await resolve(api, "refund business days"))["chunks"]  # still there for its tenant


async def test_a_document_of_one_site_is_not_knowledge_of_another(api: Api) -> None:
    await ingest_text(api, {"text": GUIDE, "domains": ["help.acme-clinic.test"]})
    assert (await resolve(api, "refund business days", "https://app.acme-clinic.test/"))["chunks"]
    elsewhere = await resolve(api, "refund business days", "https://shop.example.com/")
    assert elsewhere["chunks"] == [] and elsewhere["allowedDomains"] == ["example.com"]


async def test_delete_removes_the_document_and_its_chunks(api: Api) -> None:
    created = (await ingest_text(api, {"text": GUIDE})).json()
    response = await api.client.delete(f"/api/knowledge/documents/{created['documentId']}", headers=api.headers())
    assert response.status_code == 204
    assert (await resolve(api, "refund business days"))["chunks"] == []
    again = await api.client.delete(f"/api/knowledge/documents/{created['documentId']}", headers=api.headers())
    assert again.status_code == 404


def _docx(paragraphs: list[tuple[str, str]]) -> bytes:
    """A minimal valid .docx: (style, text) paragraphs, style "Heading1" or ""."""
    def paragraph(style: str, text: str) -> str:
        props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        return f"<w:p>{props}<w:r><w:t>{text}</w:t></w:r></w:p>"

    body = "".join(paragraph(style, text) for style, text in paragraphs)
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    files = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        "</Types>",
        "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
        "</Relationships>",
        "word/document.xml": f'<?xml version="1.0"?><w:document {ns}><w:body>{body}</w:body></w:document>',
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "content_type", "question", "answer"),
    [
        (
            "faq.html",
            b"<html><head><title>FAQ</title></head><body><nav>Home | Pricing</nav><main><h1>FAQ</h1>"
            b"<h2>Passwords</h2><p>Reset a forgotten password from Settings, then Security, then Reset.</p>"
            b"<p>The reset link expires after 30 minutes.</p></main><footer>(c) Acme</footer></body></html>",
            "text/html",
            "my password reset link stopped working",
            "30 minutes",
        ),
        ("plans.csv", b"plan,price,seats\nStarter,$9,1\nTeam,$49,10\n", "text/csv", "price of the team plan", "$49"),
        ("limits.json", b'{"api": {"rate_limit": "600 requests per minute", "timeout": "30 s"}}', "application/json", "api rate limit", "600"),
        ("notes.md", b"# Exports\n\nExports are emailed as a ZIP archive within one hour.\n", "text/markdown", "how do exports arrive", "ZIP"),
        (
            "handbook.docx",
            _docx([("Heading1", "Vacation"), ("", "Staff accrue 2 vacation days per month worked.")]),
            "application/octet-stream",  # a browser that does not know the type: sniffed from the bytes
            "how many vacation days a month",
            "2 vacation days",
        ),
    ],
)
async def test_uploaded_files_of_each_format_are_retrievable(api: Api, name: str, data: bytes, content_type: str, question: str, answer: str) -> None:
    response = await upload(api, name, data, content_type)
    assert response.status_code == 200, response.text
    assert response.json()["source"] == f"file:{name}"
    found = await resolve(api, question)
    assert any(answer in c["text"] for c in found["chunks"]), found


async def test_an_upload_of_unknown_bytes_is_415_and_writes_nothing(api: Api) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    response = await upload(api, "logo.png", png, "image/png")
    assert response.status_code == 415 and response.json()["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"
    assert (await api.client.get("/api/knowledge/documents", headers=api.headers())).json()["documents"] == []


async def test_a_corrupt_pdf_is_422_and_writes_nothing(api: Api) -> None:
    response = await upload(api, "broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage", "application/pdf")
    assert response.status_code == 422 and response.json()["error"]["code"] == "EXTRACTION_FAILED"
    assert (await api.client.get("/api/knowledge/documents", headers=api.headers())).json()["documents"] == []


async def test_a_file_over_the_limit_is_413(make_api: ApiFactory) -> None:
    api = await make_api(knowledge_max_upload_bytes=4096)
    response = await upload(api, "big.txt", b"word " * 5000, "text/plain")
    assert response.status_code == 413 and response.json()["error"]["code"] in ("PAYLOAD_TOO_LARGE", "LIMIT_EXCEEDED")
    assert (await api.client.get("/api/knowledge/documents", headers=api.headers())).json()["documents"] == []


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [
        ({"content": b"just text", "headers": {"content-type": "text/plain"}}, 415, "UNSUPPORTED_MEDIA_TYPE"),
        ({"content": b"{not json", "headers": {"content-type": "application/json"}}, 400, "INVALID_JSON"),
        ({"json": {"text": ""}}, 422, "VALIDATION_FAILED"),
        ({"json": {"text": "x", "domains": ["not a domain!"]}}, 422, "VALIDATION_FAILED"),
        ({"json": {"text": "x", "unknown": 1}}, 422, "VALIDATION_FAILED"),
        ({"files": {"other": ("a.txt", b"x", "text/plain")}}, 422, "VALIDATION_FAILED"),
    ],
)
async def test_bad_ingest_requests_are_typed_errors(api: Api, kwargs: dict[str, Any], status: int, code: str) -> None:
    headers = {**api.headers(), **kwargs.pop("headers", {})}
    response = await api.client.post("/api/knowledge/ingest", headers=headers, **kwargs)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


@pytest.mark.parametrize(
    "body",
    [
        {"url": "ftp://docs.example.com/"},
        {"url": "file:///etc/passwd"},
        {"url": "not a url"},
        {"url": "https://docs.example.com/", "strategy": "everything"},
        {"url": "https://docs.example.com/", "maxPages": 0},
        {"url": "https://docs.example.com/", "maxDepth": 99},
    ],
)
async def test_bad_index_link_requests_are_422(api: Api, body: dict[str, Any]) -> None:
    response = await api.client.post("/api/knowledge/index-link", json=body, headers=api.headers())
    assert response.status_code == 422, response.text
    assert (await api.client.get("/api/knowledge/jobs", headers=api.headers())).json() == []


async def test_unknown_jobs_and_documents_are_404_and_keys_are_required(api: Api) -> None:
    for path in ("/api/knowledge/jobs/nope", "/api/knowledge/documents/nope"):
        response = await api.client.get(path, headers=api.headers())
        assert response.status_code == 404
    assert (await api.client.post("/api/knowledge/jobs/nope/cancel", headers=api.headers())).status_code == 404
    assert (await api.client.get("/api/knowledge/resolve", params={"query": "x"})).status_code == 401
