"""The interact graph and the services around it."""

from agent.context import AgentConfig, AgentDeps, RequestContext
from agent.errors import StepwiseError
from agent.inputs import InteractInput, InteractOutcome, PageInput
from agent.service import interact
from agent.tasks import (
    TaskDetail,
    cancel_task,
    create_session,
    find_active_task,
    get_session,
    list_tasks,
    session_messages,
    session_tasks,
    task_detail,
)

__all__ = [
    "AgentConfig",
    "AgentDeps",
    "InteractInput",
    "InteractOutcome",
    "PageInput",
    "RequestContext",
    "StepwiseError",
    "TaskDetail",
    "cancel_task",
    "create_session",
    "find_active_task",
    "get_session",
    "interact",
    "list_tasks",
    "session_messages",
    "session_tasks",
    "task_detail",
]
