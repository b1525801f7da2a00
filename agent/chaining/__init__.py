"""Action chaining (spec "Batch & Adapt, Task 1"): several safe actions in one answer.

* :mod:`~agent.chaining.rules` — which actions may run in a row (pure);
* :mod:`~agent.chaining.build` — chains from the policy's plan and from a model's answer;
* :mod:`~agent.chaining.links` — a chain as stored with its step and as sent;
* :mod:`~agent.chaining.report` — the client's account of the chain it ran;
* :mod:`~agent.chaining.verify` — every action the client ran, verified from the page;
* :mod:`~agent.chaining.recovery` — retry, skip or regenerate after a chain stopped early.
"""

from agent.chaining.build import Vet, model_chain, policy_chain
from agent.chaining.links import ChainLink, chain_metadata, stored_chain
from agent.chaining.recovery import Recovery, choose_recovery
from agent.chaining.report import ChainReport, read_report
from agent.chaining.verify import ChainVerdict, verify_chain

__all__ = [
    "ChainLink",
    "ChainReport",
    "ChainVerdict",
    "Recovery",
    "Vet",
    "chain_metadata",
    "choose_recovery",
    "model_chain",
    "policy_chain",
    "read_report",
    "stored_chain",
    "verify_chain",
]
