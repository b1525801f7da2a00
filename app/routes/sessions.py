"""Sessions, their message log and tasks, and task recovery for a lost tab."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

import agent
from app.json_body import JsonRoute
from app.deps import Context, Deps, bind_path_ids
from app.error_codes import AUTHENTICATED, JSON_BODY
from app.errors import error_responses
from app.schemas.tasks import (
    ActiveTaskOut,
    MessageOut,
    MessagesOut,
    SessionCreateIn,
    SessionOut,
    SessionTasksOut,
    TaskSummaryOut,
)
from storage import Session

router = APIRouter(prefix="/api/session", tags=["sessions"], route_class=JsonRoute)
SessionId = Annotated[str, Path(description="The session's id (`sessionId` of an answer)")]
_NOT_FOUND = error_responses(*AUTHENTICATED, "VALIDATION_FAILED", "SESSION_NOT_FOUND")


def _session_out(session: Session) -> SessionOut:
    return SessionOut(
        session_id=session.id,
        status=session.status,
        url=session.url,
        title=session.title,
        created_at=session.created_at,
        updated_at=session.updated_at,
    )


@router.post("", status_code=status.HTTP_201_CREATED, response_model=SessionOut, responses=error_responses(*AUTHENTICATED, *JSON_BODY), summary="Create a session")
async def create_session(ctx: Context, deps: Deps, body: SessionCreateIn | None = None) -> SessionOut:
    body = body or SessionCreateIn()
    session = await agent.create_session(ctx, deps, body.url, body.title)
    return _session_out(session)


@router.get("/{session_id}", response_model=SessionOut, responses=_NOT_FOUND, summary="Load a session")
async def get_session(session_id: SessionId, ctx: Context, deps: Deps) -> SessionOut:
    bind_path_ids(session_id=session_id)
    return _session_out(await agent.get_session(session_id, ctx, deps))


@router.get("/{session_id}/messages", response_model=MessagesOut, responses=_NOT_FOUND, summary="The session's message log")
async def get_messages(
    session_id: SessionId,
    ctx: Context,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=1000, description="At most this many messages, the newest")] = 200,
) -> MessagesOut:
    bind_path_ids(session_id=session_id)
    messages = await agent.session_messages(session_id, ctx, deps, limit)
    return MessagesOut(
        session_id=session_id,
        messages=[
            MessageOut(
                id=m.id,
                role=m.role,
                content=m.content,
                task_id=m.task_id,
                action=m.action,
                action_status=m.action_status,
                action_error=m.action_error,
                created_at=m.created_at,
            )
            for m in messages
        ],
    )


@router.get("/{session_id}/tasks", response_model=SessionTasksOut, responses=_NOT_FOUND, summary="The session's tasks, newest first")
async def get_tasks(session_id: SessionId, ctx: Context, deps: Deps) -> SessionTasksOut:
    bind_path_ids(session_id=session_id)
    tasks = await agent.session_tasks(session_id, ctx, deps)
    return SessionTasksOut(
        session_id=session_id,
        tasks=[TaskSummaryOut.of(t) for t in tasks],
    )


@router.get(
    "/{session_id}/task/active",
    response_model=ActiveTaskOut,
    responses=error_responses(*AUTHENTICATED, "VALIDATION_FAILED", "SESSION_NOT_FOUND", "TASK_NOT_FOUND"),
    summary="Recover the active task of a session (when the client lost its taskId)",
    description="Tasks untouched for longer than the idle limit (30 min) are marked `interrupted` first. "
    "404 when there is no active task: start a new one.",
)
async def get_active_task(
    session_id: SessionId,
    ctx: Context,
    deps: Deps,
    url: Annotated[str | None, Query(max_length=8192, description="Current tab URL")] = None,
) -> ActiveTaskOut:
    bind_path_ids(session_id=session_id)
    task = await agent.find_active_task(session_id, url, ctx, deps)
    return ActiveTaskOut(
        task_id=task.id,
        query=task.query,
        status=task.status,
        current_step_index=task.step_index,
        url=task.url,
        created_at=task.created_at,
        updated_at=task.updated_at,
    )
