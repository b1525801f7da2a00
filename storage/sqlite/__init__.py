"""SQLite backend (the embedded default)."""

from storage.sqlite.connection import path_from_url
from storage.sqlite.store import SqliteStore

__all__ = ["SqliteStore", "path_from_url"]
