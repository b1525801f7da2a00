"""Pick the backend from settings: MongoDB when a URI is set, else the SQLite file."""

from __future__ import annotations

from storage.base import Store
from storage.mongo import DEFAULT_DB_NAME, MongoStore
from storage.sqlite import SqliteStore

DEFAULT_DATABASE_URL = "sqlite:///./data/stepwise.db"


def open_store(
    database_url: str = DEFAULT_DATABASE_URL,
    mongodb_uri: str | None = None,
    *,
    mongo_db_name: str = DEFAULT_DB_NAME,
) -> Store:
    """Build (not yet initialise) the store. Call ``await store.init()`` in the lifespan.

    No I/O happens here: the SQLite file is opened, and the MongoDB client connects, on
    first use.
    """
    if mongodb_uri:
        return MongoStore.from_uri(mongodb_uri, mongo_db_name)
    return SqliteStore.from_url(database_url)
