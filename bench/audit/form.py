"""A form the audit's clients fill: the page as the extension would send it, changed by each action
the way the browser would change it. Several fields so that a task lasts several steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FIELDS = ("First name", "Last name", "City", "Company", "Job title")
URL = "https://crm.example/contacts/new"


def goal(values: tuple[str, ...]) -> str:
    typed = ", ".join(f'type "{value}" into {name}' for name, value in zip(FIELDS, values, strict=True))
    return typed[0].upper() + typed[1:] + " and click Save"


@dataclass
class FormPage:
    """The page of one task: the fields' values and whether Save showed its toast."""

    values: dict[str, str] = field(default_factory=dict)
    saved: bool = False

    def tree(self) -> list[dict[str, Any]]:
        nodes: list[dict[str, Any]] = [{"i": "nav1", "r": "link", "n": "Contacts", "xy": [40, 20]}]
        for index, name in enumerate(FIELDS):
            nodes.append({"i": f"f{index}", "r": "inp", "n": name, "v": self.values.get(f"f{index}", ""), "ty": "text"})
        nodes.append({"i": "save", "r": "btn", "n": "Save"})
        nodes.append({"i": "cancel", "r": "btn", "n": "Cancel"})
        if self.saved:
            nodes.append({"i": "toast", "r": "status", "n": "Contact saved"})
        return nodes

    def apply(self, details: dict[str, Any] | None) -> None:
        """Execute one action of an answer (``actionDetails``) on the page."""
        if not details:
            return
        name, target = details.get("name"), details.get("target")
        if name == "setValue" and isinstance(target, str):
            self.values[target] = str(details.get("value") or "")
        elif name == "click" and target == "save":
            self.saved = True

    def body(self) -> dict[str, Any]:
        return {"url": URL, "interactiveTree": self.tree(), "domMode": "semantic_v3"}
