"""Layout B: a single-page-app style portal. Sidebar navigation with its own wording,
placeholders instead of labels, icon buttons, ``role="switch"`` toggles, a card list of
people, and ``fetch`` calls (``/static/portal-b.js``) that change the page in place — or,
for the settings, change nothing visible at all."""

from __future__ import annotations

from html import escape

from tests.support.portal.state import ROLES, SETTINGS, USERS, Person, Product

NAV = (
    ("/b/", "Dashboard"),
    ("/b/search", "Catalog"),
    ("/b/settings", "Preferences"),
    ("/b/people", "Team"),
    ("/b/reports", "Analytics"),
)
SEARCH_ICON = (
    '<svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24"><circle cx="11" cy="11" r="7" fill="none" '
    'stroke="currentColor" stroke-width="2"/><path d="M20 20l-4-4" stroke="currentColor" stroke-width="2"/></svg>'
)


def _current(href: str, current: str) -> str:
    return ' class="active"' if href == current else ""


def document(title: str, main: str, *, user: str | None, current: str = "") -> str:
    links = "".join(f'<li><a href="{href}"{_current(href, current)}>{label}</a></li>' for href, label in NAV)
    if user:
        name = escape(USERS[user][1])
        account = f"""<div class="avatar-menu">
        <button type="button" class="avatar" aria-label="{name}" aria-haspopup="menu" aria-expanded="false">{name[0]}</button>
        <ul class="menu" role="menu" hidden>
          <li role="none"><a role="menuitem" href="/b/">Profile</a></li>
          <li role="none"><a role="menuitem" href="/b/logout">Log out</a></li>
        </ul>
      </div>"""
    else:
        account = '<a class="pill" href="/b/login">Log in</a>'
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{escape(title)} — acme</title>
  <link rel="stylesheet" href="/static/portal.css">
  <script src="/static/portal-b.js" defer></script>
</head>
<body class="layout-b">
  <div class="shell">
    <aside class="sidebar">
      <div class="logo">acme</div>
      <ul>{links}</ul>
    </aside>
    <div class="content">
      <div class="topline">{account}</div>
{main}
    </div>
  </div>
</body>
</html>"""


def index(user: str | None) -> str:
    tiles = "".join(f'<a class="tile" href="{href}">{label}</a>' for href, label in NAV[1:])
    return document(
        "Dashboard",
        f"""<h2 class="page-title">Dashboard</h2>
      <div class="tiles"><a class="tile" href="/b/login">Log in</a>{tiles}</div>""",
        user=user,
        current="/b/",
    )


def login(user: str | None, *, error: str | None = None, username: str = "") -> str:
    alert = f'<div class="error">{escape(error)}</div>' if error else ""
    return document(
        "Log in",
        f"""<div class="panel narrow">
        <h2 class="page-title">acme account</h2>
        <form method="post" action="/b/login">
          <input name="username" type="text" placeholder="Username" value="{escape(username)}">
          <input name="password" type="password" placeholder="Password">
          {alert}
          <button type="submit" class="primary wide">Log in</button>
        </form>
      </div>""",
        user=user,
    )


def home(user: str) -> str:
    return document(
        "Dashboard",
        """<div class="tiles"><a class="tile" href="/b/search">Catalog</a><a class="tile" href="/b/people">Team</a></div>""",
        user=user,
        current="/b/",
    )


def search(user: str | None) -> str:
    return document(
        "Catalog",
        f"""<h2 class="page-title">Catalog</h2>
      <form id="search-form" class="searchbar">
        <input id="search-box" name="q" type="text" placeholder="Search products…" autocomplete="off">
        <button type="submit" class="icon" aria-label="Search">{SEARCH_ICON}</button>
      </form>
      <div id="results" aria-live="polite"></div>""",
        user=user,
        current="/b/search",
    )


def product(user: str | None, item: Product) -> str:
    return document(
        item.name,
        f"""<a class="back" href="/b/search">← Back to catalog</a>
      <div class="panel">
        <h2 class="page-title">{escape(item.name)}</h2>
        <div class="price">${item.price:,.2f}</div>
        <p>{escape(item.blurb)}</p>
        <button type="button" class="primary">Buy now</button>
      </div>""",
        user=user,
    )


def settings(user: str | None, values: dict[str, bool]) -> str:
    rows = "".join(
        f"""<div class="switch-row">
          <span id="lbl-{key}">{label}</span>
          <button type="button" role="switch" class="switch" data-key="{key}" aria-checked="{str(values[key]).lower()}" aria-labelledby="lbl-{key}"><span class="knob"></span></button>
        </div>"""
        for key, label, _ in SETTINGS
    )
    return document(
        "Preferences",
        f"""<h2 class="page-title">Account preferences</h2>
      <div class="panel" id="prefs">
        {rows}
        <button type="button" class="primary" id="save-prefs">Save changes</button>
      </div>""",
        user=user,
        current="/b/settings",
    )


def people(user: str | None, rows: list[Person]) -> str:
    return document(
        "Team",
        f"""<h2 class="page-title">Team</h2>
      <div class="cards">{"".join(card(p) for p in rows)}</div>""",
        user=user,
        current="/b/people",
    )


def card(p: Person) -> str:
    action, label = ("deactivate", "Deactivate") if p.active else ("activate", "Activate")
    status = "Active" if p.active else "Inactive"
    return f"""
        <article class="card{"" if p.active else " inactive"}" data-id="{p.id}">
          <h3>{escape(p.name)}</h3>
          <div class="muted">{escape(p.email)}</div>
          <div class="meta"><span class="chip">{escape(p.role)}</span> <span class="status">{status}</span></div>
          <div class="card-actions">
            <button type="button" data-action="edit">Edit</button>
            <button type="button" data-action="{action}">{label}</button>
          </div>
        </article>"""


def edit_person(user: str | None, p: Person) -> str:
    options = "".join(f'<option value="{r}"{" selected" if r == p.role else ""}>{r}</option>' for r in ROLES)
    return document(
        f"Edit {p.name}",
        f"""<a class="back" href="/b/people">← Team</a>
      <div class="panel narrow">
        <h2 class="page-title">{escape(p.name)}</h2>
        <form id="person-form" data-id="{p.id}">
          <div class="field"><span id="role-label">Role</span><select name="role" aria-labelledby="role-label">{options}</select></div>
          <button type="submit" class="primary">Save</button>
        </form>
      </div>""",
        user=user,
        current="/b/people",
    )


def reports(user: str | None) -> str:
    return document(
        "Analytics",
        """<h2 class="page-title">Reports</h2>
      <div class="panel">
        <div class="segmented" role="radiogroup" aria-label="Period">
          <label><input type="radio" name="period" value="Monthly" checked> Monthly</label>
          <label><input type="radio" name="period" value="Quarterly"> Quarterly</label>
        </div>
        <div id="report-error"></div>
        <div class="card-actions">
          <button type="button" class="primary" id="generate-report">Generate report</button>
          <button type="button" disabled>Export CSV</button>
        </div>
      </div>""",
        user=user,
        current="/b/reports",
    )


def not_found(user: str | None) -> str:
    return document("Not found", '<h2 class="page-title">Nothing here</h2>', user=user)
