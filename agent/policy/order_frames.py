"""Quantities of the items of a shop or order form — set with a stepper's "−" / "+" or typed
into a number field:

===========  ============================================================  =====================
reading      says                                                          steps
===========  ============================================================  =====================
each         "Order one of each item: Garlic bread, Spaghetti and           set each item's
             Meatballs", "Buy one of each: Tea, Cake"                       quantity to 1, then
                                                                            the order button
set          "Set the quantity of Cheese wheel to 3", "change the           the quantity
             quantity for Tea to 2"
===========  ============================================================  =====================

Each quantity is a fill of "the quantity stepper in the item for <name>": a spinbutton in
that item's entry — a real number field, or a stepper's readout (agent.policy.steppers) —
and its field_value clause is what proves it. The order button is a commit found by its
name — the verb the goal says ("order", "buy"): "Buy one of each" on a page whose button says
only "Order!" finds no button and fails — needing the effect a commit needs. "Order two pizzas" (no list, no
quantity field named) and "Add 2 X to the order" (relative to what is there) are not read.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.lexicon import ORDER_VERBS, QUANTITY_WORDS
from planning import PlanStep

_VERB: Final = "(?P<verb>" + "|".join(ORDER_VERBS) + ")"
_COUNT: Final = r"(?P<n>\d{1,2}|" + "|".join(sorted(QUANTITY_WORDS, key=len, reverse=True)) + ")"
_EACH: Final = re.compile(rf"^{_VERB}\s+(?:one|1)\s+of\s+each(?:\s+(?:item|dish|product|thing)s?)?\s*:\s*(?P<list>.+)$")
_SET: Final = re.compile(r"^(?:set|change|update|make)\s+the\s+(?:quantity|qty|amount|number)\s+(?:of|for)\s+(?:the\s+)?(?P<item>.+?)\s+(?:to|at)\s+" + _COUNT + "$")
_LIST_SPLIT: Final = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+(?=[^,]*$)")


def _quantity_step(item: str, count: str) -> PlanStep:
    return _step(
        "fill", f"Set the quantity of {item!r} to {count}", target=f'the quantity stepper in the item for "{item}"',
        value=count, criterion=f"{item!r} shows a quantity of {count}",
    )  # fmt: skip


def _commit(verb: str) -> PlanStep:
    return _step("submit", f"Place the order ({verb})", target=verb, criterion="the order is placed")


def _items(raw_list: str) -> list[str]:
    # "Garlic bread, Spaghetti and Meatballs": commas separate items; an item's own "and" stays.
    return [part.strip().strip(".") for part in raw_list.split(",") if part.strip().strip(".")]


def read_order(raw: str, folded: str) -> Frame | None:
    """A clause that sets item quantities (see the module doc), else None."""
    if (each := _EACH.match(folded)) is not None:
        items = _items(_original(raw, folded, each.start("list"), each.end("list")))
        if not items:
            return None
        steps = [_quantity_step(item, "1") for item in items] + [_commit(each.group("verb"))]
        means = tuple(w for w in folded[: each.start("list")].replace(":", " ").split())
        return Frame(steps, means)
    if (setting := _SET.match(folded)) is not None:
        count = QUANTITY_WORDS.get(setting.group("n"), setting.group("n"))
        item = _original(raw, folded, setting.start("item"), setting.end("item")).strip()
        means = tuple(w for w in folded[: setting.start("item")].split()) + (setting.group("n"),)
        return Frame([_quantity_step(item, count)], means)
    return None
