"""The interact graph and the services around it."""

from agent.context import AgentConfig, AgentDeps, RequestContext
from agent.errors import StepwiseError
from agent.inputs import InteractInput, InteractOutcome, PageInput
from agent.service import interact
from agent.tasks import (
    TaskDetail,
    create_session,
    find_active_task,
    get_session,
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
    "create_session",
    "find_active_task",
    "get_session",
    "interact",
    "session_messages",
    "session_tasks",
    "task_detail",
]
