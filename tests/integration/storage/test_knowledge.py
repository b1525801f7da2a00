"""Knowledge documents, chunks, lexical search and vectors: the contract on every backend."""

from __future__ import annotations

import pytest

from storage import ChunkVector, KnowledgeChunk, KnowledgeDocument, Store
from tests.integration.storage.backends import Backend
from tests.integration.storage.builders import TENANT_A, TENANT_B


def document(
    source: str, domains: list[str] | None = None, tenant_id: str = TENANT_A, **fields: object
) -> KnowledgeDocument:
    fields.setdefault("source_kind", "url")
    fields.setdefault("media_type", "text/html")
    return KnowledgeDocument(
        tenant_id=tenant_id,
        source=source,
        domains=["shop.example"] if domains is None else domains,
        content_hash=f"h:{source}",
        **fields,
    )


def chunks(doc: KnowledgeDocument, *texts: str, heading: list[str] | None = None) -> list[KnowledgeChunk]:
    return [
        KnowledgeChunk(
            tenant_id=doc.tenant_id,
            document_id=doc.id,
            source=doc.source,
            title=doc.title,
            domains=list(doc.domains),
            ordinal=i,
            heading_path=heading or [],
            text=text,
            content_hash=f"c:{text}",
            phase=doc.phase,
            trigger_action=doc.trigger_action,
        )
        for i, text in enumerate(texts)
    ]


async def put(store: Store, doc: KnowledgeDocument, *texts: str, **kw: list[str]) -> list[KnowledgeChunk]:
    made = chunks(doc, *texts, **kw)
    await store.knowledge.upsert_document(doc, made)
    return made


async def _texts(
    store: Store, query: str, domains: list[str] | None = None, tenant_id: str = TENANT_A
) -> list[str]:
    return [hit.chunk.text for hit in await store.knowledge.search(tenant_id, query, domains)]


def vector(chunk: KnowledgeChunk, values: list[float], model: str = "m1") -> ChunkVector:
    return ChunkVector(chunk_id=chunk.id, tenant_id=chunk.tenant_id, model=model, dimension=len(values), vector=values)


async def test_documents_upsert_find_get_delete(store: Store) -> None:
    faq = document("https://shop.example/faq", title="FAQ")
    [chunk] = await put(store, faq, "Returns are free within thirty days.")
    assert await store.knowledge.get_document(TENANT_A, faq.id) == faq
    assert await store.knowledge.find_document(TENANT_A, faq.source) == faq
    assert await store.knowledge.find_document(TENANT_A, faq.source, phase=2) is None
    assert await store.knowledge.find_document(TENANT_A, faq.source, trigger_action="click(1)") is None
    assert await store.knowledge.list_chunks(TENANT_A, source=faq.source) == [chunk]
    assert await store.knowledge.count_chunks(TENANT_A) == 1

    assert await store.knowledge.delete_document(TENANT_A, faq.id) is True
    assert await store.knowledge.delete_document(TENANT_A, faq.id) is False
    assert await store.knowledge.get_document(TENANT_A, faq.id) is None
    assert await store.knowledge.list_chunks(TENANT_A, source=faq.source) == []
    assert await store.knowledge.count_chunks(TENANT_A) == 0
    assert await _texts(store, "returns free") == []  # its chunks went with it


async def test_upsert_replaces_the_same_identity_only(store: Store) -> None:
    v1 = document("https://shop.example/faq", title="v1")
    await put(store, v1, "Shipping takes five days.", "Returns are free.")
    phase2 = document("https://shop.example/faq", phase=2, trigger_action="click(7)", source_kind="interaction")
    await put(store, phase2, "The shipping dialog says two days.")
    v2 = document("https://shop.example/faq", title="v2")
    await put(store, v2, "Shipping takes three days.")

    assert await store.knowledge.get_document(TENANT_A, v1.id) is None
    assert await store.knowledge.find_document(TENANT_A, v1.source) == v2
    assert await store.knowledge.find_document(TENANT_A, v1.source, phase=2, trigger_action="click(7)") == phase2
    assert sorted(await _texts(store, "shipping returns")) == [
        "Shipping takes three days.",
        "The shipping dialog says two days.",
    ]
    listed = await store.knowledge.list_chunks(TENANT_A, source=v1.source)
    assert [(c.phase, c.text) for c in listed] == [(1, "Shipping takes three days."), (2, "The shipping dialog says two days.")]
    assert [c.text for c in await store.knowledge.list_chunks(TENANT_A, source=v1.source, phase=2)] == [
        "The shipping dialog says two days."
    ]


async def test_replacing_a_document_drops_the_old_vectors(store: Store) -> None:
    v1 = document("https://shop.example/faq")
    [old] = await put(store, v1, "Refunds take five days.")
    await store.knowledge.put_vectors(TENANT_A, [vector(old, [1.0, 0.0])])
    v2 = document("https://shop.example/faq")
    [new] = await put(store, v2, "Refunds take two days.")
    hits = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[1.0, 0.0], domains=None)
    assert hits == []  # the new chunk has no vector yet; the old one is gone
    await store.knowledge.put_vectors(TENANT_A, [vector(new, [1.0, 0.0])])
    hits = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[1.0, 0.0], domains=None)
    assert [h.chunk.id for h in hits] == [new.id]


async def test_delete_takes_chunks_and_vectors(store: Store) -> None:
    doc = document("https://shop.example/a")
    [chunk] = await put(store, doc, "reset your password here")
    await store.knowledge.put_vectors(TENANT_A, [vector(chunk, [0.0, 1.0])])
    assert await store.knowledge.delete_document(TENANT_A, doc.id) is True
    assert await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[0.0, 1.0], domains=None) == []
    with pytest.raises(ValueError):  # the chunk is gone: no vector may point at it
        await store.knowledge.put_vectors(TENANT_A, [vector(chunk, [0.0, 1.0])])


async def test_list_documents_pages_by_keyset_and_filters_by_domain(store: Store) -> None:
    made = [document(f"https://shop.example/{i}") for i in range(5)]
    made.append(document("https://docs.example/x", domains=["docs.example"]))
    for doc in made:
        await put(store, doc, f"page {doc.source}")
    first = await store.knowledge.list_documents(TENANT_A, limit=2)
    second = await store.knowledge.list_documents(TENANT_A, limit=2, after=first[-1].id)
    rest = await store.knowledge.list_documents(TENANT_A, limit=10, after=second[-1].id)
    assert [d.id for d in [*first, *second, *rest]] == [d.id for d in made]
    assert await store.knowledge.list_documents(TENANT_A, after="no-such-document") == []
    assert await store.knowledge.list_documents(TENANT_B, after=made[0].id) == []
    in_docs = await store.knowledge.list_documents(TENANT_A, domain="docs.example")
    assert [d.id for d in in_docs] == [made[-1].id]


async def test_search_ranks_better_matches_first_and_weights_headings(store: Store) -> None:
    doc = document("https://shop.example/help")
    await put(
        store,
        doc,
        "Click checkout to pay. The checkout button is green; checkout asks for your card.",
        "Your basket lists items; press checkout when ready.",
        "Opening hours are nine to five.",
    )
    hits = await store.knowledge.search(TENANT_A, "checkout button", None)
    assert [h.chunk.ordinal for h in hits] == [0, 1]
    assert hits[0].score > hits[1].score
    top = await store.knowledge.search(TENANT_A, "checkout", None, limit=1)
    assert [h.chunk.ordinal for h in top] == [0]

    headed = document("https://shop.example/billing")
    await put(store, headed, "Money back within a month.", heading=["Billing", "Refunds"])
    assert await _texts(store, "refunds") == ["Money back within a month."]


async def test_domain_rule_intersects_or_tenant_wide(store: Store) -> None:
    shop = document("https://shop.example/a")
    other = document("https://evil.example/a", domains=["evil.example"])
    both = document("https://two.example/a", domains=["two.example", "shop.example"])
    upload = document("file:manual.pdf", domains=[], source_kind="file", media_type="application/pdf")
    theirs = document("https://shop.example/a", tenant_id=TENANT_B)
    await put(store, shop, "reset your password here")
    await put(store, other, "reset your password with us instead")
    await put(store, both, "password reset on two sites")
    await put(store, upload, "the manual explains the password reset")
    await put(store, theirs, "tenant b password reset")

    every = ["reset your password here", "reset your password with us instead", "password reset on two sites",
             "the manual explains the password reset"]
    assert sorted(await _texts(store, "password reset")) == sorted(every)
    assert sorted(await _texts(store, "password reset", ["shop.example"])) == sorted(
        ["reset your password here", "password reset on two sites", "the manual explains the password reset"]
    )
    assert sorted(await _texts(store, "password reset", ["two.example"])) == sorted(
        ["password reset on two sites", "the manual explains the password reset"]
    )
    assert await _texts(store, "password reset", []) == ["the manual explains the password reset"]
    assert await _texts(store, "password reset", tenant_id=TENANT_B) == ["tenant b password reset"]
    assert await _texts(store, "password reset", ["shop.example"], tenant_id=TENANT_B) == ["tenant b password reset"]


async def test_superseded_chunks_are_never_searched(store: Store) -> None:
    before = document("https://app.example/settings", domains=["app.example"])
    [old] = await put(store, before, "Settings: the save button is at the top.")
    after = document("https://app.example/settings", domains=["app.example"], phase=2, trigger_action="click(3)")
    [new] = await put(store, after, "The dialog has a save button.")
    await store.knowledge.put_vectors(TENANT_A, [vector(old, [1.0, 0.0]), vector(new, [0.9, 0.1])])
    assert len(await _texts(store, "save button")) == 2

    assert await store.knowledge.supersede(TENANT_A, {old.id: new.id}) == 1
    assert await store.knowledge.supersede(TENANT_B, {new.id: old.id}) == 0
    assert await _texts(store, "save button") == ["The dialog has a save button."]
    assert await _texts(store, "settings top", ["app.example"]) == []
    hits = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[1.0, 0.0], domains=None)
    assert [h.chunk.id for h in hits] == [new.id]
    [stored_old, _] = await store.knowledge.list_chunks(TENANT_A, source=before.source)
    assert stored_old.superseded_by == new.id  # still listed, never retrieved


async def test_vectors_are_never_mixed_by_model_or_dimension(store: Store) -> None:
    doc = document("https://shop.example/a")
    a, b, c = await put(store, doc, "alpha", "beta", "gamma")
    await store.knowledge.put_vectors(
        TENANT_A,
        [vector(a, [1.0, 0.0]), vector(b, [0.0, 1.0], model="m2"), vector(c, [1.0, 0.0, 0.0])],
    )
    m1 = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[1.0, 0.2], domains=None)
    assert [h.chunk.id for h in m1] == [a.id]
    assert m1[0].score == pytest.approx(1 / (1.04**0.5), rel=1e-5)
    m2 = await store.knowledge.vector_search(TENANT_A, model="m2", dimension=2, query=[1.0, 0.2], domains=None)
    assert [h.chunk.id for h in m2] == [b.id]
    d3 = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=3, query=[1.0, 0.0, 0.0], domains=None)
    assert [h.chunk.id for h in d3] == [c.id]
    with pytest.raises(ValueError):
        await store.knowledge.vector_search(TENANT_A, model="m1", dimension=3, query=[1.0, 0.0], domains=None)
    with pytest.raises(ValueError):
        await store.knowledge.put_vectors(TENANT_A, [ChunkVector(chunk_id=a.id, tenant_id=TENANT_A, model="m1", dimension=3, vector=[1.0])])


async def test_vector_search_ranks_by_cosine_with_domain_and_tenant_rules(store: Store) -> None:
    shop = document("https://shop.example/a")
    wide = document("file:notes.txt", domains=[], source_kind="file", media_type="text/plain")
    evil = document("https://evil.example/a", domains=["evil.example"])
    theirs = document("https://shop.example/a", tenant_id=TENANT_B)
    [s1, s2] = await put(store, shop, "one", "two")
    [w] = await put(store, wide, "three")
    [e] = await put(store, evil, "four")
    [t] = await put(store, theirs, "five")
    await store.knowledge.put_vectors(
        TENANT_A, [vector(s1, [1.0, 0.0]), vector(s2, [0.6, 0.8]), vector(w, [0.8, 0.6]), vector(e, [1.0, 0.01])]
    )
    await store.knowledge.put_vectors(TENANT_B, [vector(t, [1.0, 0.0])])
    with pytest.raises(ValueError):  # tenant A cannot attach a vector to tenant B's chunk
        await store.knowledge.put_vectors(TENANT_A, [vector(t, [1.0, 0.0]).model_copy(update={"tenant_id": TENANT_A})])

    async def ids(domains: list[str] | None, limit: int = 20) -> list[str]:
        hits = await store.knowledge.vector_search(
            TENANT_A, model="m1", dimension=2, query=[1.0, 0.0], domains=domains, limit=limit
        )
        return [h.chunk.id for h in hits]

    assert await ids(None) == [s1.id, e.id, w.id, s2.id]
    assert await ids(None, limit=2) == [s1.id, e.id]
    assert await ids(["shop.example"]) == [s1.id, w.id, s2.id]
    assert await ids([]) == [w.id]
    assert await ids(["nowhere.example"]) == [w.id]
    hits = await store.knowledge.vector_search(TENANT_B, model="m1", dimension=2, query=[1.0, 0.0], domains=None)
    assert [h.chunk.id for h in hits] == [t.id]


async def test_vector_cache_sees_writes_through_another_store(backend: Backend) -> None:
    reader = await backend.open()
    writer = await backend.open()
    doc = document("https://shop.example/a")
    [a, b] = await put(writer, doc, "alpha", "beta")
    await writer.knowledge.put_vectors(TENANT_A, [vector(a, [1.0, 0.0])])

    async def ids() -> list[str]:
        hits = await reader.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[0.0, 1.0], domains=None)
        return [h.chunk.id for h in hits]

    assert await ids() == [a.id]  # the reader now caches a one-row matrix
    await writer.knowledge.put_vectors(TENANT_A, [vector(b, [0.0, 1.0])])
    assert await ids() == [b.id, a.id]
    await writer.knowledge.supersede(TENANT_A, {b.id: a.id})
    assert await ids() == [a.id]
    await writer.knowledge.delete_document(TENANT_A, doc.id)
    assert await ids() == []


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "password AND OR NOT", "pass* -word", "text:password", "scope:password",
     "NEAR(password reset)", "({[]})", "heading_text : password"],
)
async def test_search_treats_the_query_as_plain_words(store: Store, query: str) -> None:
    doc = document("https://shop.example/pw")
    await put(store, doc, "reset your password here")
    hits = await store.knowledge.search(TENANT_A, query, None)
    assert all(h.chunk.text == "reset your password here" for h in hits)


async def test_search_with_no_words_finds_nothing(store: Store) -> None:
    doc = document("https://shop.example/pw")
    await put(store, doc, "reset your password here")
    assert await _texts(store, "   ") == []
    assert await _texts(store, "?!") == []
    assert await store.knowledge.search(TENANT_A, "password", None, limit=0) == []


async def test_chunks_must_belong_to_the_document(store: Store) -> None:
    doc = document("https://shop.example/pw")
    stray = chunks(document("https://shop.example/other"), "x")
    with pytest.raises(ValueError):
        await store.knowledge.upsert_document(doc, stray)
    assert await store.knowledge.find_document(TENANT_A, doc.source) is None


async def test_vector_search_of_a_chunk_in_several_domains(store: Store) -> None:
    both = document("https://two.example/a", domains=["two.example", "Shop.Example"])
    one = document("https://one.example/a", domains=["one.example"])
    [b] = await put(store, both, "twofold")
    [o] = await put(store, one, "one")
    await store.knowledge.put_vectors(TENANT_A, [vector(b, [1.0, 0.0]), vector(o, [0.9, 0.1])])

    async def ids(domains: list[str] | None) -> list[str]:
        hits = await store.knowledge.vector_search(TENANT_A, model="m1", dimension=2, query=[1.0, 0.0], domains=domains)
        return [h.chunk.id for h in hits]

    assert await ids(["shop.example"]) == [b.id]
    assert await ids(["two.example", "shop.example", "one.example"]) == [b.id, o.id]  # once, not per domain
    assert await ids(["one.example"]) == [o.id]
    assert await _texts(store, "twofold", ["shop.example"]) == ["twofold"]
    assert await _texts(store, "twofold", ["SHOP.example."]) == ["twofold"]
    assert [d.id for d in await store.knowledge.list_documents(TENANT_A, domain="shop.example")] == [both.id]


async def test_every_knowledge_write_raises_the_tenants_version_only(store: Store) -> None:
    start_a, start_b = await store.knowledge.version(TENANT_A), await store.knowledge.version(TENANT_B)
    doc = document("https://shop.example/refunds")
    made = await put(store, doc, "Refunds take seven days.")
    after_upsert = await store.knowledge.version(TENANT_A)
    assert after_upsert > start_a and await store.knowledge.version(TENANT_B) == start_b
    await store.knowledge.put_vectors(TENANT_A, [vector(made[0], [1.0, 0.0])])
    after_vectors = await store.knowledge.version(TENANT_A)
    assert after_vectors > after_upsert
    await store.knowledge.delete_document(TENANT_A, doc.id)
    assert await store.knowledge.version(TENANT_A) > after_vectors
    assert await store.knowledge.version(TENANT_B) == start_b
