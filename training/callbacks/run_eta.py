"""When the run will end: the first step's time (one-time set-up included), then after the second step of a run (or
of a resumed segment) the pace and the time left."""

from __future__ import annotations

import time
from collections.abc import Callable

from transformers import TrainerCallback

from training.core.reporting import duration

REPORTED_STEPS = 2  # the first step includes one-time set-up (on a GPU, compiling the sampler); the second does not


class RunEta(TrainerCallback):
    """Reports each of the first :data:`REPORTED_STEPS` steps' time; from the second on, the run's end at that pace.

    The first step's time is mostly set-up (batch 32: 34 s, then ~1.4 s a step), so no end is projected from it: a
    7-minute run once read "the 309 steps left take 2.9 h". A run of one step left after the first says its end then.
    """

    def __init__(
        self,
        report: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], float] = time.time,
    ):
        self.report = report
        self.clock = clock
        self.now = now
        self._began: float | None = None
        self._reported = 0

    def on_step_begin(self, args, state, control, **kwargs):
        self._began = self.clock()

    def on_step_end(self, args, state, control, **kwargs):
        if self._began is None or self._reported >= REPORTED_STEPS or not state.is_world_process_zero:
            return
        self._reported += 1
        took = self.clock() - self._began
        left = max(0, state.max_steps - state.global_step)
        if left == 0:
            return
        if self._reported == 1 and REPORTED_STEPS > 1 and left > 1:
            self.report(
                f"step {state.global_step} of {state.max_steps} took {duration(took)}, one-time set-up included: "
                "the pace and the run's end follow the next step"
            )
            return
        ends = time.strftime("%a %H:%M", time.localtime(self.now() + took * left))
        steps_left = f"{left} steps left take" if left > 1 else "last step takes"
        self.report(
            f"step {state.global_step} of {state.max_steps} took {duration(took)}: at that pace the "
            f"{steps_left} {duration(took * left)} (ends around {ends})"
        )
