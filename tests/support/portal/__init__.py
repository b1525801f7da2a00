"""Acme Portal: a small multi-page web app written for the end-to-end tests, whose server
records what REALLY happened (logins, searches, saved settings, row actions, failed reports).

``portal = Portal(); url, stop = serve_portal(portal)``; every page exists in two layouts,
``/a/...`` (classic, server-rendered) and ``/b/...`` (app-style, ``fetch`` in place). Ask the
truth with ``portal.events``, ``portal.logged_in_as()``, ``portal.saved_settings()``,
``portal.searches()``, ``portal.row_actions()``…; ``portal.reset()`` restores the seed.
"""

from tests.support.portal.server import COOKIE, INVALID_LOGIN, REPORT_DOWN, serve_portal
from tests.support.portal.state import (
    CATALOGUE,
    INITIAL_SETTINGS,
    LAYOUTS,
    MUTATING,
    PEOPLE,
    ROLES,
    SETTINGS,
    USERS,
    Layout,
    Person,
    Portal,
    Product,
    matching,
)

__all__ = [
    "CATALOGUE",
    "COOKIE",
    "INITIAL_SETTINGS",
    "INVALID_LOGIN",
    "LAYOUTS",
    "MUTATING",
    "PEOPLE",
    "REPORT_DOWN",
    "ROLES",
    "SETTINGS",
    "USERS",
    "Layout",
    "Person",
    "Portal",
    "Product",
    "matching",
    "serve_portal",
]
