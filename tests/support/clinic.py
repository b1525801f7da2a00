"""A three-page clinic app as the extension would send it: menu → "New patient" form →
patients list with a "saved" toast. HTML pages carry the client-injected data-llm-id."""

from __future__ import annotations

BASE = "https://clinic.example"
MENU_URL = f"{BASE}/"
FORM_URL = f"{BASE}/patients/new"
LIST_URL = f"{BASE}/patients"


def _page(title: str, main: str, *, clock: str = "09:00", banner: str = "") -> str:
    return f"""<!doctype html><html><head><title>{title}</title>
<script>window.analytics = {{ id: "{clock}" }};</script></head><body>
<header><span class="clock">{clock}</span>{banner}
<nav>
  <a data-llm-id="1" href="/">Home</a>
  <a data-llm-id="2" href="/patients">Patients</a>
  <a data-llm-id="3" href="/appointments">Appointments</a>
</nav></header>
<main>{main}</main></body></html>"""


def menu_page(*, clock: str = "09:00", banner: str = "") -> str:
    return _page(
        "Clinic — Home",
        """<h1>Welcome</h1>
        <ul class="menu">
          <li><a data-llm-id="10" href="/patients/new">New patient</a></li>
          <li><a data-llm-id="11" href="/appointments/new">New appointment</a></li>
        </ul>""",
        clock=clock,
        banner=banner,
    )


def form_page(*, name: str = "", error: str | None = None, clock: str = "09:00", extra: str = "") -> str:
    err = f'<p class="error" role="alert">{error}</p>' if error else ""
    return _page(
        "Clinic — New patient",
        f"""<h1>New patient</h1>
        <form>
          <label for="name">Name</label>
          <input data-llm-id="20" id="name" name="name" value="{name}" required>
          <label for="dob">Date of birth</label>
          <input data-llm-id="21" id="dob" name="dob" type="date" value="">
          {err}
          <button data-llm-id="22" type="submit">Save</button>
          <a data-llm-id="23" href="/patients">Cancel</a>
        </form>{extra}""",
        clock=clock,
    )


def list_page(*, saved: str | None = None, rows: tuple[str, ...] = ("Ada", "Grace"), clock: str = "09:00") -> str:
    toast = f'<div class="toast success" role="status">Patient {saved} saved</div>' if saved else ""
    names = [*rows, *([saved] if saved else [])]
    body = "".join(f"<tr><td>{n}</td></tr>" for n in names)
    return _page(
        "Clinic — Patients",
        f"""{toast}<h1>Patients</h1>
        <a data-llm-id="30" href="/patients/new">New patient</a>
        <table><tbody>{body}</tbody></table>""",
        clock=clock,
    )
