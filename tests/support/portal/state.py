"""The portal's state and its event log: what REALLY happened on the site.

Every request that changes something (or that the tests need to know was made) appends
one event, e.g. ``{"event": "login", "user": "alice", "ok": True}``. The truth helpers
(``logged_in_as``, ``saved_settings``, ``searches``, ``row_actions``…) read only that log
and the state, never the page. One lock guards everything: the server answers on many
threads while the test reads.
"""

from __future__ import annotations

import secrets
import threading
from copy import deepcopy
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

Layout = Literal["a", "b"]
LAYOUTS: Final[tuple[Layout, ...]] = ("a", "b")

USERS: Final[dict[str, tuple[str, str]]] = {"alice": ("wonderland", "Alice"), "bob": ("builder", "Bob")}
"""username → (password, display name)."""

SETTINGS: Final[tuple[tuple[str, str, str], ...]] = (
    ("email", "Email notifications", "Order updates and security alerts by email."),
    ("sms", "SMS notifications", "Text messages for deliveries."),
    ("dark_mode", "Dark mode", "Use a dark colour scheme."),
    ("weekly_digest", "Weekly digest", "A summary of activity every Monday."),
)
"""(key, label, hint) of every toggle on the settings page."""
INITIAL_SETTINGS: Final[dict[str, bool]] = {"email": True, "sms": False, "dark_mode": False, "weekly_digest": False}

ROLES: Final[tuple[str, ...]] = ("Viewer", "Editor", "Admin")
MUTATING: Final[frozenset[str]] = frozenset({"settings_saved", "deactivate", "activate", "person_saved"})
"""Events that change the site's data (a login, a search or a failed report does not)."""


@dataclass(frozen=True)
class Product:
    id: int
    name: str
    price: float
    blurb: str


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    email: str
    role: str
    active: bool = True


CATALOGUE: Final[tuple[Product, ...]] = (
    Product(1, "Laptop Pro 14", 1899.0, "14-inch display, 32 GB memory."),
    Product(2, "Laptop Air 13", 1199.0, "Thin and light, all-day battery."),
    Product(3, "Laptop Stand", 39.0, "Aluminium, adjustable height."),
    Product(4, "USB-C Hub", 49.0, "Seven ports, 100 W pass-through."),
    Product(5, "Wireless Mouse", 29.0, "Silent clicks, two-year battery."),
    Product(6, "Standing Desk", 549.0, "Electric, memory presets."),
    Product(7, "Desk Lamp", 39.0, "Dimmable LED with USB charging."),
)
PEOPLE: Final[tuple[Person, ...]] = (
    Person(1, "Ana Silva", "ana.silva@acme.test", "Admin"),
    Person(2, "Bob Stone", "bob.stone@acme.test", "Editor"),
    Person(3, "Chen Wei", "chen.wei@acme.test", "Viewer"),
    Person(4, "Dana Kim", "dana.kim@acme.test", "Editor"),
    Person(5, "Eve Moreau", "eve.moreau@acme.test", "Viewer"),
)


def matching(query: str) -> list[Product]:
    """Products whose name contains the query (case-insensitive), in catalogue order."""
    needle = query.strip().lower()
    return [p for p in CATALOGUE if needle and needle in p.name.lower()]


class Portal:
    """The site's state and the log of what happened; ``reset()`` restores the seed."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._events: list[dict[str, Any]] = []
        self._sessions: dict[str, str] = {}
        self._settings: dict[str, bool] = dict(INITIAL_SETTINGS)
        self._people: dict[int, Person] = {p.id: p for p in PEOPLE}

    def reset(self) -> None:
        with self._lock:
            self._events.clear()
            self._sessions.clear()
            self._settings = dict(INITIAL_SETTINGS)
            self._people = {p.id: p for p in PEOPLE}

    # -- what the server does -------------------------------------------------------------

    def record(self, event: str, **fields: Any) -> None:
        with self._lock:
            self._events.append({"event": event, **deepcopy(fields)})

    def login(self, username: str, password: str) -> str | None:
        """A new session token when the credentials are valid, else None; logged either way."""
        user = username.strip()
        ok = user in USERS and USERS[user][0] == password
        with self._lock:
            self.record("login", user=user, ok=ok)
            if not ok:
                return None
            token = secrets.token_hex(16)
            self._sessions[token] = user
            return token

    def logout(self, token: str | None) -> None:
        with self._lock:
            user = self._sessions.pop(token or "", None)
            if user is not None:
                self.record("logout", user=user)

    def session_user(self, token: str | None) -> str | None:
        with self._lock:
            return self._sessions.get(token or "")

    def search(self, query: str) -> list[Product]:
        self.record("search", q=query)
        return matching(query)

    def open_product(self, product_id: int) -> Product | None:
        product = next((p for p in CATALOGUE if p.id == product_id), None)
        if product is not None:
            self.record("open_product", id=product.id, product=product.name)
        return product

    def settings(self) -> dict[str, bool]:
        with self._lock:
            return dict(self._settings)

    def save_settings(self, values: dict[str, bool]) -> None:
        clean = {key: bool(values.get(key, False)) for key, _, _ in SETTINGS}
        with self._lock:
            self._settings = clean
            self.record("settings_saved", values=clean)

    def people(self) -> list[Person]:
        with self._lock:
            return list(self._people.values())

    def person(self, person_id: int) -> Person | None:
        with self._lock:
            return self._people.get(person_id)

    def set_active(self, person_id: int, active: bool) -> Person | None:
        with self._lock:
            person = self._people.get(person_id)
            if person is None:
                return None
            self._people[person_id] = replace(person, active=active)
            self.record("activate" if active else "deactivate", person=person.name)
            return self._people[person_id]

    def set_role(self, person_id: int, role: str) -> Person | None:
        if role not in ROLES:
            return None
        with self._lock:
            person = self._people.get(person_id)
            if person is None:
                return None
            self._people[person_id] = replace(person, role=role)
            self.record("person_saved", person=person.name, role=role)
            return self._people[person_id]

    def generate_report(self, period: str) -> None:
        """The report service is down: the request is logged and always fails."""
        self.record("report_failed", period=period)

    # -- the truth, for the tests ---------------------------------------------------------

    @property
    def events(self) -> list[dict[str, Any]]:
        with self._lock:
            return deepcopy(self._events)

    def of(self, *kinds: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] in kinds]

    def logged_in_as(self) -> str | None:
        """The user of the last successful login, unless that user logged out since."""
        user: str | None = None
        for event in self.of("login", "logout"):
            if event["event"] == "login" and event["ok"]:
                user = event["user"]
            elif event["event"] == "logout" and event["user"] == user:
                user = None
        return user

    def saved_settings(self) -> dict[str, bool] | None:
        """The values of the last save, None when nothing was saved."""
        saved = self.of("settings_saved")
        return saved[-1]["values"] if saved else None

    def searches(self) -> list[str]:
        return [e["q"] for e in self.of("search")]

    def opened_products(self) -> list[str]:
        return [e["product"] for e in self.of("open_product")]

    def row_actions(self) -> list[tuple[str, str]]:
        """(event, person) of every change made to a person, in order."""
        return [(e["event"], e["person"]) for e in self.of("deactivate", "activate", "person_saved")]

    def mutations(self) -> list[dict[str, Any]]:
        """Every event that changed the site's data."""
        return [e for e in self.events if e["event"] in MUTATING]

    def role_of(self, name: str) -> str | None:
        return next((p.role for p in self.people() if p.name == name), None)

    def is_active(self, name: str) -> bool | None:
        return next((p.active for p in self.people() if p.name == name), None)
