"""One SQLite connection owned by one worker thread.

Every call runs on a single-thread executor, so the event loop never blocks on the
database and the connection is never shared between threads (no locks to get wrong).
Calls from one ``SqliteDatabase`` are serialised; several processes (or several stores)
on one file coordinate through SQLite's own locking: WAL mode, ``busy_timeout`` and
``BEGIN IMMEDIATE`` for every multi-statement write.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from storage.errors import DuplicateKey, StorageError, StoreUnavailable

T = TypeVar("T")
P = ParamSpec("P")

MEMORY = ":memory:"
DEFAULT_BUSY_TIMEOUT_MS = 5000

_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_UNIQUE_CODES = frozenset({sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY})


def path_from_url(url: str) -> str:
    """``sqlite:///./rel.db`` -> ``./rel.db``; ``sqlite:////abs.db`` -> ``/abs.db``;
    ``sqlite://`` or ``sqlite:///:memory:`` -> in-memory."""
    if url in ("sqlite://", f"sqlite:///{MEMORY}"):
        return MEMORY
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise ValueError(f"not a SQLite URL (expected sqlite:///path): {url!r}")
    path = url[len(prefix) :].split("?", 1)[0]
    if not path:
        raise ValueError(f"SQLite URL has no path: {url!r}")
    return path


def is_unique_violation(exc: sqlite3.IntegrityError) -> bool:
    return exc.sqlite_errorcode in _UNIQUE_CODES


def _translate(exc: sqlite3.Error) -> StorageError:
    if isinstance(exc, sqlite3.IntegrityError) and is_unique_violation(exc):
        return DuplicateKey(str(exc))
    if isinstance(exc, sqlite3.OperationalError) and (exc.sqlite_errorcode & 0xFF) in _BUSY_CODES:
        return StoreUnavailable(f"SQLite database is busy: {exc}")
    return StorageError(f"SQLite: {exc}")


class SqliteDatabase:
    """A file (or in-memory) database reached through one worker thread."""

    def __init__(self, path: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self.path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stepwise-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    # -- running work ------------------------------------------------------------------
    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn(*args)`` on the database thread; ``fn`` may call :meth:`conn`."""
        if self._closed:
            raise StoreUnavailable("the SQLite store is closed")
        loop = asyncio.get_running_loop()
        job = functools.partial(self._call, fn, *args, **kwargs)
        return await loop.run_in_executor(self._executor, job)

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except sqlite3.Error as exc:
            raise _translate(exc) from exc

    def conn(self) -> sqlite3.Connection:
        """The connection; only valid on the database thread (inside :meth:`run`)."""
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        if self.path != MEMORY:
            Path(self.path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            self.path if self.path == MEMORY else str(Path(self.path).expanduser()),
            timeout=self._busy_timeout_ms / 1000,
            isolation_level=None,  # autocommit; transactions are explicit BEGIN IMMEDIATE
            check_same_thread=True,
        )
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    # -- helpers for code already on the database thread -------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls back and propagates."""
        conn = self.conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- one-statement conveniences ----------------------------------------------------
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return await self.run(lambda: self.conn().execute(sql, params).fetchone())

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self.run(lambda: self.conn().execute(sql, params).fetchall())

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one write statement; returns the number of rows it changed."""
        return await self.run(lambda: self.conn().execute(sql, params).rowcount)

    # -- lifecycle ---------------------------------------------------------------------
    async def close(self) -> None:
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._close_conn)
        self._closed = True
        self._executor.shutdown(wait=False)

    def _close_conn(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
