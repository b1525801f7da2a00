"""Storage errors. Callers map them to HTTP statuses at the edge."""


class StorageError(Exception):
    """The store could not do what was asked."""


class TaskConflict(StorageError):
    """Another request changed the task first (version guard), or the task id already exists."""

    def __init__(self, task_id: str, expected_version: int | None) -> None:
        super().__init__(f"task {task_id!r} changed since version {expected_version!r}")
        self.task_id = task_id
        self.expected_version = expected_version


class IdempotencyConflict(StorageError):
    """The Idempotency-Key claim a write was to complete is no longer held by that request."""

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} is not held by this request")
        self.key = key


class DuplicateKey(StorageError):
    """A record with the same unique key already exists."""


class StoreUnavailable(StorageError):
    """The database cannot be reached."""
