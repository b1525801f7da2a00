"""The interact graph's state and its run context.

Nodes read the state and return partial updates. Nothing is written to the database
before ``finalize``: a request killed mid-graph leaves the task as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from agent.complexity import ComplexityResult
from agent.context import AgentDeps, RequestContext
from agent.inputs import InteractInput
from agent.memory.status import MemoryContext, MemoryStatus, RecallState
from agent.policy import ParsedGoal
from agent.progress import TaskProgress
from agent.rag import chunk_texts
from agent.secrets import TaskSecrets
from agent.vision.context import VisionContext
from agent.vision.state import VisionState
from knowledge import RagResult
from planning import Plan
from storage import CorrectionRecord, IdempotencyRecord, Message, Session, Task, TaskAction
from verification import Action, Contract, ExpectedOutcome, PageState, VerificationResult

StepStatus = Literal["active", "completed", "failed", "needs_confirmation"]
DecidedBy = Literal["policy", "model"]


@dataclass(frozen=True)
class Candidate:
    """An action proposed for this step, before validation."""

    action: Action
    thought: str
    decided_by: DecidedBy
    confidence: float
    plan_step: int | None = None
    completes_step: bool = True
    source: Literal["generation", "direct", "correction", "recall", "vision", "contingency"] = "generation"  # recall: a recipe's step (agent.memory); vision: a request for the page (agent.vision); contingency: a plan contingency's handler
    probe: bool = False  # an exploring move (hover a menu item, page a calendar): no effect is information
    chain: tuple[Any, ...] = ()  # a model's (or a recipe's) proposed chain after this action (planning.ChainedAction), judged by agent.chaining
    skills: tuple[str, ...] = ()  # skills that steered this action (agent.memory.skills)
    dialog: Literal["accept"] | None = None  # accept the native confirm it raises (agent.contingency.native)


@dataclass(frozen=True)
class StepOutcome:
    """What this request answers: the next action (or the end of the task)."""

    thought: str
    action: str
    decided_by: DecidedBy
    status: StepStatus = "active"
    expected_outcome: dict[str, Any] | None = None
    failure_code: str | None = None
    failure_reason: str | None = None
    plan_step: int | None = None
    completes_step: bool = True
    probe: bool = False
    flags: tuple[str, ...] = ()
    confirm: dict[str, Any] | None = None  # a destructive action held: the question to the user (agent.destructive)
    chain: tuple[Any, ...] = ()  # the actions sent in a row, the first being ``action`` (agent.chaining.ChainLink)
    skills: tuple[str, ...] = ()  # skills that steered the action (agent.memory.skills)
    dialog: Literal["accept"] | None = None  # the client accepts the native confirm it raises (agent.contingency.native)


@dataclass(frozen=True)
class GraphContext:
    """Run-scoped context (LangGraph ``context``): identity, clients, and the session."""

    request: RequestContext
    deps: AgentDeps
    session: Session
    session_is_new: bool
    history: tuple[Message, ...] = ()
    trace_id: str | None = None
    secrets: TaskSecrets = field(default_factory=TaskSecrets)  # the task's secret values (agent.secrets)
    idempotency: IdempotencyRecord | None = None  # the Idempotency-Key claim finalize completes
    rag: RagResult = field(default_factory=RagResult)  # the request's knowledge (agent.rag), retrieved once
    memory: MemoryContext = field(default_factory=MemoryContext)  # the request's skills and recipes (agent.memory), loaded once
    vision: VisionContext = field(default_factory=VisionContext)  # the request's screenshot and switches (agent.vision)

    @property
    def knowledge(self) -> list[str]:
        """The retrieved chunks as prompt data (untrusted, delimited by the prompt's blocks)."""
        return chunk_texts(self.rag)


class InteractState(TypedDict, total=False):
    # inputs
    input: InteractInput
    page: PageState
    task: Task
    is_new_task: bool
    last_action: TaskAction | None  # the newest step, with the page it was issued on
    previous_actions: list[TaskAction]  # every earlier step, oldest first, without their pages
    # decisions along the way
    goal: ParsedGoal
    complexity: ComplexityResult
    context_source: str
    search_summary: str | None
    plan: Plan | None
    policy_plan: Plan | None  # the plan read with the contract, before any model planned
    contract: Contract  # what "done" means for the task, and where it stands
    progress: TaskProgress
    verification: VerificationResult | None
    goal_achieved: bool  # every clause of the contract holds
    step_succeeded: bool
    velocity_tripped: bool
    candidate: Candidate | None
    fallback: Candidate | None
    critic_needed: bool
    loop_suspected: bool
    correction_attempted: bool
    rejections: list[str]
    pending_retry: str | None
    context_analysis: Any
    search_state: dict[str, Any] | None
    expected_outcome: ExpectedOutcome | None
    corrections: list[CorrectionRecord]
    confirmed: frozenset[str]  # held actions the user confirmed (agent.destructive), sent as they were
    chain_verdict: Any  # the previous step's chain, each action verified (agent.chaining.ChainVerdict)
    chain_recovery: Any  # what to do after a chain that stopped early (agent.chaining.Recovery)
    memory: MemoryStatus  # what memory did for this step (agent.memory): replay status, skills used
    recall: RecallState | None  # the recipe this task replays (None: stop replaying)
    sub_task_completed: tuple[int, ...]  # sub-tasks this page showed done (agent.subtasks)
    subtask_wait: bool  # the active sub-task's steps are done, its result not shown yet
    subtask_failed: bool  # a sub-task the page did not show done (or over budget) ended the task
    vision: VisionState  # screenshots sent and page requests made in this task (agent.vision)
    needs_screenshot: bool  # this answer asks the client for a screenshot
    needs_full_dom: bool  # this answer asks the client for the full DOM
    contingency: dict[str, Any] | None  # the contingency fired for this answer (agent.contingency), read by the router
    contingency_log: dict[str, Any] | None  # the task's contingency runs after this answer (task.state["contingencies"])
    dialog_note: str | None  # a native confirm the page asked and the client dismissed, said in the answer's thought
    # outputs
    outcome: StepOutcome
    needs_user_input: dict[str, Any] | None
    stored_task: Task | None
