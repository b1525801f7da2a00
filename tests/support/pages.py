"""Small pages the tests build: a clinic app's screens as HTML and as V3 trees."""

from __future__ import annotations

from typing import Any


def html_page(body: str, title: str = "Clinic") -> str:
    return f"<!doctype html><html><head><title>{title}</title><style>.x{{color:red}}</style></head><body>{body}</body></html>"


def save_form(toast: str | None = None, clock: str = "10:00") -> str:
    """A form with a Save button; optionally the success toast that follows saving."""
    toast_html = f'<div class="toast success" role="status">{toast}</div>' if toast else ""
    return html_page(
        f"""
        <header><span class="clock">{clock}</span></header>
        <nav><a data-llm-id="1" href="/patients">Patients</a><a data-llm-id="2" href="/settings">Settings</a></nav>
        <main>
          <label for="name">Name</label><input data-llm-id="3" id="name" name="name" value="">
          <button data-llm-id="4" type="submit">Save</button>
          <button data-llm-id="5" type="button">Cancel</button>
          {toast_html}
        </main>
        """
    )


def v3_tree(*, save_label: str = "Save", extra: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = [
        {"i": "1", "r": "link", "n": "Patients", "xy": [40, 20]},
        {"i": "2", "r": "link", "n": "Settings", "xy": [120, 20]},
        {"i": "3", "r": "inp", "n": "Name", "v": "", "xy": [200, 100]},
        {"i": "4", "r": "btn", "n": save_label, "xy": [200, 160]},
        {"i": "5", "r": "btn", "n": "Cancel", "xy": [300, 160]},
    ]
    return nodes + (extra or [])
