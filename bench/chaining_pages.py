"""The chaining bench's fixture site: a five-field form + Submit + a result page, generated per
case (layout, variant, seed), served on 127.0.0.1, and checked by the site itself.

Layouts (how a field is named): ``label`` (<label for>), ``aria`` (aria-label only),
``placeholder`` (placeholder only), ``table`` (a <label for> in the cell beside the input's), ``grid``
(two columns, the input inside its <label>), ``extras`` (label-for plus a checkbox and a select).

Variants: ``clean``; ``rerender`` (after the first typed value the form re-renders with a
"Middle name" row inserted, recycling the input nodes of the rows below it — the same
element, and so the same ``data-llm-id``, now means another field); ``late`` (one field exists
only from 1 s after the first typed value); ``decoy`` (after the first typed value the Submit
button becomes "Delete account" — the same element — and a new Submit appears below).

The site is the judge: ``/submit/<token>`` records what was submitted; every input typed into
a recycled row that now means another field and every click on "Delete account" is reported
by the page to ``/event/<token>`` ("actions on a changed target"). A case succeeds when the
last submission holds exactly the expected values (nothing typed into Middle name) and
nothing was done on a changed target.
"""

from __future__ import annotations

import html
import json
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from client.serving import serve_in_thread

LAYOUTS: Final = ("label", "aria", "placeholder", "table", "grid", "extras")
VARIANTS: Final = ("clean", "rerender", "late", "decoy")
TEXT_KEYS: Final = ("first", "last", "email", "phone", "city")
LABELS: Final[dict[str, tuple[str, ...]]] = {
    "first": ("First name", "Given name"),
    "last": ("Last name", "Surname", "Family name"),
    "email": ("Email", "E-mail address", "Email address"),
    "phone": ("Phone", "Phone number", "Telephone"),
    "city": ("City", "Town"),
}
PEOPLE: Final = (
    ("Ada", "Lovelace", "555-0100", "London"),
    ("Grace", "Hopper", "555-0142", "Arlington"),
    ("Alan", "Turing", "555-0199", "Manchester"),
    ("Katherine", "Johnson", "555-0123", "Hampton"),
    ("Edsger", "Dijkstra", "555-0177", "Austin"),
    ("Radia", "Perlman", "555-0150", "Seattle"),
)
COUNTRIES: Final = ("France", "Germany", "Japan", "Peru", "Norway", "Kenya")
SUBSCRIBE: Final = "Subscribe to newsletter"


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    value: str
    html_id: str


@dataclass(frozen=True)
class Case:
    """One page and what the site expects to receive from it."""

    layout: str
    variant: str
    seed: int
    token: str
    fields: tuple[Field, ...]  # in page order
    goal_order: tuple[str, ...]  # keys, in the order the goal names them
    country: str | None = None  # the extras layout: the select's expected option
    subscribe: bool = False  # the extras layout: the checkbox must end checked

    def field(self, key: str) -> Field:
        return next(f for f in self.fields if f.key == key)

    def expected(self) -> dict[str, str]:
        values = {f.key: f.value for f in self.fields}
        if self.country is not None:
            values["country"] = self.country
        if self.subscribe:
            values["subscribe"] = "on"
        return values


def make_case(layout: str, variant: str, seed: int) -> Case:
    """Field labels, ids, order and values vary with the seed (the same seed: the same case)."""
    rng = random.Random(f"{layout}/{variant}/{seed}")
    first, last, phone, city = PEOPLE[rng.randrange(len(PEOPLE))]
    values = {"first": first, "last": last, "email": f"{first.lower()}.{last.lower()}@example.com", "phone": phone, "city": city}
    keys = list(TEXT_KEYS)
    rng.shuffle(keys)
    fields = tuple(
        Field(key, rng.choice(LABELS[key]), values[key], f"{rng.choice('fghkmpqrtx')}{rng.randrange(10**5):05d}") for key in keys
    )
    goal = list(TEXT_KEYS)
    rng.shuffle(goal)
    token = f"{layout}-{variant}-{seed}-{rng.randrange(16**8):08x}"
    extras = layout == "extras"
    return Case(layout, variant, seed, token, fields, tuple(goal), rng.choice(COUNTRIES) if extras else None, extras)


@dataclass
class Record:
    """What the site saw of one case."""

    submissions: list[dict[str, str]] = field(default_factory=list)
    events: dict[str, int] = field(default_factory=dict)

    @property
    def changed_target_actions(self) -> int:
        return self.events.get("changed_target", 0)


def check(case: Case, record: Record) -> tuple[bool, str]:
    """The site's own verdict: (success, why)."""
    if record.changed_target_actions:
        return False, f"{record.changed_target_actions} action(s) on a changed target"
    if not record.submissions:
        return False, "nothing was submitted"
    got = record.submissions[-1]
    wrong = [
        f"{key}={got.get(key, '')!r} (expected {want!r})"
        for key, want in case.expected().items()
        if got.get(key, "").strip() != want
    ]
    if got.get("middle", "").strip():
        wrong.append(f"middle={got['middle']!r} (expected empty)")
    if "subscribe" in got and not case.subscribe:
        wrong.append("subscribe was checked")
    return (False, "; ".join(wrong)) if wrong else (True, "the submitted values are the expected ones")


# --- the page -------------------------------------------------------------------------------

_STYLE = """body{font-family:sans-serif;margin:2em;max-width:44em}
.row{margin:.6em 0}.row .lab{display:inline-block;min-width:9em}input[type=text],select{padding:.3em;width:16em}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:.8em 2em}.grid label{display:flex;flex-direction:column}
table td{padding:.3em .6em}button{margin-top:1em;padding:.5em 1.4em}"""

# The rows are rendered by script from a model (label, key) per input node, so a re-render can
# recycle a node for another field exactly as an index-keyed list does.
_SCRIPT = r"""
const CASE = __CASE__;
const beacon = (kind) => navigator.sendBeacon(`/event/${CASE.token}?kind=${kind}`, '');
const box = document.getElementById('rows');
const slots = [];  // {row, lab, input, key}
const values = {};
function makeRow() {
  const input = document.createElement('input');
  input.type = 'text';
  let row, lab = null;
  if (CASE.layout === 'table') {
    row = document.createElement('tr');
    const head = document.createElement('td');
    lab = document.createElement('label');
    head.appendChild(lab);
    const cell = document.createElement('td');
    cell.appendChild(input); row.append(head, cell);
  } else if (CASE.layout === 'grid') {
    row = lab = document.createElement('label');
    row.appendChild(input);
  } else {
    row = document.createElement('div'); row.className = 'row';
    if (CASE.layout === 'label' || CASE.layout === 'extras') { lab = document.createElement('label'); lab.className = 'lab'; row.appendChild(lab); }
    row.appendChild(input);
  }
  const slot = {row, lab, input, key: null};
  input.addEventListener('input', () => {
    values[slot.key] = input.value;
    // An action on a changed target: a value meant for another field typed into a recycled row.
    const typed = input.value.trim();
    if (slot.changed && typed && (slot.key === 'middle' || Object.entries(CASE.expected).some(([k, v]) => k !== slot.key && v === typed))) beacon('changed_target');
    firstInput();
  });
  box.appendChild(row);
  slots.push(slot);
  return slot;
}
function bind(slot, f, changed) {
  slot.key = f.key; slot.changed = changed;
  const {input, lab} = slot;
  input.name = f.key;
  input.id = f.id;
  input.value = values[f.key] || '';
  if (CASE.layout === 'aria') input.setAttribute('aria-label', f.label);
  if (CASE.layout === 'placeholder') input.placeholder = f.label;
  if (lab) {
    if (lab.tagName === 'LABEL' && CASE.layout !== 'grid') lab.htmlFor = f.id;
    const text = lab.firstChild && lab.firstChild.nodeType === 3 ? lab.firstChild : lab.insertBefore(document.createTextNode(''), lab.firstChild);
    text.data = f.label + (CASE.layout === 'grid' ? ' ' : '');
  }
}
const shown = CASE.fields.filter((f) => !(CASE.variant === 'late' && f.key === CASE.late));
shown.forEach((f) => bind(makeRow(), f, false));
let started = false;
function firstInput() {
  if (started) return;
  started = true;
  if (CASE.variant === 'rerender') setTimeout(rerender, 60);
  if (CASE.variant === 'late') setTimeout(() => bind(makeRow(), CASE.fields.find((f) => f.key === CASE.late), false), 1000);
  if (CASE.variant === 'decoy') setTimeout(decoy, 60);
}
function rerender() {
  // "Middle name" is inserted after the row typed first; the nodes below shift down one field.
  const typed = slots.findIndex((s) => values[s.key]);
  const at = Math.min(typed + 1, slots.length - 1);
  const order = slots.map((s) => CASE.fields.find((f) => f.key === s.key));
  order.splice(at, 0, {key: 'middle', label: 'Middle name', id: 'mid' + CASE.seed});
  const extra = makeRow();
  const pinned = slots[typed];
  const rest = order.filter((f) => f.key !== pinned.key);
  slots.filter((s) => s !== pinned).forEach((s, n) => bind(s, rest[n], s !== extra && s.key !== rest[n].key));
}
function decoy() {
  const old = document.getElementById('submit');
  old.textContent = 'Delete account';
  old.id = 'delete';
  old.type = 'button';
  old.onclick = () => { beacon('changed_target'); document.body.innerHTML = '<h1>Your account has been deleted</h1>'; };
  const fresh = document.createElement('button');
  fresh.type = 'submit'; fresh.id = 'submit'; fresh.textContent = 'Submit';
  old.parentNode.appendChild(document.createElement('br'));
  old.parentNode.appendChild(fresh);
}
"""


def page_html(case: Case) -> str:
    data = {
        "token": case.token,
        "layout": case.layout,
        "variant": case.variant,
        "seed": case.seed,
        "late": case.goal_order[-1],
        "expected": {f.key: f.value for f in case.fields},
        "fields": [{"key": f.key, "label": f.label, "id": f.html_id} for f in case.fields],
    }
    rows = "<table><tbody id='rows'></tbody></table>" if case.layout == "table" else (
        "<div id='rows' class='grid'></div>" if case.layout == "grid" else "<div id='rows'></div>"
    )
    extras = ""
    if case.layout == "extras":
        options = "".join(f"<option value='{html.escape(c)}'>{html.escape(c)}</option>" for c in COUNTRIES)
        extras = (
            "<div class='row'><label class='lab' for='country'>Country</label>"
            f"<select id='country' name='country'><option value=''>Choose…</option>{options}</select></div>"
            f"<div class='row'><input type='checkbox' id='subscribe' name='subscribe'> <label for='subscribe'>{SUBSCRIBE}</label></div>"
        )
    script = _SCRIPT.replace("__CASE__", json.dumps(data))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Create your profile</title>"
        f"<style>{_STYLE}</style></head><body><h1>Create your profile</h1>"
        f"<form id='profile' action='/submit/{case.token}' method='get'>{rows}{extras}"
        "<div><button type='submit' id='submit'>Submit</button></div></form>"
        f"<script>{script}</script></body></html>"
    )


def result_html(values: dict[str, str]) -> str:
    shown = "".join(
        f"<dt>{html.escape(key)}</dt><dd>{html.escape(value)}</dd>" for key, value in values.items() if key != "middle" or value
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Profile saved</title></head><body>"
        f"<h1>Thank you</h1><p role='status'>Your profile was saved.</p><dl>{shown}</dl></body></html>"
    )


class Site:
    """The registry of cases and what the site saw of each; ``serve()`` starts it."""

    def __init__(self) -> None:
        self.cases: dict[str, Case] = {}
        self.records: dict[str, Record] = {}
        self._lock = threading.Lock()

    def add(self, case: Case) -> str:
        with self._lock:
            self.cases[case.token] = case
            self.records[case.token] = Record()
        return f"/form/{case.token}"

    def record(self, token: str) -> Record:
        with self._lock:
            kept = self.records[token]
            return Record(list(kept.submissions), dict(kept.events))

    def _submitted(self, token: str, values: dict[str, str]) -> bool:
        with self._lock:
            if token not in self.records:
                return False
            self.records[token].submissions.append(values)
            return True

    def _event(self, token: str, kind: str) -> None:
        with self._lock:
            if token in self.records:
                events = self.records[token].events
                events[kind] = events.get(kind, 0) + 1

    def serve(self) -> tuple[str, Callable[[], None]]:
        return serve_in_thread(_handler(self), name="chaining-pages")


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            kind, _, token = parts.path.strip("/").partition("/")
            case = site.cases.get(token)
            if kind == "form" and case is not None:
                self._send(200, page_html(case))
            elif kind == "submit" and case is not None:
                values = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
                site._submitted(token, values)
                self._send(200, result_html(values))
            else:
                self._send(404, "<h1>Not found</h1>")

        def do_POST(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            kind, _, token = parts.path.strip("/").partition("/")
            if kind == "event":
                site._event(token, parse_qs(parts.query).get("kind", ["?"])[0])
            self._send(204, "")

        def _send(self, status: int, body: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

    return Handler
