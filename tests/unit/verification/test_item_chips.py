"""A tags or recipients box turns what is typed into items and empties itself ("harbour,
people," → two chips): the step that typed it is verified, and the contract's field clause
holds, when each part is now shown as an item — and only for a value typed with separators."""

from __future__ import annotations

from typing import Any

from tests.unit.verification.support import ForbiddenModel, before_of, v3_page
from verification import Clause, Contract, ElementRef, PageState, start_contract, verify_action_with_observations

BOX = {"i": "26", "r": "inp", "n": "Add a tag", "v": ""}


def chip(n: str, tag: str) -> dict[str, Any]:
    return {"i": n, "r": "btn", "n": f"Remove tag {tag}", "ctx": [f"item: {tag}"]}


async def run(before: PageState, after: PageState, action: str):  # type: ignore[no-untyped-def]
    return await verify_action_with_observations(
        before=before_of(before), after=after, action=action, goal="Tag the post harbour and people", model=ForbiddenModel(), step_hint="intermediate"
    )


def page(*nodes: dict[str, Any]) -> PageState:
    return PageState.from_v3(list(nodes), url="https://cms.example/editor")


async def test_a_tags_box_that_turns_what_was_typed_into_items_took_it() -> None:
    before = v3_page(chip("20", "news"), BOX)
    after = v3_page(chip("20", "news"), chip("24", "harbour"), chip("25", "people"), BOX)
    result = await run(before, after, 'setValue("26", "harbour,people,")')
    assert result.success and any("took 'harbour', 'people' as items" in line for line in result.observations)
    # Emptied with one of the parts not shown as an item: not taken.
    partly = v3_page(chip("20", "news"), chip("24", "harbour"), BOX)
    result = await run(before, partly, 'setValue("26", "harbour,people,")')
    assert not result.success
    # A tag already there before the typing proves nothing.
    result = await run(before, before, 'setValue("26", "news")')
    assert not result.success


def test_a_tags_box_holds_the_tags_it_turned_into_items() -> None:
    tags = Clause(id="c1", kind="field_value", description="Add a tag holds harbour,people,", target=ElementRef(name="Add a tag"), value="harbour,people,")
    assert start_contract(Contract(clauses=(tags,)), page(chip("24", "harbour"), chip("25", "people"), BOX)).satisfied
    assert not start_contract(Contract(clauses=(tags,)), page(chip("24", "harbour"), BOX)).satisfied
    plain = tags.model_copy(update={"value": "harbour"})  # no separator typed: a plain field, read as one
    assert not start_contract(Contract(clauses=(plain,)), page(chip("24", "harbour"), BOX)).satisfied
