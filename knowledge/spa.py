"""Two-phase SPA ingestion: which phase-2 chunks to keep and which phase-1 chunks they retire.

Phase 1 is a page's initial DOM (hidden content included, tagged hidden). Phase 2 is the DOM
after an interaction (a click that opened a tab, approved an order, …), hidden content
dropped. Most of a phase-2 DOM repeats phase 1; only what the interaction changed is news.
These pure rules decide, chunk by chunk, what is news and what it makes stale, so retrieval
answers with the page as it is now, not as it first loaded.

The rules (each is tested in tests/unit/knowledge/test_spa_rules.py):

1. **Duplicate** — a phase-2 chunk is dropped when a phase-1 chunk of the same URL has the
   same content hash, or is a near-duplicate of it: word-shingle Jaccard ≥ 0.9 *and* the
   phase-2 chunk has no word the phase-1 chunk lacks. The second condition is a deliberate
   narrowing of "Jaccard ≥ 0.9": in a long paragraph, "Status: Pending" → "Status: Approved"
   keeps Jaccard above 0.9, and dropping it would lose exactly the fresh value phase 2 exists
   to capture. A duplicate *confirms* its phase-1 chunk: that chunk is current.
2. **Supersede** — a phase-1 chunk that was not confirmed is superseded by the kept phase-2
   chunk that overlaps it most: Jaccard ≥ 0.5, or containment ≥ 0.5 (at least half of the
   phase-1 chunk's shingles are in the phase-2 chunk — on a short page one changed line drops
   Jaccard below 0.5 although the chunk plainly covers the same area, and a chunk whose text
   lives on in a fresher one loses nothing by retiring), or the same non-empty heading path. The
   heading rule does not apply to hidden phase-1 chunks: phase 2 drops hidden content, so a
   still-collapsed answer is absent from phase 2 because it is still hidden, not because it
   changed.
3. **Latest observation wins** — a confirmed phase-1 chunk that something had superseded is
   cleared (the page shows it again); a superseded one is re-pointed to the newest chunk.
4. **Replacement** — a phase-2 document is identified by (tenant, url, phase 2, trigger
   action); re-ingesting the same trigger replaces it and its chunk ids die with it. Phase-1
   chunks that pointed at those ids are re-pointed by rule 2 when a new chunk overlaps them,
   and otherwise cleared, so no chunk stays superseded by an id that no longer exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from storage import KnowledgeChunk, KnowledgeDocument, KnowledgeRepository

SHINGLE_WORDS = 3
NEAR_DUPLICATE = 0.9
OVERLAP = 0.5

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class StoredChunk:
    """What the rules need of a stored phase-1 chunk."""

    id: str
    heading_path: tuple[str, ...]
    text: str
    content_hash: str
    hidden: bool = False
    superseded_by: str | None = None


@dataclass(frozen=True)
class NewChunk:
    """What the rules need of a phase-2 chunk before it is stored."""

    heading_path: tuple[str, ...]
    text: str
    content_hash: str


@dataclass(frozen=True)
class Phase2Plan:
    keep: tuple[int, ...]
    """Indices (into the phase-2 chunks) of the chunks to store."""
    duplicates: int
    """Phase-2 chunks dropped as duplicates of phase 1."""
    supersede: dict[str, int] = field(default_factory=dict)
    """Phase-1 chunk id → index of the kept phase-2 chunk that supersedes it."""
    clear: tuple[str, ...] = ()
    """Phase-1 chunk ids whose ``superseded_by`` must be reset to None."""


def stored_view(chunk: KnowledgeChunk) -> StoredChunk:
    return StoredChunk(
        id=chunk.id,
        heading_path=tuple(chunk.heading_path),
        text=chunk.text,
        content_hash=chunk.content_hash,
        hidden=chunk.hidden,
        superseded_by=chunk.superseded_by,
    )


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def shingles(text: str, size: int = SHINGLE_WORDS) -> frozenset[tuple[str, ...]]:
    """Word ``size``-grams; a text shorter than ``size`` words is one shingle of all of them."""
    tokens = words(text)
    if len(tokens) <= size:
        return frozenset({tuple(tokens)}) if tokens else frozenset()
    return frozenset(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))


def jaccard(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    if not a and not b:
        return 1.0
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def containment(part: frozenset[tuple[str, ...]], whole: frozenset[tuple[str, ...]]) -> float:
    """Share of ``part``'s shingles that are also in ``whole``."""
    return len(part & whole) / len(part) if part else 0.0


def is_duplicate(new: NewChunk, old: StoredChunk, similarity: float) -> bool:
    """Rule 1: same hash, or near-duplicate that adds no word."""
    if new.content_hash == old.content_hash:
        return True
    return similarity >= NEAR_DUPLICATE and set(words(new.text)) <= set(words(old.text))


def overlaps(new: NewChunk, old: StoredChunk, similarity: float) -> bool:
    """Rule 2: enough shared text (``similarity`` = max of Jaccard and containment), or the
    same section of a visible phase-1 chunk."""
    if similarity >= OVERLAP:
        return True
    return not old.hidden and bool(old.heading_path) and old.heading_path == new.heading_path


def plan_phase2(
    phase1: Sequence[StoredChunk],
    new: Sequence[NewChunk],
    *,
    replaced_ids: frozenset[str] = frozenset(),
) -> Phase2Plan:
    """Apply rules 1–4. ``replaced_ids`` are the chunk ids of the phase-2 document of the
    same trigger that this ingestion replaces (empty for a first ingestion)."""
    old_shingles = [shingles(chunk.text) for chunk in phase1]
    new_shingles = [shingles(chunk.text) for chunk in new]
    confirmed: set[int] = set()
    keep: list[int] = []
    for n, chunk in enumerate(new):
        duplicate_of = next(
            (
                o
                for o, old in enumerate(phase1)
                if is_duplicate(chunk, old, jaccard(new_shingles[n], old_shingles[o]))
            ),
            None,
        )
        if duplicate_of is None:
            keep.append(n)
        else:
            confirmed.add(duplicate_of)

    supersede: dict[str, int] = {}
    clear: list[str] = []
    for o, old in enumerate(phase1):
        if o in confirmed:
            if old.superseded_by is not None:
                clear.append(old.id)
            continue
        best = _best_overlap(old, old_shingles[o], [(n, new[n], new_shingles[n]) for n in keep])
        if best is not None:
            supersede[old.id] = best
        elif old.superseded_by is not None and old.superseded_by in replaced_ids:
            clear.append(old.id)
    return Phase2Plan(
        keep=tuple(keep), duplicates=len(new) - len(keep), supersede=supersede, clear=tuple(clear)
    )


def _best_overlap(
    old: StoredChunk,
    old_shingles: frozenset[tuple[str, ...]],
    kept: Sequence[tuple[int, NewChunk, frozenset[tuple[str, ...]]]],
) -> int | None:
    """The kept chunk that overlaps ``old`` most: highest similarity, then same heading path,
    then document order."""
    best: tuple[float, bool, int] | None = None
    for n, chunk, chunk_shingles in kept:
        similarity = max(
            jaccard(chunk_shingles, old_shingles), containment(old_shingles, chunk_shingles)
        )
        if not overlaps(chunk, old, similarity):
            continue
        key = (similarity, chunk.heading_path == old.heading_path, -n)
        if best is None or key > best:
            best = key
    return None if best is None else -best[2]


# -- applying the rules to the store (called by knowledge.ingest.Ingestor) -------------


async def reapply_phase2(
    repo: KnowledgeRepository, document: KnowledgeDocument, chunks: Sequence[KnowledgeChunk]
) -> int:
    """A re-ingested phase-1 page gets new chunk ids; interactions already seen on it
    still retire what they changed (oldest first, so the latest observation wins)."""
    phase2 = await repo.list_chunks(document.tenant_id, source=document.source, phase=2)
    if not phase2:
        return 0
    documents: dict[str, list[KnowledgeChunk]] = {}
    for chunk in sorted(phase2, key=lambda c: (c.created_at, c.ordinal)):
        documents.setdefault(chunk.document_id, []).append(chunk)
    views = [stored_view(c) for c in chunks]
    pairs: dict[str, str] = {}
    for fresh in documents.values():
        plan = plan_phase2(
            views, [NewChunk(tuple(c.heading_path), c.text, c.content_hash) for c in fresh]
        )
        pairs.update({old: fresh[index].id for old, index in plan.supersede.items()})
    return await repo.supersede(document.tenant_id, pairs) if pairs else 0


async def apply_supersession(
    repo: KnowledgeRepository,
    tenant_id: str,
    phase1_doc: KnowledgeDocument | None,
    phase1: Sequence[KnowledgeChunk],
    pairs: Mapping[str, str],
    clear: Sequence[str],
) -> list[KnowledgeChunk]:
    """Point phase-1 chunks at their fresher twins. The repository can set a pointer but
    not remove one, so when some must be cleared (rule 4 above) the phase-1 document
    is rewritten with its chunks as they should be; its live chunks are returned so their
    vectors (dropped with the rewrite) can be re-made."""
    if not clear or phase1_doc is None:
        if pairs:
            await repo.supersede(tenant_id, pairs)
        return []
    cleared = set(clear)
    chunks = [
        c.model_copy(
            update={
                "superseded_by": pairs.get(c.id, None if c.id in cleared else c.superseded_by)
            }
        )
        for c in phase1
    ]
    await repo.upsert_document(phase1_doc, chunks)
    return [c for c in chunks if c.superseded_by is None]
