"""SQLite chunk vectors: float32 blobs, searched by cosine in numpy over a cached matrix.

The matrix of one tenant's vectors of one model+dimension is cached per store and tagged
with the tenant's knowledge version (``knowledge_versions``), which every knowledge write
bumps in its own transaction. Each search reads the version first (one indexed row) in the
same read transaction as any reload, so a write by another process is seen at once.
The product itself runs off the database thread (numpy releases the GIL), so a search does
not hold up the store's other calls; the chunks it finds are then read live.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

import numpy as np

from storage._knowledge import ID_BATCH, VectorCache, VectorMatrix, as_blob
from storage.knowledge_models import ChunkVector
from storage.sqlite.codec import CHUNKS, load_json
from storage.sqlite.connection import SqliteDatabase

_LOAD = (
    "SELECT v.chunk_seq, c.domains, v.vector FROM knowledge_vectors AS v"
    " JOIN knowledge_chunks AS c ON c.seq = v.chunk_seq"
    " WHERE v.tenant_id = ? AND v.model = ? AND v.dimension = ? AND c.superseded_by IS NULL"
)


def bump_version(conn: sqlite3.Connection, tenant_id: str) -> None:
    """Call inside the write's transaction: caches of the tenant's vectors are now stale."""
    conn.execute(
        "INSERT INTO knowledge_versions (tenant_id, version) VALUES (?, 1)"
        " ON CONFLICT (tenant_id) DO UPDATE SET version = version + 1",
        (tenant_id,),
    )


def read_version(conn: sqlite3.Connection, tenant_id: str) -> int:
    row = conn.execute("SELECT version FROM knowledge_versions WHERE tenant_id = ?", (tenant_id,)).fetchone()
    return 0 if row is None else int(row[0])


def seqs_of(conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str]) -> dict[str, int]:
    """Chunk id -> seq for the tenant's chunks among ``ids``."""
    out: dict[str, int] = {}
    for start in range(0, len(ids), ID_BATCH):
        batch = list(ids[start : start + ID_BATCH])
        marks = ", ".join("?" for _ in batch)
        sql = f"SELECT id, seq FROM knowledge_chunks WHERE tenant_id = ? AND id IN ({marks})"
        out.update((row[0], int(row[1])) for row in conn.execute(sql, (tenant_id, *batch)))
    return out


class SqliteVectorIndex:
    """Runs on the database thread (inside ``SqliteDatabase.run``)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._cache = VectorCache()

    def put(self, tenant_id: str, vectors: list[ChunkVector]) -> None:
        with self._db.transaction() as conn:
            seqs = seqs_of(conn, tenant_id, [v.chunk_id for v in vectors])
            missing = sorted({v.chunk_id for v in vectors} - set(seqs))
            if missing:
                raise ValueError(f"no chunk of tenant {tenant_id!r} has id {missing[0]!r}")
            conn.executemany(
                "INSERT OR REPLACE INTO knowledge_vectors (tenant_id, model, dimension, chunk_seq, vector)"
                " VALUES (?, ?, ?, ?, ?)",
                [(tenant_id, v.model, v.dimension, seqs[v.chunk_id], as_blob(v.vector)) for v in vectors],
            )
            bump_version(conn, tenant_id)

    def matrix(self, tenant_id: str, model: str, dimension: int) -> VectorMatrix:
        """The tenant's current matrix: the cached one if the version still matches."""
        conn = self._db.conn()
        conn.execute("BEGIN")  # one snapshot: the version and the vectors agree
        try:
            version = read_version(conn, tenant_id)
            cached = self._cache.get(tenant_id, model, dimension, version)
            if cached is not None:
                return cached
            rows = _rows(conn.execute(_LOAD, (tenant_id, model, dimension)))
            built = VectorMatrix.build(version, rows, dimension)
        finally:
            conn.execute("COMMIT")
        self._cache.put(tenant_id, model, dimension, built)
        return built

    def chunks(self, tenant_id: str, seqs: list[int]) -> dict[int, sqlite3.Row]:
        """The live chunks among ``seqs``: one superseded or deleted since is left out."""
        if not seqs:
            return {}
        marks = ", ".join("?" for _ in seqs)
        sql = (
            f"SELECT seq, {CHUNKS.select} FROM knowledge_chunks"
            f" WHERE tenant_id = ? AND superseded_by IS NULL AND seq IN ({marks})"
        )
        return {int(row["seq"]): row for row in self._db.conn().execute(sql, (tenant_id, *seqs))}


def _rows(cursor: sqlite3.Cursor) -> Iterator[tuple[str, list[str], np.ndarray]]:
    for seq, domains, blob in cursor:
        yield str(seq), load_json(domains), np.frombuffer(blob, dtype=np.float32)
