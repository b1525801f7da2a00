"""API key hashing: the secret is never stored, only its SHA-256."""

from __future__ import annotations

import hashlib


def hash_api_key(secret: str) -> str:
    """SHA-256 hex of the secret key (what ``ApiKey.key_hash`` holds)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
