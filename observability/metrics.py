"""Prometheus metrics: one ``CollectorRegistry`` per app (tests never collide); with several
worker processes, prometheus_client's multi-process mode sums them (see :meth:`Metrics.render`).

Names (all prefixed ``stepwise_``) are the contract with dashboards and alerts; see
docs/observability.md. Label values are bounded: route *templates*, node names, purposes,
canonical model names, task statuses, tiers, strategies.
"""

from __future__ import annotations

import os
from decimal import Decimal

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector

NAMESPACE = "stepwise"

#: Request latency: SIMPLE target < 2 s, p95 target < 7 s, alert > 10 s.
REQUEST_BUCKETS = (
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.0,
    4.0,
    7.0,
    10.0,
    15.0,
    30.0,
    60.0,
)
NODE_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 7.0, 10.0, 30.0)
MODEL_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)

UNMATCHED_ROUTE = "<unmatched>"


class Metrics:
    """Every metric Stepwise exports, registered on its own registry."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        self.http_request_duration = Histogram(
            "http_request_duration_seconds",
            "HTTP request latency by route template, method and status code.",
            ["method", "route", "status"],
            namespace=NAMESPACE,
            registry=r,
            buckets=REQUEST_BUCKETS,
        )
        self.node_duration = Histogram(
            "graph_node_duration_seconds",
            "Duration of one interact-graph node run.",
            ["node", "outcome"],
            namespace=NAMESPACE,
            registry=r,
            buckets=NODE_BUCKETS,
        )
        self.verifications = Counter(
            "verifications",
            "Verification verdicts by tier (1 deterministic, 2 short verdict, 3 full) and result.",
            ["tier", "result"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.model_calls = Counter(
            "model_calls",
            "Billed model calls (one per HTTP attempt that returned an answer).",
            ["purpose", "model", "outcome"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.model_tokens = Counter(
            "model_tokens",
            "Model tokens by kind: input (whole prompt, cached included), cached, output,"
            " thinking.",
            ["purpose", "model", "kind"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.model_cost = Counter(
            "model_cost_usd",
            "Model cost in USD from the pricing table (unpriced calls excluded).",
            ["purpose", "model"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.model_unpriced_calls = Counter(
            "model_unpriced_calls",
            "Model calls whose model has no price in cost/pricing.py (cost unknown).",
            ["model"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.model_latency = Histogram(
            "model_call_duration_seconds",
            "Latency of one billed model attempt.",
            ["purpose", "model"],
            namespace=NAMESPACE,
            registry=r,
            buckets=MODEL_BUCKETS,
        )
        self.tasks_finished = Counter(
            "tasks_finished",
            "Tasks reaching a final status.",
            ["status"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.corrections = Counter(
            "corrections",
            "Self-corrections by strategy and outcome (applied, succeeded, failed).",
            ["strategy", "outcome"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.chains_sent = Counter(
            "chains_sent",
            "Answers that sent a chain of actions, and the actions in them (label kind: chains | actions).",
            ["kind"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.chains = Counter(
            "chains",
            "Chains verified on the next request: complete (every action ran and holds), partial, failed (the first did not hold).",
            ["result"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.chain_actions = Counter(
            "chain_actions",
            "Actions of verified chains by status (verified, unproven, failed, not_run, skipped).",
            ["status"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.chain_partial_failures = Counter(
            "chain_partial_failures",
            "Chains that stopped early, by the index (from 0) of the action that stopped them.",
            ["index"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.chain_recoveries = Counter(
            "chain_recoveries",
            "Recoveries after a chain stopped early, by strategy (retry, skip, regenerate) and outcome (applied, succeeded, failed).",
            ["strategy", "outcome"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.skill_retrievals = Counter(
            "skill_retrievals",
            "Decisions that looked for skills, by whether an admitted skill applied to the goal (hit: yes | no).",
            ["hit"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.skill_uses = Counter(
            "skill_uses",
            "Skills that steered an action (applied), and how the verifier judged it (succeeded, failed).",
            ["result"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.replay_steps = Counter(
            "replay_steps",
            "Answers by memory replay status (HIT, MISS, FALLBACK, DISABLED).",
            ["result"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.memory_saved = Counter(
            "memory_saved",
            "Round trips and model tokens a replayed task did not spend, against its recipe's first verified run (kind: round_trips | tokens).",
            ["kind"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.contingencies = Counter(
            "contingencies",
            "Plan contingencies fired (an overlay, cookie banner, interstitial… handled before correction), by trigger and handler.",
            ["trigger", "handler"],
            namespace=NAMESPACE,
            registry=r,
        )
        self.usage_write_failures = Counter(
            "usage_write_failures",
            "Usage records that could not be written, by sink (store = billing row lost).",
            ["sink"],
            namespace=NAMESPACE,
            registry=r,
        )

    # --- recording ---------------------------------------------------------------------

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.http_request_duration.labels(method, route, str(status)).observe(seconds)

    def observe_node(self, node: str, seconds: float, outcome: str) -> None:
        self.node_duration.labels(node, outcome).observe(seconds)

    def count_verification(self, tier: int, result: str) -> None:
        self.verifications.labels(str(tier), result).inc()

    def count_model_call(
        self,
        *,
        purpose: str,
        model: str,
        outcome: str,
        input_tokens: int,
        output_tokens: int,
        cached_tokens: int,
        thinking_tokens: int,
        cost_usd: Decimal | None,
        seconds: float,
    ) -> None:
        self.model_calls.labels(purpose, model, outcome).inc()
        for kind, value in (
            ("input", input_tokens),
            ("cached", cached_tokens),
            ("output", output_tokens),
            ("thinking", thinking_tokens),
        ):
            if value:
                self.model_tokens.labels(purpose, model, kind).inc(value)
        if cost_usd is None:
            self.model_unpriced_calls.labels(model).inc()
        else:
            self.model_cost.labels(purpose, model).inc(float(cost_usd))
        self.model_latency.labels(purpose, model).observe(seconds)

    def count_task_finished(self, status: str) -> None:
        self.tasks_finished.labels(status).inc()

    def count_correction(self, strategy: str, outcome: str) -> None:
        self.corrections.labels(strategy, outcome).inc()

    def count_chain_sent(self, actions: int) -> None:
        self.chains_sent.labels("chains").inc()
        self.chains_sent.labels("actions").inc(actions)

    def count_chain(self, result: str, statuses: list[str], stopped_at: int | None) -> None:
        self.chains.labels(result).inc()
        for status in statuses:
            self.chain_actions.labels(status).inc()
        if stopped_at is not None:
            self.chain_partial_failures.labels(str(stopped_at)).inc()

    def count_chain_recovery(self, strategy: str, outcome: str) -> None:
        self.chain_recoveries.labels(strategy, outcome).inc()

    def count_skill_retrieval(self, hit: bool) -> None:
        self.skill_retrievals.labels("yes" if hit else "no").inc()

    def count_skill_use(self, result: str, n: int = 1) -> None:
        self.skill_uses.labels(result).inc(n)

    def count_replay_step(self, result: str) -> None:
        self.replay_steps.labels(result).inc()

    def count_contingency(self, trigger: str, handler: str) -> None:
        self.contingencies.labels(trigger, handler).inc()

    def count_memory_saved(self, round_trips: int, tokens: int) -> None:
        self.memory_saved.labels("round_trips").inc(max(round_trips, 0))
        self.memory_saved.labels("tokens").inc(max(tokens, 0))

    def count_usage_write_failure(self, sink: str) -> None:
        self.usage_write_failures.labels(sink).inc()

    # --- exposition --------------------------------------------------------------------

    def render(self, accept: str | None = None) -> tuple[bytes, str]:
        """The registry in the format the scraper asked for (``Accept`` header):
        ``(body, content_type)``. Under ``stepwise serve --workers N`` (prometheus_client's
        multi-process mode, ``PROMETHEUS_MULTIPROC_DIR``) every worker's values, summed:
        a scrape reaches one worker but reports the whole server."""
        encoder, content_type = choose_encoder(accept or "")
        directory = multiprocess_dir()
        if directory is None:
            return encoder(self.registry), content_type
        merged = CollectorRegistry()
        MultiProcessCollector(merged, path=directory)
        return encoder(merged), content_type


def multiprocess_dir() -> str | None:
    """prometheus_client's multi-process directory, when this process runs in that mode."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or os.environ.get("prometheus_multiproc_dir") or None
