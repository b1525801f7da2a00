"""(b) Values in the shape the page wants: the client turns a goal's spelling into what a
time, date, slider, number or multi-select takes — or refuses it — and the goal contract
proves the result from the page's V3 tree."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from client import ActionError, PageProbe, execute_action
from tests.e2e.test_actions import events, open_playground
from verification import Clause, Contract, ElementRef, PageState, start_contract

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def open_inputs(page: Page, probe: PageProbe, pages_url: str) -> dict[str, str]:
    return await open_playground(page, probe, pages_url, "inputs.html")


async def v3_page(page: Page, probe: PageProbe) -> PageState:
    snap = await probe.capture()
    return PageState.from_v3(snap.tree, url=page.url)


async def test_a_time_input_gets_24_hour_time_and_the_time_clause_holds(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["at"]}", "9:37 PM")')
    assert await page.input_value("#at") == "21:37"
    fired = await events(page)
    assert "at:input" in fired and "at:change" in fired

    clause = Clause(id="c1", kind="field_value", description="Time is 9:37 PM", target=ElementRef(name="Time"), value="9:37 PM", match="time")
    contract = start_contract(Contract(clauses=(clause,)), await v3_page(page, probe))
    assert contract.satisfied, contract.result("c1").detail
    assert contract.result("c1").evidence is not None and contract.result("c1").evidence.value == "21:37"
    morning = clause.model_copy(update={"value": "9:37 AM"})
    assert start_contract(Contract(clauses=(morning,)), await v3_page(page, probe)).result("c1").status == "failed"

    for spelling, held in (("21:37", "21:37"), ("9:05am", "09:05"), ("12:05 AM", "00:05"), ("21:37:05", "21:37:05")):
        await execute_action(probe, f'setValue("{ids["at"]}", "{spelling}")')
        assert await page.input_value("#at") == held, spelling
    with pytest.raises(ActionError, match="not a time of day"):
        await execute_action(probe, f'setValue("{ids["at"]}", "after lunch")')
    assert await page.input_value("#at") == "21:37:05"  # nothing else was typed


async def test_a_date_input_takes_the_common_spellings_and_refuses_an_ambiguous_one(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    for spelling in ("2016-12-02", "Dec 2, 2016", "December 2, 2016", "12/02/2016", "2 December 2016"):
        await execute_action(probe, f'setValue("{ids["day"]}", "{spelling}")')
        assert await page.input_value("#day") == "2016-12-02", spelling
    await execute_action(probe, f'setValue("{ids["day"]}", "13.12.2016")')
    assert await page.input_value("#day") == "2016-12-13"
    with pytest.raises(ActionError, match=r"could be 12 February 2016 or 2 December 2016"):
        await execute_action(probe, f'setValue("{ids["day"]}", "02.12.2016")')
    with pytest.raises(ActionError, match="not a date"):
        await execute_action(probe, f'setValue("{ids["day"]}", "next Friday")')
    assert await page.input_value("#day") == "2016-12-13"

    clause = Clause(id="c1", kind="field_value", description="Day is 13.12.2016", target=ElementRef(name="Day"), value="Dec 13, 2016", match="date")
    assert start_contract(Contract(clauses=(clause,)), await v3_page(page, probe)).satisfied


async def test_datetime_local_and_month_inputs(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["when"]}", "Dec 2, 2016 at 9:37 PM")')
    assert await page.input_value("#when") == "2016-12-02T21:37"
    with pytest.raises(ActionError, match="not one date and time"):
        await execute_action(probe, f'setValue("{ids["when"]}", "02.12.2016 21:37")')
    await execute_action(probe, f'setValue("{ids["month"]}", "December 2016")')
    assert await page.input_value("#month") == "2016-12"
    await execute_action(probe, f'setValue("{ids["month"]}", "03/2017")')
    assert await page.input_value("#month") == "2017-03"


async def test_a_range_slider_takes_a_number_on_its_steps(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["volume"]}", "35")')
    assert await page.input_value("#volume") == "35"
    assert await page.text_content("#volume-shown") == "35"  # the page saw the input event of a drag
    fired = await events(page)
    assert "volume:input" in fired and "volume:change" in fired
    await execute_action(probe, f'setValue("{ids["volume"]}", "50.0")')
    assert await page.input_value("#volume") == "50"
    for value, why in (("33", "steps of 5 from 10"), ("60", "from 10 to 50"), ("5", "from 10 to 50"), ("loud", "not a number")):
        with pytest.raises(ActionError, match=why):
            await execute_action(probe, f'setValue("{ids["volume"]}", "{value}")')
    assert await page.input_value("#volume") == "50"  # never clamped or rounded to something else

    clause = Clause(id="c1", kind="field_value", description="Volume is 50", target=ElementRef(name="Volume"), value="50", match="number")
    contract = start_contract(Contract(clauses=(clause,)), await v3_page(page, probe))
    assert contract.satisfied, contract.result("c1").detail


async def test_a_number_input_takes_only_a_number(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["guests"]}", "4")')
    assert await page.input_value("#guests") == "4"
    await execute_action(probe, f'setValue("{ids["guests"]}", "1,200")')
    assert await page.input_value("#guests") == "1200"
    assert "guests:change" in await events(page)
    with pytest.raises(ActionError, match="'four' is not a number"):
        await execute_action(probe, f'setValue("{ids["guests"]}", "four")')
    assert await page.input_value("#guests") == "1200"
    # A text field is typed into as the policy spelt it.
    await execute_action(probe, f'setValue("{ids["note"]}", "9:37 PM, Dec 2")')
    assert await page.input_value("#note") == "9:37 PM, Dec 2"


async def test_select_on_a_multi_select_adds_to_the_selection(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_inputs(page, probe, pages_url)
    await execute_action(probe, f'select("{ids["toppings"]}", "Cheese")')
    await execute_action(probe, f'select("{ids["toppings"]}", "olives")')
    selected = await page.eval_on_selector("#toppings", "el => Array.from(el.selectedOptions).map(o => o.value)")
    assert selected == ["c", "o"]
    assert "toppings:change" in await events(page)

    state = await v3_page(page, probe)
    toppings = state.element(ids["toppings"])
    assert toppings is not None and toppings.value == "Cheese, Olives"

    await execute_action(probe, f'select("{ids["toppings"]}", "Paris, France")')
    await execute_action(probe, f'select("{ids["toppings"]}", "Olives")')  # already selected: stays selected
    selected = await page.eval_on_selector("#toppings", "el => Array.from(el.selectedOptions).map(o => o.value)")
    assert selected == ["c", "o", "p"]
    # setValue sets the value: only that option.
    await execute_action(probe, f'setValue("{ids["toppings"]}", "Ham")')
    selected = await page.eval_on_selector("#toppings", "el => Array.from(el.selectedOptions).map(o => o.value)")
    assert selected == ["h"]
