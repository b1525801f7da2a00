"""The interact benchmarks' task: "Add a new patient named Jas" over the clinic's three
pages (4 requests), as 200 KB HTML pages or as V3 trees of 300 elements."""

from __future__ import annotations

from typing import Any

from tests.support.clinic import FORM_URL, LIST_URL, MENU_URL, form_page, list_page, menu_page

GOAL = 'Add a new patient named "Jas"'


def _padding(kb: int) -> str:
    rows = []
    n = 0
    while sum(len(r) for r in rows) < kb * 1024:
        rows.append(f'<tr><td class="c">Row {n}</td><td>Lorem ipsum dolor sit amet, consectetur adipiscing {n}</td><td><span>{n * 7}</span></td></tr>')
        n += 1
    return f'<section class="history"><table>{"".join(rows)}</table></section>'


def html_pages(kb: int = 200) -> list[tuple[str, dict[str, Any]]]:
    pad = _padding(kb - 2)
    return [
        (MENU_URL, {"dom": menu_page().replace("</main>", pad + "</main>")}),
        (FORM_URL, {"dom": form_page().replace("</main>", pad + "</main>")}),
        (FORM_URL, {"dom": form_page(name="Jas").replace("</main>", pad + "</main>")}),
        (LIST_URL, {"dom": list_page(saved="Jas").replace("</main>", pad + "</main>")}),
    ]


def v3_pages(nodes: int = 300) -> list[tuple[str, dict[str, Any]]]:
    filler = [{"i": f"f{n}", "r": "link", "n": f"Article {n}", "xy": [10, 40 + n]} for n in range(nodes - 4)]
    menu = [{"i": "1", "r": "link", "n": "Patients"}, {"i": "10", "r": "link", "n": "New patient"}, *filler]
    form = [{"i": "20", "r": "inp", "n": "Name", "v": ""}, {"i": "22", "r": "btn", "n": "Save"}, *filler]
    filled = [{"i": "20", "r": "inp", "n": "Name", "v": "Jas"}, {"i": "22", "r": "btn", "n": "Save"}, *filler]
    saved = [{"i": "30", "r": "link", "n": "New patient"}, *filler]
    return [
        (MENU_URL, {"interactiveTree": menu, "domMode": "semantic_v3"}),
        (FORM_URL, {"interactiveTree": form, "domMode": "semantic_v3"}),
        (FORM_URL, {"interactiveTree": filled, "domMode": "semantic_v3"}),
        (LIST_URL, {"interactiveTree": saved, "domMode": "semantic_v3", "success_messages": ["Patient Jas saved"], "hasSuccess": True}),
    ]
