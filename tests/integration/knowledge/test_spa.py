"""Two-phase SPA ingestion through real stores: dedupe, supersede, replacement of a trigger's
phase-2 document (no dangling superseded_by), phase-1 re-ingestion, layouts."""

from __future__ import annotations

import pytest

from bench.knowledge_corpus.freshness import DOMAIN, LAYOUTS, FreshnessPair, pairs
from knowledge.embeddings import HashingEmbedder
from knowledge.ingest import Ingestor
from knowledge.retrieve import Retriever
from storage import Store
from tests.integration.knowledge.ingest_support import TENANT_A, dangling, store  # noqa: F401

PAIR = pairs(1)[0]  # status card: "Pending approval" → "Approved by …"

_TERMS = " ".join(
    f"Clause {i}: the supplier delivers the goods of line {i} to the warehouse named in the order "
    f"and keeps the delivery note for audit number {i}."
    for i in range(14)
)
ORDER_PAGE = (
    "<html><head><title>Order 9001</title></head><body><main><h1>Order 9001</h1>"
    f"<h2>Terms</h2><p>{_TERMS}</p>"
    "<h2>Approval</h2><p>The order for forty office lamps was requested by the facilities team "
    "of the Leipzig office and waits for the budget owner. Status: {status}</p></main></body></html>"
)


async def _phase1(ingestor: Ingestor, pair: FreshnessPair) -> None:
    await ingestor.ingest_bytes(tenant_id=TENANT_A, data=pair.phase1_html.encode(), source=pair.url,
                                source_kind="url", domains=[DOMAIN])


async def _texts(store: Store, query: str, pair: FreshnessPair) -> list[str]:
    result = await Retriever(store.knowledge).retrieve(tenant_id=TENANT_A, query=query, allowed_domains=[DOMAIN])
    return [c.text for c in result.chunks if c.source == pair.url]


async def _check_pointers(store: Store, url: str) -> list[str]:
    chunks = await store.knowledge.list_chunks(TENANT_A, source=url)
    return dangling(chunks, {c.id for c in chunks})


async def test_unchanged_sections_are_dropped_as_duplicates(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    url = "https://backoffice.test/orders/9001"
    await ingestor.ingest_bytes(tenant_id=TENANT_A, data=ORDER_PAGE.replace("{status}", "Pending").encode(),
                                source=url, source_kind="url", domains=[DOMAIN])
    phase1 = await store.knowledge.list_chunks(TENANT_A, source=url, phase=1)
    assert len(phase1) >= 2
    outcome = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=url, trigger_action="click(3)",
                                                html=ORDER_PAGE.replace("{status}", "Approved"))
    assert outcome.chunks == 1 and outcome.superseded == 1
    assert outcome.skipped_duplicates == len(phase1) - 1
    after = await store.knowledge.list_chunks(TENANT_A, source=url, phase=1)
    assert [c.superseded_by is not None for c in after] == ["Pending" in c.text for c in after]


async def test_interaction_supersedes_the_changed_chunk(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    await _phase1(ingestor, PAIR)
    outcome = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html,
                                                trigger_action=PAIR.trigger_action)
    assert outcome.status == "created"
    assert outcome.superseded == 1 and outcome.chunks == 1
    doc = await store.knowledge.get_document(TENANT_A, outcome.document_id)
    assert doc is not None
    assert (doc.phase, doc.trigger_action, doc.source_kind, doc.domains) == (2, PAIR.trigger_action, "interaction", [DOMAIN])
    phase1 = await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=1)
    phase2 = await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=2)
    stale = [c for c in phase1 if PAIR.stale in c.text]
    assert len(stale) == 1 and stale[0].superseded_by == phase2[0].id
    assert all(c.superseded_by is None for c in phase1 if PAIR.stale not in c.text)
    texts = await _texts(store, PAIR.query, PAIR)
    assert any(PAIR.fresh in t for t in texts) and not any(PAIR.stale in t for t in texts)

    again = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html,
                                              trigger_action=PAIR.trigger_action)
    assert (again.status, again.document_id) == ("unchanged", outcome.document_id)


async def test_same_trigger_replaced_repoints_superseded_chunks(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    await _phase1(ingestor, PAIR)
    first = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html,
                                              trigger_action=PAIR.trigger_action)
    rejected = PAIR.phase2_html.replace(PAIR.fresh, "Rejected by the controller")
    second = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=rejected,
                                               trigger_action=PAIR.trigger_action)
    assert (second.status, second.document_id, second.superseded) == ("replaced", first.document_id, 1)
    assert await _check_pointers(store, PAIR.url) == []
    phase2 = await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=2)
    assert len(phase2) == 1 and "Rejected" in phase2[0].text
    stale = [c for c in await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=1) if PAIR.stale in c.text]
    assert stale[0].superseded_by == phase2[0].id
    texts = await _texts(store, PAIR.query, PAIR)
    assert any("Rejected" in t for t in texts)
    assert not any(PAIR.fresh in t or PAIR.stale in t for t in texts)


async def test_same_trigger_back_to_phase1_clears_the_pointer(store: Store) -> None:
    embedder = HashingEmbedder(64)
    ingestor = Ingestor(store.knowledge, embedder)
    await _phase1(ingestor, PAIR)
    await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html,
                                      trigger_action=PAIR.trigger_action)
    # the same action now shows the page as it first loaded: nothing is fresher than phase 1
    reverted = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase1_html,
                                                 trigger_action=PAIR.trigger_action)
    assert reverted.status == "replaced" and reverted.chunks == 0 and reverted.superseded == 0
    phase1 = await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=1)
    assert all(c.superseded_by is None for c in phase1)
    assert await _check_pointers(store, PAIR.url) == []
    texts = await _texts(store, PAIR.query, PAIR)
    assert any(PAIR.stale in t for t in texts)
    hits = await store.knowledge.vector_search(
        TENANT_A, model=embedder.model, dimension=embedder.dimension,
        query=embedder.vector(PAIR.stale), domains=[DOMAIN],
    )
    assert any(PAIR.stale in h.chunk.text for h in hits), "phase-1 vectors are re-made after the rewrite"


async def test_two_triggers_are_two_documents_and_latest_wins(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    await _phase1(ingestor, PAIR)
    a = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html, trigger_action="click(1)")
    rejected = PAIR.phase2_html.replace(PAIR.fresh, "Rejected by the controller")
    b = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=rejected, trigger_action="click(2)")
    assert a.document_id != b.document_id
    b_chunks = [c for c in await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=2) if c.document_id == b.document_id]
    stale = [c for c in await store.knowledge.list_chunks(TENANT_A, source=PAIR.url, phase=1) if PAIR.stale in c.text]
    assert stale[0].superseded_by == b_chunks[0].id
    assert await _check_pointers(store, PAIR.url) == []


async def test_phase1_reingested_is_superseded_again(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    await _phase1(ingestor, PAIR)
    await ingestor.ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html=PAIR.phase2_html,
                                      trigger_action=PAIR.trigger_action)
    recrawled = PAIR.phase1_html.replace("Quote PDF", "Quote PDF, signed contract")
    outcome = await ingestor.ingest_bytes(tenant_id=TENANT_A, data=recrawled.encode(), source=PAIR.url,
                                          source_kind="url", domains=[DOMAIN])
    assert outcome.status == "replaced" and outcome.superseded == 1
    assert await _check_pointers(store, PAIR.url) == []
    texts = await _texts(store, PAIR.query, PAIR)
    assert any(PAIR.fresh in t for t in texts) and not any(PAIR.stale in t for t in texts)


TABS = """<html><head><title>Plans</title></head><body><main><h1>Plans</h1>
<div role="tablist"><button aria-selected="{a}">Basic</button><button aria-selected="{b}">Premium</button></div>
<section role="tabpanel" {ha}><h2>Basic plan</h2><p>The basic plan includes three seats and e-mail support
with answers within two working days.</p></section>
<section role="tabpanel" {hb}><h2>Premium plan</h2><p>The premium plan includes unlimited seats, phone
support around the clock and a named account manager.</p></section>
</main></body></html>"""


async def test_revealed_tab_is_a_duplicate_and_hidden_tabs_stay(store: Store) -> None:
    ingestor = Ingestor(store.knowledge)
    url = "https://plans.test/pricing"
    await ingestor.ingest_bytes(tenant_id=TENANT_A, source=url, source_kind="url", domains=["plans.test"],
                                data=TABS.format(a="true", b="false", ha="", hb="hidden").encode())
    phase1 = await store.knowledge.list_chunks(TENANT_A, source=url, phase=1)
    assert any(c.hidden and "named account manager" in c.text for c in phase1)
    outcome = await ingestor.ingest_interaction(
        tenant_id=TENANT_A, url=url, trigger_action="click(7)",
        html=TABS.format(a="false", b="true", ha="hidden", hb=""),
    )
    assert outcome.skipped_duplicates >= 1 and outcome.chunks == 0
    after = await store.knowledge.list_chunks(TENANT_A, source=url, phase=1)
    assert all(c.superseded_by is None for c in after), "the now-hidden Basic tab did not change"
    doc = await store.knowledge.get_document(TENANT_A, outcome.document_id)
    assert doc is not None and doc.domains == ["plans.test"]


async def test_interaction_needs_a_trigger(store: Store) -> None:
    with pytest.raises(ValueError, match="trigger"):
        await Ingestor(store.knowledge).ingest_interaction(tenant_id=TENANT_A, url=PAIR.url, html="<p>x</p>", trigger_action="")


@pytest.mark.parametrize("index", range(len(LAYOUTS)), ids=[p.layout for p in pairs(1)])
async def test_every_layout_fresh_in_stale_out(store: Store, index: int) -> None:
    pair = pairs(1)[index]
    ingestor = Ingestor(store.knowledge)
    await _phase1(ingestor, pair)
    outcome = await ingestor.ingest_interaction(tenant_id=TENANT_A, url=pair.url, html=pair.phase2_html,
                                                trigger_action=pair.trigger_action)
    assert outcome.superseded >= 1
    texts = await _texts(store, pair.query, pair)
    assert any(pair.fresh in t for t in texts)
    assert not any(pair.stale in t for t in texts)
