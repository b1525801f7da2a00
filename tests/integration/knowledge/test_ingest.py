"""Ingestor through real stores: create / unchanged / replaced, fields, tenants, domains,
vectors, the worker thread, every corpus format."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from knowledge import ingest as ingest_module
from knowledge.embeddings import HashingEmbedder
from knowledge.extract import UnsupportedMediaType
from knowledge.ingest import Ingestor
from knowledge.retrieve import Retriever
from storage import Store
from tests.integration.knowledge.ingest_support import TENANT_A, TENANT_B, store  # noqa: F401

CORPUS = Path(__file__).resolve().parents[3] / "bench" / "knowledge_corpus"

GUIDE = b"""# Widget guide

## Installing

Unpack the widget and mount it on the quartz rail with two M4 screws.

## Cleaning

Wipe the widget with a dry cloth; never use solvents on the membrane.
"""


async def test_create_unchanged_replaced(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    kw = dict(tenant_id=TENANT_A, source="file:guide.md", source_kind="file", filename="guide.md")
    created = await ingestor.ingest_bytes(data=GUIDE, domains=["Shop.Test", "shop.test"], **kw)  # type: ignore[arg-type]
    assert created.status == "created" and created.chunks >= 1
    first = await store.knowledge.list_chunks(TENANT_A, source="file:guide.md")

    stored = await store.knowledge.get_document(TENANT_A, created.document_id)
    again = await ingestor.ingest_bytes(data=GUIDE, domains=["shop.test"], **kw)  # type: ignore[arg-type]
    assert (again.status, again.document_id) == ("unchanged", created.document_id)
    assert await store.knowledge.get_document(TENANT_A, created.document_id) == stored  # nothing written
    assert [c.id for c in await store.knowledge.list_chunks(TENANT_A, source="file:guide.md")] == [
        c.id for c in first
    ]

    changed = GUIDE.replace(b"dry cloth", b"damp sponge")
    replaced = await ingestor.ingest_bytes(data=changed, domains=["shop.test"], **kw)  # type: ignore[arg-type]
    assert (replaced.status, replaced.document_id) == ("replaced", created.document_id)
    texts = " ".join(c.text for c in await store.knowledge.list_chunks(TENANT_A, source="file:guide.md"))
    assert "damp sponge" in texts and "dry cloth" not in texts
    hits = await store.knowledge.search(TENANT_A, "dry cloth solvents", None)
    assert all("dry cloth" not in h.chunk.text for h in hits)


async def test_document_and_chunk_fields(store: Store) -> None:
    outcome = await Ingestor(store.knowledge).ingest_bytes(
        tenant_id=TENANT_A,
        data=(CORPUS / "docs" / "northwind-faq.html").read_bytes(),
        source="https://help.northwind.test/faq",
        source_kind="url",
        domains=["northwind.test"],
        etag='"v1"',
        last_modified="Tue, 24 Nov 2026 10:00:00 GMT",
        links=["https://help.northwind.test/a", "https://help.northwind.test/a", "https://help.northwind.test/b"],
    )
    doc = await store.knowledge.get_document(TENANT_A, outcome.document_id)
    assert doc is not None
    assert doc.media_type == "text/html" and doc.title.startswith("Northwind Ledger")
    assert doc.domains == ["northwind.test"] and doc.phase == 1 and doc.trigger_action == ""
    assert doc.etag == '"v1"' and doc.last_modified and doc.size_bytes > 1000
    assert doc.links == ["https://help.northwind.test/a", "https://help.northwind.test/b"]
    assert len(doc.content_hash) == 64
    chunks = await store.knowledge.list_chunks(TENANT_A, source=doc.source)
    assert doc.chunk_count == len(chunks) == outcome.chunks
    assert {c.document_id for c in chunks} == {doc.id}
    assert all(c.domains == ["northwind.test"] and c.title == doc.title and c.phase == 1 for c in chunks)
    assert all(len(c.content_hash) == 64 for c in chunks)
    hidden = [c for c in chunks if c.hidden]
    assert hidden, "collapsed <details> answers are ingested as hidden chunks"
    assert any("38 currencies" in c.text for c in hidden)
    assert any(c.heading_path for c in chunks)


async def test_unchanged_content_refreshes_validators_and_keeps_chunks(store: Store) -> None:
    embedder = HashingEmbedder(64)
    ingestor = Ingestor(store.knowledge, embedder)
    kw = dict(tenant_id=TENANT_A, data=GUIDE, source="https://shop.test/guide", source_kind="url",
              media_type="text/markdown", domains=["shop.test"])
    await ingestor.ingest_bytes(etag='"a"', **kw)  # type: ignore[arg-type]
    before = await store.knowledge.list_chunks(TENANT_A, source="https://shop.test/guide")
    outcome = await ingestor.ingest_bytes(etag='"b"', **kw)  # type: ignore[arg-type]
    assert outcome.status == "unchanged"
    doc = await store.knowledge.find_document(TENANT_A, "https://shop.test/guide")
    assert doc is not None and doc.etag == '"b"'
    after = await store.knowledge.list_chunks(TENANT_A, source="https://shop.test/guide")
    assert [c.id for c in after] == [c.id for c in before]
    hits = await store.knowledge.vector_search(
        TENANT_A, model=embedder.model, dimension=embedder.dimension,
        query=embedder.vector("quartz rail screws"), domains=None,
    )
    assert hits, "vectors are re-made after the metadata rewrite"


async def test_unchanged_content_with_new_domains_moves_its_chunks(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    kw = dict(tenant_id=TENANT_A, data=GUIDE, source="file:guide.md", source_kind="file")
    await ingestor.ingest_bytes(domains=["old.test"], **kw)  # type: ignore[arg-type]
    outcome = await ingestor.ingest_bytes(domains=["new.test"], **kw)  # type: ignore[arg-type]
    assert outcome.status == "unchanged"
    chunks = await store.knowledge.list_chunks(TENANT_A, source="file:guide.md")
    assert all(c.domains == ["new.test"] for c in chunks)
    assert await store.knowledge.search(TENANT_A, "quartz rail", ["new.test"])
    assert not await store.knowledge.search(TENANT_A, "quartz rail", ["old.test"])


async def test_tenants_never_see_each_other(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    for tenant, word in ((TENANT_A, "aquamarine"), (TENANT_B, "vermilion")):
        await ingestor.ingest_bytes(
            tenant_id=tenant, data=f"# Palette\n\nThe house colour is {word} glaze.".encode(),
            source="file:palette.md", source_kind="file",
        )
    retriever = Retriever(store.knowledge)
    for tenant, own, other in ((TENANT_A, "aquamarine", "vermilion"), (TENANT_B, "vermilion", "aquamarine")):
        result = await retriever.retrieve(tenant_id=tenant, query=f"house colour glaze {other} {own}", allowed_domains=None)
        texts = " ".join(c.text for c in result.chunks)
        assert own in texts and other not in texts
    assert (await store.knowledge.find_document(TENANT_A, "file:palette.md")) != (
        await store.knowledge.find_document(TENANT_B, "file:palette.md")
    )


async def test_domains_scope_and_tenant_wide_uploads(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    await ingestor.ingest_bytes(tenant_id=TENANT_A, data=b"# Kiln\n\nThe kiln fires at 1280 degrees.",
                                source="https://pottery.test/kiln", source_kind="url",
                                media_type="text/markdown", domains=["pottery.test"])
    await ingestor.ingest_bytes(tenant_id=TENANT_A, data=b"# Kiln safety\n\nKiln gloves are stored in locker 9.",
                                source="file:safety.md", source_kind="file")
    retriever = Retriever(store.knowledge)

    async def sources(domains: Sequence[str] | None) -> set[str]:
        result = await retriever.retrieve(tenant_id=TENANT_A, query="kiln", allowed_domains=domains)
        return {c.source for c in result.chunks}

    assert await sources(["pottery.test"]) == {"https://pottery.test/kiln", "file:safety.md"}
    assert await sources(["bakery.test"]) == {"file:safety.md"}
    assert await sources(None) == {"https://pottery.test/kiln", "file:safety.md"}


async def test_vectors_written_with_an_embedder(store: Store) -> None:
    embedder = HashingEmbedder(128)
    outcome = await Ingestor(store.knowledge, embedder).ingest_bytes(
        tenant_id=TENANT_A, data=GUIDE, source="file:guide.md", source_kind="file"
    )
    assert outcome.timings_ms["embed"] >= 0
    hits = await store.knowledge.vector_search(
        TENANT_A, model=embedder.model, dimension=embedder.dimension,
        query=embedder.vector("wipe membrane solvents"), domains=None,
    )
    assert hits and "solvents" in hits[0].chunk.text


class BrokenEmbedder(HashingEmbedder):
    async def embed_documents(self, texts: Sequence[str], *, tenant_id: str) -> list[list[float]]:
        raise ConnectionError("embedding service unreachable")


async def test_embedder_failure_keeps_the_lexical_document(store: Store) -> None:
    embedder = BrokenEmbedder(32)
    outcome = await Ingestor(store.knowledge, embedder).ingest_bytes(
        tenant_id=TENANT_A, data=GUIDE, source="file:guide.md", source_kind="file"
    )
    assert outcome.status == "created"
    assert await store.knowledge.search(TENANT_A, "quartz rail", None)
    assert not await store.knowledge.vector_search(
        TENANT_A, model=embedder.model, dimension=32, query=embedder.vector("quartz"), domains=None
    )


async def test_extraction_runs_in_a_worker_thread(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[threading.Thread] = []
    real = ingest_module.extract

    def spy(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        seen.append(threading.current_thread())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest_module, "extract", spy)
    await Ingestor(store.knowledge).ingest_bytes(tenant_id=TENANT_A, data=GUIDE, source="file:g.md", source_kind="file")
    assert seen and seen[0] is not threading.main_thread()


async def test_unsupported_content_is_refused_and_nothing_stored(store: Store) -> None:
    with pytest.raises(UnsupportedMediaType):
        await Ingestor(store.knowledge).ingest_bytes(
            tenant_id=TENANT_A, data=b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, source="file:logo.png",
            source_kind="file", filename="logo.png",
        )
    assert await store.knowledge.find_document(TENANT_A, "file:logo.png") is None
    assert await store.knowledge.count_chunks(TENANT_A) == 0


MANIFEST = json.loads((CORPUS / "manifest.json").read_text())["documents"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[Path(e["file"]).name for e in MANIFEST])
async def test_every_corpus_format_ingests(store: Store, entry: dict[str, object]) -> None:
    path = CORPUS / str(entry["file"])
    outcome = await Ingestor(store.knowledge).ingest_bytes(
        tenant_id=str(entry["tenant"]), data=path.read_bytes(), source=str(entry["source"]),
        source_kind=entry["source_kind"], filename=path.name, domains=entry["domains"],  # type: ignore[arg-type]
    )
    assert outcome.status == "created" and outcome.chunks >= 1
    doc = await store.knowledge.get_document(str(entry["tenant"]), outcome.document_id)
    assert doc is not None and doc.title and doc.size_bytes == path.stat().st_size
