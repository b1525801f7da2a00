"""A replayed chain the client cut short resumes the recipe at its first step that did not run."""

from __future__ import annotations

from agent.memory.status import RecallState


def test_a_chain_cut_short_resumes_at_the_first_step_not_run() -> None:
    # steps 0-2 were sent as one chain; only step 0 ran (an overlay covered the page)
    sent = RecallState("r", next_step=3, fallbacks=0, served=[0, 1, 2])
    resumed = sent.rewound(0, 1)
    assert resumed.next_step == 1 and resumed.served == [0] and resumed.recipe_id == "r"


def test_a_chain_that_ran_through_or_not_at_all_is_left_alone() -> None:
    sent = RecallState("r", next_step=3, fallbacks=1, served=[0, 1, 2])
    assert sent.rewound(0, 3) is sent  # every step ran
    assert sent.rewound(0, 0) is sent  # nothing ran: the failed replay is judged, not rewound
    assert sent.rewound(None, 1) is sent
