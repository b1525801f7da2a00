"""MongoDB backend (PyMongo async API)."""

from storage.mongo.store import DEFAULT_DB_NAME, MongoStore

__all__ = ["DEFAULT_DB_NAME", "MongoStore"]
