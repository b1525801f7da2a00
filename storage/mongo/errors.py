"""Driver errors -> storage errors, and the transaction runner."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from pymongo.errors import BulkWriteError, ConnectionFailure, DuplicateKeyError, PyMongoError
from pymongo.read_concern import ReadConcern
from pymongo.write_concern import WriteConcern

from storage.errors import DuplicateKey, StorageError, StoreUnavailable

P = ParamSpec("P")
T = TypeVar("T")
C = TypeVar("C", bound=type)

DUPLICATE_KEY = 11000
MAJORITY = WriteConcern("majority")


def is_duplicate_key(exc: BaseException) -> bool:
    if isinstance(exc, DuplicateKeyError):
        return True
    if isinstance(exc, BulkWriteError):
        return any(e.get("code") == DUPLICATE_KEY for e in exc.details.get("writeErrors", []))
    return False


def translate(exc: PyMongoError) -> StorageError:
    if is_duplicate_key(exc):
        return DuplicateKey(str(exc))
    if isinstance(exc, ConnectionFailure):
        return StoreUnavailable(f"MongoDB unreachable: {exc}")
    return StorageError(f"MongoDB: {exc}")


def _wrap(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except PyMongoError as exc:
            raise translate(exc) from exc

    return wrapper


#: Method decorator: the coroutine raises storage errors, never driver errors.
translating = _wrap


def translated(cls: C) -> C:
    """Class decorator: public coroutine methods raise storage errors, never driver errors."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _wrap(member))
    return cls


class Transactions:
    """Runs a callback in a multi-document transaction (snapshot reads, majority writes).

    ``with_transaction`` retries the whole callback on ``TransientTransactionError`` (for
    instance a write conflict with a concurrent finalize), so callbacks must only write.
    """

    def __init__(self, client: Any) -> None:
        self._client = client

    async def run(self, callback: Callable[[Any], Awaitable[T]]) -> T:
        async with self._client.start_session() as session:
            return await session.with_transaction(
                callback, read_concern=ReadConcern("snapshot"), write_concern=MAJORITY
            )
