"""Sunrise Clinic: the small web app the reference client is demonstrated and tested on."""

from client.demo_site.server import DemoSite, serve_demo_site

__all__ = ["DemoSite", "serve_demo_site"]
