"""Phase-1 / phase-2 page pairs for the freshness check of bench/knowledge_quality.py.

Each pair is one page of a fictional back office as it first loads (phase 1) and as it looks
after an interaction (phase 2): a status, a value or a sentence in the same area changes
("Status: Pending" → "Status: Approved"). Six layouts, six records each, so the rules are
exercised on cards, tables, long paragraphs, key/value lists, heading-less pages and lists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DOMAIN = "backoffice.test"

_FRAME = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body>
<nav><a href="/">Back office</a> <a href="/orders">Orders</a> <a href="/claims">Claims</a> <a href="/help">Help</a></nav>
<main>{main}</main>
<footer>Fabrikam Back Office · internal use only · <a href="/privacy">Privacy</a></footer>
</body></html>"""

PEOPLE = ("Ines Duarte", "Tomasz Wrona", "Aiko Mori", "Felix Brandt", "Lena Sørensen", "Omar Haddad")
CITIES = ("Porto", "Gdansk", "Osaka", "Leipzig", "Aarhus", "Amman")


@dataclass(frozen=True)
class FreshnessPair:
    layout: str
    url: str
    trigger_action: str
    query: str
    phase1_html: str
    phase2_html: str
    stale: str
    """Text only the superseded phase-1 chunk has."""
    fresh: str
    """Text only the phase-2 chunk has."""


def _page(title: str, main: str) -> str:
    return _FRAME.format(title=title, main=main)


def _status_card(i: int) -> FreshnessPair:
    order = 4700 + i
    body = (
        "<h1>Order {order}</h1><section class='card'><h2>Purchase order {order}</h2>"
        "<p>Requested by {person} for the {city} office: twelve ergonomic chairs and four "
        "standing desks, delivered by the regional carrier to the loading dock.</p>"
        "<p>Status: {status}</p></section><section><h2>Attachments</h2><p>Quote PDF, "
        "delivery note template.</p></section>"
    )
    fmt = {"order": order, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    return FreshnessPair(
        "status card",
        f"https://{DOMAIN}/orders/{order}",
        f"click({10 + i})",
        f"what is the current status of purchase order {order}",
        _page(f"Order {order}", body.format(status="Pending approval", **fmt)),
        _page(f"Order {order}", body.format(status=f"Approved by {PEOPLE[(i + 1) % 6]}", **fmt)),
        "Pending approval",
        f"Approved by {PEOPLE[(i + 1) % 6]}",
    )


def _table_cell(i: int) -> FreshnessPair:
    account = f"ACC-{300 + i}"
    body = (
        "<h1>Account {account}</h1><h2>Balances</h2><table><tr><th>Ledger</th><th>Balance</th>"
        "<th>Owner</th></tr><tr><td>Operating {account}</td><td>{balance}</td><td>{person}</td></tr>"
        "<tr><td>Payroll reserve</td><td>€ 2,400.00</td><td>{person}</td></tr></table>"
        "<h2>Notes</h2><p>Reconciled monthly by the {city} finance team.</p>"
    )
    fmt = {"account": account, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    old, new = f"€ {1000 + 17 * i}.50", f"€ {5000 + 31 * i}.75"
    return FreshnessPair(
        "table cell",
        f"https://{DOMAIN}/accounts/{account}",
        f"click({40 + i})",
        f"operating balance of account {account}",
        _page(account, body.format(balance=old, **fmt)),
        _page(account, body.format(balance=new, **fmt)),
        old,
        new,
    )


def _long_paragraph(i: int) -> FreshnessPair:
    claim = f"CLM-{8800 + i}"
    body = (
        "<h1>Claim {claim}</h1><p>The insurance claim {claim} was filed by {person} after water "
        "damage in the {city} warehouse. The adjuster inspected the storage racks, photographed "
        "the affected pallets and estimated the loss at the replacement value of the goods. "
        "Finance has been informed and the claim {state}. Questions about this claim go to the "
        "claims desk, which answers within two working days.</p>"
    )
    fmt = {"claim": claim, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    old, new = "is awaiting the adjuster's review", f"was settled with a payout on day {i + 3}"
    return FreshnessPair(
        "long paragraph",
        f"https://{DOMAIN}/claims/{claim}",
        f"click({70 + i})",
        f"where does insurance claim {claim} stand",
        _page(claim, body.format(state=old, **fmt)),
        _page(claim, body.format(state=new, **fmt)),
        old,
        new,
    )


def _key_values(i: int) -> FreshnessPair:
    shipment = f"SHP-{5100 + i}"
    body = (
        "<h1>Shipment {shipment}</h1><dl><dt>Carrier</dt><dd>Northline Freight</dd>"
        "<dt>Destination</dt><dd>{city}</dd><dt>Delivery date</dt><dd>{date}</dd>"
        "<dt>Contact</dt><dd>{person}</dd></dl>"
    )
    fmt = {"shipment": shipment, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    old, new = f"{10 + i} May 2027", f"{20 + i} June 2027"
    return FreshnessPair(
        "key/value list",
        f"https://{DOMAIN}/shipments/{shipment}",
        f"click({100 + i})",
        f"when will shipment {shipment} be delivered",
        _page(shipment, body.format(date=old, **fmt)),
        _page(shipment, body.format(date=new, **fmt)),
        old,
        new,
    )


def _no_headings(i: int) -> FreshnessPair:
    ticket = 61000 + i
    body = (
        "<div class='ticket'><p>Ticket #{ticket} · {person} · {city} site</p>"
        "<p>The badge reader at the north entrance rejects valid cards after the firmware update.</p>"
        "<p>{state}</p></div>"
    )
    fmt = {"ticket": ticket, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    old, new = "This ticket is open and unassigned.", f"This ticket was resolved by {PEOPLE[(i + 2) % 6]}."
    return FreshnessPair(
        "no headings",
        f"https://{DOMAIN}/tickets/{ticket}",
        f"click({130 + i})",
        f"is ticket {ticket} about the badge reader resolved",
        _page(f"Ticket {ticket}", body.format(state=old, **fmt)),
        _page(f"Ticket {ticket}", body.format(state=new, **fmt)),
        old,
        new,
    )


def _list_items(i: int) -> FreshnessPair:
    parcel = f"PX{720000 + i}"
    steps = "<li>Label created</li><li>Picked up in {city}</li>{extra}"
    body = "<h1>Tracking {parcel}</h1><h2>Progress</h2><ul>" + steps + "</ul><p>Sender: {person}</p>"
    fmt = {"parcel": parcel, "person": PEOPLE[i % 6], "city": CITIES[i % 6]}
    old = "<li>Out for delivery</li>"
    new = f"<li>Delivered to reception, signed by {PEOPLE[(i + 3) % 6]}</li>"
    return FreshnessPair(
        "list items",
        f"https://{DOMAIN}/tracking/{parcel}",
        f"click({160 + i})",
        f"has parcel {parcel} been delivered",
        _page(parcel, body.format(extra=old, **fmt)),
        _page(parcel, body.format(extra=new, **fmt)),
        "Out for delivery",
        f"signed by {PEOPLE[(i + 3) % 6]}",
    )


LAYOUTS: tuple[Callable[[int], FreshnessPair], ...] = (
    _status_card,
    _table_cell,
    _long_paragraph,
    _key_values,
    _no_headings,
    _list_items,
)


def pairs(per_layout: int = 6) -> list[FreshnessPair]:
    return [layout(i) for layout in LAYOUTS for i in range(per_layout)]
