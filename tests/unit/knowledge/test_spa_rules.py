"""The phase-2 rules of knowledge/spa.py, one rule per test, on plain values."""

from __future__ import annotations

import hashlib

from knowledge.spa import (
    containment,
    NewChunk,
    StoredChunk,
    jaccard,
    plan_phase2,
    shingles,
    words,
)

ORDER = (
    "Order 4711 was placed on 3 March by Jane Roe for the Berlin office. It contains twelve "
    "ergonomic chairs and four standing desks, delivered by the regional carrier to the "
    "loading dock behind building C. Finance reviews every order above five thousand euros "
    "before it ships, and the requester is informed by e-mail. Status: Pending"
)


def _hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()


def old(cid: str, text: str, heading: tuple[str, ...] = (), **kw: object) -> StoredChunk:
    return StoredChunk(id=cid, heading_path=heading, text=text, content_hash=_hash(text), **kw)  # type: ignore[arg-type]


def new(text: str, heading: tuple[str, ...] = ()) -> NewChunk:
    return NewChunk(heading_path=heading, text=text, content_hash=_hash(text))


def test_shingles_and_jaccard() -> None:
    assert words("Status: Pending!") == ["status", "pending"]
    assert shingles("a b") == frozenset({("a", "b")})
    assert shingles("") == frozenset()
    assert jaccard(shingles("one two three four"), shingles("one two three four")) == 1.0
    assert jaccard(shingles("one two three"), shingles("four five six")) == 0.0
    assert containment(shingles("a b c"), shingles("a b c d")) == 1.0
    assert containment(frozenset(), shingles("a b c")) == 0.0


def test_exact_duplicate_is_dropped_and_confirms_phase1() -> None:
    plan = plan_phase2([old("p1", "Opening hours are 9 to 5.")], [new("Opening  hours are 9 to 5.")])
    assert plan.keep == ()
    assert plan.duplicates == 1
    assert plan.supersede == {}


def test_near_duplicate_without_new_words_is_dropped() -> None:
    # the phase-2 chunk is the phase-1 chunk minus its last sentence: nothing new
    shorter = ORDER.rsplit(" Status", 1)[0]
    plan = plan_phase2([old("p1", ORDER)], [new(shorter)])
    assert jaccard(shingles(shorter), shingles(ORDER)) >= 0.9
    assert plan.keep == () and plan.duplicates == 1


def test_changed_value_in_long_paragraph_is_kept_and_supersedes() -> None:
    approved = ORDER.replace("Pending", "Approved")
    assert jaccard(shingles(approved), shingles(ORDER)) >= 0.9  # the literal 0.9 rule would drop it
    plan = plan_phase2([old("p1", ORDER)], [new(approved)])
    assert plan.keep == (0,)
    assert plan.supersede == {"p1": 0}


def test_same_heading_path_supersedes_even_when_text_differs() -> None:
    plan = plan_phase2(
        [old("p1", "Your request is waiting for review.", ("Request",))],
        [new("Approved by the manager on Tuesday.", ("Request",))],
    )
    assert plan.supersede == {"p1": 0}


def test_short_page_with_one_changed_line_is_superseded_by_containment() -> None:
    before = "Tracking PX1\nLabel created\nPicked up in Porto\nOut for delivery\nSender: Ines Duarte"
    after = before.replace("Out for delivery", "Delivered to reception, signed by Felix Brandt")
    assert jaccard(shingles(before), shingles(after)) < 0.5
    plan = plan_phase2([old("p1", before)], [new(after)])
    assert plan.supersede == {"p1": 0}


def test_unrelated_chunk_supersedes_nothing() -> None:
    plan = plan_phase2(
        [old("p1", "Shipping takes three days.", ("Shipping",))],
        [new("A brand new promotion banner about socks.", ("Promotions",))],
    )
    assert plan.keep == (0,)
    assert plan.supersede == {}
    assert plan.clear == ()


def test_hidden_chunk_is_not_superseded_by_heading_alone() -> None:
    # a still-collapsed FAQ answer under the same heading is absent from phase 2 because it
    # is still hidden, not because it changed
    phase1 = [
        old("summary", "Q1 Q2", ("Banking",)),
        old("answer1", "Feeds refresh every four hours.", ("Banking",), hidden=True),
    ]
    plan = plan_phase2(phase1, [new("Q1 Q2 Consent must be renewed every 180 days.", ("Banking",))])
    assert plan.supersede == {"summary": 0}
    assert "answer1" not in plan.supersede


def test_unchanged_chunks_of_a_section_stay_current() -> None:
    intro = "Section intro that does not change at all between the two loads of the page."
    phase1 = [old("a", intro, ("Order",)), old("b", ORDER, ("Order",))]
    plan = plan_phase2(phase1, [new(intro, ("Order",)), new(ORDER.replace("Pending", "Shipped"), ("Order",))])
    assert plan.keep == (1,)
    assert plan.supersede == {"b": 1}  # "a" is confirmed by its duplicate, not superseded


def test_best_overlap_wins_when_several_chunks_overlap() -> None:
    approved = ORDER.replace("Pending", "Approved")
    plan = plan_phase2([old("p1", ORDER)], [new(ORDER[: len(ORDER) // 2] + " extra words here"), new(approved)])
    assert plan.supersede == {"p1": 1}


def test_replacement_repoints_or_clears_ids_that_die() -> None:
    phase1 = [
        old("p1", ORDER, ("Order",), superseded_by="old-2a"),
        old("p2", "Delivery window: Monday morning.", ("Delivery",), superseded_by="old-2b"),
        old("p3", "Other trigger changed this.", ("Notes",), superseded_by="other-trigger"),
    ]
    replaced = frozenset({"old-2a", "old-2b"})
    plan = plan_phase2(phase1, [new(ORDER.replace("Pending", "Rejected"), ("Order",))], replaced_ids=replaced)
    assert plan.supersede == {"p1": 0}  # re-pointed to the new chunk
    assert plan.clear == ("p2",)  # its superseding chunk died and nothing replaces it
    # p3 belongs to another trigger's phase-2 document: untouched


def test_confirmed_chunk_is_cleared_when_the_page_shows_it_again() -> None:
    # another interaction had superseded it; this newer observation shows phase 1's text again
    phase1 = [old("p1", ORDER, ("Order",), superseded_by="other-trigger")]
    plan = plan_phase2(phase1, [new(ORDER, ("Order",))])
    assert plan.keep == ()
    assert plan.clear == ("p1",)


def test_no_phase1_keeps_everything() -> None:
    plan = plan_phase2([], [new("a b c"), new("d e f")])
    assert plan.keep == (0, 1) and plan.duplicates == 0 and plan.supersede == {}
