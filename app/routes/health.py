from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.deps import StoreDep
from app.errors import error_responses

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="Readiness: the database answers", responses=error_responses("STORE_UNAVAILABLE"))
async def readyz(store: StoreDep) -> JSONResponse:
    if await store.ping():
        return JSONResponse({"status": "ready", "database": store.backend})
    return JSONResponse(
        {"error": {"code": "STORE_UNAVAILABLE", "message": "The database is not reachable", "details": {"database": store.backend}}},
        status_code=503,
    )
