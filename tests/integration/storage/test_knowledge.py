"""Knowledge documents, chunks and lexical search."""

from __future__ import annotations

import pytest

from storage import KnowledgeChunk, KnowledgeDocument, Store
from tests.integration.storage.builders import TENANT_A, TENANT_B


def document(
    url: str, domain: str = "shop.example", tenant_id: str = TENANT_A, **fields: object
) -> KnowledgeDocument:
    return KnowledgeDocument(
        tenant_id=tenant_id, source_url=url, domain=domain, content_hash=f"h:{url}", **fields
    )


def chunks(doc: KnowledgeDocument, *texts: str, phase: int = 1) -> list[KnowledgeChunk]:
    return [
        KnowledgeChunk(
            tenant_id=doc.tenant_id,
            document_id=doc.id,
            domain=doc.domain,
            ordinal=i,
            text=text,
            phase=phase,
        )
        for i, text in enumerate(texts)
    ]


async def _texts(
    store: Store, query: str, domains: list[str] | None = None, tenant_id: str = TENANT_A
) -> list[str]:
    return [hit.chunk.text for hit in await store.knowledge.search(tenant_id, query, domains)]


async def test_documents_upsert_get_list_delete(store: Store) -> None:
    faq = document("https://shop.example/faq", title="FAQ")
    docs = document("https://docs.example/start", domain="docs.example")
    await store.knowledge.upsert_document(faq, chunks(faq, "Returns are free within thirty days."))
    await store.knowledge.upsert_document(docs, chunks(docs, "Install the widget."))
    assert await store.knowledge.get_document(TENANT_A, faq.id) == faq
    assert [d.id for d in await store.knowledge.list_documents(TENANT_A)] == [faq.id, docs.id]
    in_docs = await store.knowledge.list_documents(TENANT_A, "docs.example")
    assert [d.id for d in in_docs] == [docs.id]

    assert await store.knowledge.delete_document(TENANT_A, faq.id) is True
    assert await store.knowledge.delete_document(TENANT_A, faq.id) is False
    assert await store.knowledge.get_document(TENANT_A, faq.id) is None
    assert await _texts(store, "returns free") == []  # its chunks went with it


async def test_reingesting_a_url_replaces_the_document_and_its_chunks(store: Store) -> None:
    v1 = document("https://shop.example/faq", title="v1")
    await store.knowledge.upsert_document(
        v1, chunks(v1, "Shipping takes five days.", "Returns are free.")
    )
    v2 = document("https://shop.example/faq", title="v2", phase=2)
    await store.knowledge.upsert_document(v2, chunks(v2, "Shipping takes two days.", phase=2))
    [only] = await store.knowledge.list_documents(TENANT_A)
    assert (only.id, only.title) == (v2.id, "v2")
    assert await store.knowledge.get_document(TENANT_A, v1.id) is None
    assert await _texts(store, "shipping returns") == ["Shipping takes two days."]


async def test_search_ranks_better_matches_first(store: Store) -> None:
    doc = document("https://shop.example/help")
    await store.knowledge.upsert_document(
        doc,
        chunks(
            doc,
            "Click checkout to pay. The checkout button is green; checkout asks for your card.",
            "Your basket lists items; press checkout when ready.",
            "Opening hours are nine to five.",
        ),
    )
    hits = await store.knowledge.search(TENANT_A, "checkout button", None)
    assert [h.chunk.ordinal for h in hits] == [0, 1]
    assert hits[0].score > hits[1].score > 0
    top = await store.knowledge.search(TENANT_A, "checkout", None, limit=1)
    assert [h.chunk.ordinal for h in top] == [0]


async def test_search_filters_by_tenant_and_allowed_domains(store: Store) -> None:
    shop = document("https://shop.example/a")
    other = document("https://evil.example/a", domain="evil.example")
    theirs = document("https://shop.example/a", tenant_id=TENANT_B)
    await store.knowledge.upsert_document(shop, chunks(shop, "reset your password here"))
    await store.knowledge.upsert_document(
        other, chunks(other, "reset your password with us instead")
    )
    await store.knowledge.upsert_document(theirs, chunks(theirs, "tenant b password reset"))

    assert sorted(await _texts(store, "password reset")) == [
        "reset your password here",
        "reset your password with us instead",
    ]
    assert await _texts(store, "password reset", ["shop.example"]) == ["reset your password here"]
    assert await _texts(store, "password reset", []) == []  # nothing allowed
    assert await _texts(store, "password reset", tenant_id=TENANT_B) == ["tenant b password reset"]


async def test_stale_chunks_rank_after_fresh_ones(store: Store) -> None:
    before = document("https://app.example/settings", domain="app.example")
    await store.knowledge.upsert_document(
        before, chunks(before, "Settings: the save button, save button, save button is at the top.")
    )
    after = document("https://app.example/settings#dialog", domain="app.example", phase=2)
    await store.knowledge.upsert_document(
        after, chunks(after, "The dialog has a save button.", phase=2)
    )
    assert await _texts(store, "save button") == [
        "Settings: the save button, save button, save button is at the top.",
        "The dialog has a save button.",
    ]

    assert await store.knowledge.mark_stale(TENANT_A, "app.example", phase_below=2) == 1
    assert await store.knowledge.mark_stale(TENANT_A, "app.example", phase_below=2) == 0
    assert await store.knowledge.mark_stale(TENANT_B, "app.example", phase_below=2) == 0
    hits = await store.knowledge.search(TENANT_A, "save button", None)
    assert [(h.chunk.phase, h.chunk.stale) for h in hits] == [(2, False), (1, True)]


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "password AND OR NOT",
        "pass* -word",
        "text:password",
        "NEAR(password reset)",
        "({[]})",
    ],
)
async def test_search_treats_the_query_as_plain_words(store: Store, query: str) -> None:
    doc = document("https://shop.example/pw")
    await store.knowledge.upsert_document(doc, chunks(doc, "reset your password here"))
    hits = await store.knowledge.search(TENANT_A, query, None)
    assert all(h.chunk.text == "reset your password here" for h in hits)


async def test_search_with_no_words_finds_nothing(store: Store) -> None:
    doc = document("https://shop.example/pw")
    await store.knowledge.upsert_document(doc, chunks(doc, "reset your password here"))
    assert await _texts(store, "   ") == []
    assert await _texts(store, "?!") == []


async def test_chunks_must_belong_to_the_document(store: Store) -> None:
    doc = document("https://shop.example/pw")
    stray = chunks(document("https://shop.example/other"), "x")
    with pytest.raises(ValueError):
        await store.knowledge.upsert_document(doc, stray)
