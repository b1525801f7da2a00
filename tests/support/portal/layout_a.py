"""Layout A: a classic server-rendered portal. Top navigation, ``<label>``ed fields, full-page
form posts, a ``<table>`` of people, ARIA live regions for messages (``role=alert`` /
``role=status``)."""

from __future__ import annotations

from html import escape

from tests.support.portal.state import ROLES, SETTINGS, USERS, Person, Product, matching

NAV = (
    ("/a/", "Home"),
    ("/a/search", "Search"),
    ("/a/settings", "Settings"),
    ("/a/people", "People"),
    ("/a/reports", "Reports"),
)


def _current(href: str, current: str) -> str:
    return ' aria-current="page"' if href == current else ""


def document(title: str, main: str, *, user: str | None, current: str = "") -> str:
    links = "".join(f'<li><a href="{href}"{_current(href, current)}>{label}</a></li>' for href, label in NAV)
    account = (
        f'<span class="account">Signed in as {escape(USERS[user][1])} · <a href="/a/logout">Sign out</a></span>'
        if user
        else '<a class="account" href="/a/login">Sign in</a>'
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{escape(title)} · Acme Portal</title>
  <link rel="stylesheet" href="/static/portal.css">
</head>
<body class="layout-a">
  <header class="topbar">
    <a class="brand" href="/a/">Acme Portal</a>
    <nav aria-label="Main"><ul>{links}</ul></nav>
    {account}
  </header>
  <main>
{main}
  </main>
  <footer class="site-footer">© Acme Corp · <a href="/">Switch layout</a></footer>
</body>
</html>"""


def index(user: str | None) -> str:
    items = "".join(f'<li><a href="{href}">{label}</a></li>' for href, label in NAV[1:])
    return document(
        "Home",
        f"""<h1>Acme Portal</h1>
    <p>Everything you need, in one place.</p>
    <ul class="link-list"><li><a href="/a/login">Sign in</a></li>{items}</ul>""",
        user=user,
        current="/a/",
    )


def login(user: str | None, *, error: str | None = None, username: str = "") -> str:
    alert = f'<p class="alert alert-error" role="alert">{escape(error)}</p>' if error else ""
    return document(
        "Sign in",
        f"""<h1>Sign in to your account</h1>
    <form class="card narrow" method="post" action="/a/login">
      {alert}
      <div class="field">
        <label for="username">Username</label>
        <input id="username" name="username" type="text" autocomplete="username" value="{escape(username)}" required>
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
      </div>
      <button type="submit" class="primary">Sign in</button>
    </form>""",
        user=user,
    )


def home(user: str) -> str:
    return document(
        "Home",
        f"""<h1>Welcome, {escape(USERS[user][1])}</h1>
    <p>You have no new notifications.</p>""",
        user=user,
        current="/a/",
    )


def _price(product: Product) -> str:
    return f"${product.price:,.2f}"


def search(user: str | None, query: str | None) -> str:
    results = ""
    if query is not None:
        found = matching(query)
        if found:
            noun = "result" if len(found) == 1 else "results"
            rows = "".join(
                f'<li><a href="/a/product/{p.id}">{escape(p.name)}</a> <span class="price">{_price(p)}</span></li>'
                for p in found
            )
            results = f"""<section aria-labelledby="results-heading">
      <h2 id="results-heading">{len(found)} {noun} for "{escape(query)}"</h2>
      <ol class="results">{rows}</ol>
    </section>"""
        else:
            results = '<section><h2>No results</h2><p>Try a different search term.</p></section>'
    return document(
        "Search",
        f"""<h1>Search products</h1>
    <form class="search-form" method="get" action="/a/search" role="search">
      <label for="q">Search</label>
      <input id="q" name="q" type="search" value="{escape(query or "")}">
      <button type="submit" class="primary">Search</button>
    </form>
    {results}""",
        user=user,
        current="/a/search",
    )


def product(user: str | None, item: Product) -> str:
    return document(
        item.name,
        f"""<nav aria-label="Breadcrumb" class="breadcrumb"><a href="/a/search">Search</a> › {escape(item.name)}</nav>
    <h1>{escape(item.name)}</h1>
    <p class="price">{_price(item)}</p>
    <p>{escape(item.blurb)}</p>
    <button type="button" class="primary">Add to cart</button>""",
        user=user,
    )


def settings(user: str | None, values: dict[str, bool], *, saved: bool) -> str:
    notice = '<p class="alert alert-success" role="status">Settings saved</p>' if saved else ""
    boxes = "".join(
        f"""<div class="checkbox">
        <input type="checkbox" id="{key}" name="{key}"{" checked" if values[key] else ""}>
        <label for="{key}">{label}</label>
        <span class="hint">{hint}</span>
      </div>"""
        for key, label, hint in SETTINGS
    )
    return document(
        "Settings",
        f"""<h1>Settings</h1>
    {notice}
    <form class="card" method="post" action="/a/settings">
      <fieldset>
        <legend>Notifications and appearance</legend>
        {boxes}
      </fieldset>
      <button type="submit" class="primary">Save</button>
    </form>""",
        user=user,
        current="/a/settings",
    )


def people(user: str | None, rows: list[Person], *, updated: Person | None = None) -> str:
    notice = f'<p class="alert alert-success" role="status">{escape(updated.name)} updated</p>' if updated else ""
    body = "".join(_person_row(p) for p in rows)
    return document(
        "People",
        f"""<h1>People</h1>
    {notice}
    <table class="data">
      <caption class="visually-hidden">Team members</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>{body}</tbody>
    </table>""",
        user=user,
        current="/a/people",
    )


def _person_row(p: Person) -> str:
    toggle = ("deactivate", "Deactivate", "danger") if p.active else ("activate", "Activate", "")
    status = '<span class="badge ok">Active</span>' if p.active else '<span class="badge off">Inactive</span>'
    return f"""
        <tr data-person-id="{p.id}">
          <td>{escape(p.name)}</td><td>{escape(p.email)}</td><td>{escape(p.role)}</td><td>{status}</td>
          <td>
            <form class="row-actions" method="post" action="/a/people/{p.id}/{toggle[0]}">
              <button type="submit" formaction="/a/people/{p.id}/edit" formmethod="get">Edit</button>
              <button type="submit" class="{toggle[2]}">{toggle[1]}</button>
            </form>
          </td>
        </tr>"""


def edit_person(user: str | None, p: Person) -> str:
    options = "".join(f'<option{" selected" if r == p.role else ""}>{r}</option>' for r in ROLES)
    return document(
        f"Edit {p.name}",
        f"""<h1>Edit {escape(p.name)}</h1>
    <form class="card narrow" method="post" action="/a/people/{p.id}/edit">
      <div class="field"><label for="name">Name</label><input id="name" value="{escape(p.name)}" readonly></div>
      <div class="field"><label for="role">Role</label><select id="role" name="role">{options}</select></div>
      <div class="actions"><button type="submit" class="primary">Save</button> <a href="/a/people">Cancel</a></div>
    </form>""",
        user=user,
        current="/a/people",
    )


def reports(user: str | None, *, error: str | None = None) -> str:
    alert = f'<p class="alert alert-error" role="alert">{escape(error)}</p>' if error else ""
    return document(
        "Reports",
        f"""<h1>Reports</h1>
    {alert}
    <form class="card" method="post" action="/a/reports/generate">
      <div class="field">
        <label for="period">Period</label>
        <select id="period" name="period"><option>Monthly</option><option>Quarterly</option><option>Yearly</option></select>
      </div>
      <div class="actions">
        <button type="submit" class="primary">Generate report</button>
        <button type="button" disabled title="No report to export yet">Export CSV</button>
      </div>
    </form>
    <p class="hint">Generated reports appear here. Nothing generated yet.</p>""",
        user=user,
        current="/a/reports",
    )


def not_found(user: str | None) -> str:
    return document("Not found", "<h1>Page not found</h1>", user=user)

