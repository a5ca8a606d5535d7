"""Stop a run at the end of its current step when the process is asked to stop, and still write what it made.

A ``timeout``, a job scheduler's SIGTERM or a Ctrl-C used to kill a run where it stood: no ``final/`` adapter, no
``metrics.jsonl`` or ``summary.json`` in its results folder, only checkpoints. GPU batch 17 lost a stage-1 run's
last 3 minutes and a supervised run's adapter that way (results/grpo/batch-17/README.md). With this callback the first
SIGTERM or SIGINT lets the step finish, saves a checkpoint, and ends training as the time budget does, so the run
writes its final adapter and results. A second signal stops at once, as without it.

One process only: in a run of several processes, each gets the signal on its own schedule and they could stop at
different steps, so there the signals keep their usual meaning.
"""

from __future__ import annotations

import os
import signal

from transformers import TrainerCallback

from training.core.stop_signals import SIGNALS, give_back, take_over


class StopOnSignal(TrainerCallback):
    """Ends training after the step during which SIGTERM or SIGINT arrived (saving first); ``stopped_at`` is the
    step (``summary.json``: ``signal_stopped_at``)."""

    summary_key = "signal_stopped_at"

    def __init__(self, report=print, resume_hint: str = "RESUME=1 continues", signals=SIGNALS):
        self.report = report
        self.resume_hint = resume_hint
        self.signals = tuple(signals)
        self.received: int | None = None
        self.stopped_at: int | None = None
        self._previous: dict = {}

    def _handle(self, signum, frame) -> None:
        if self.received is not None:  # asked twice: the usual meaning (SIGINT raises, SIGTERM ends the process)
            self.restore()
            os.kill(os.getpid(), signum)
            return
        self.received = signum
        self.report(
            f"{signal.Signals(signum).name} received: finishing this step, then saving and writing the final "
            "adapter and the results (send it again to stop at once)"
        )

    def install(self) -> bool:
        """Take over the signals (main thread only); False where it cannot."""
        self._previous = take_over(self._handle, self.signals)
        return bool(self._previous)

    def restore(self) -> None:
        """The signals' handlers as they were before :meth:`install`."""
        give_back(self._previous)
        self._previous = {}

    def on_train_begin(self, args, state, control, **kwargs):
        if getattr(args, "world_size", 1) == 1:
            self.install()

    def on_step_end(self, args, state, control, **kwargs):
        if self.received is not None and self.stopped_at is None:
            self.stopped_at = state.global_step
            control.should_training_stop = True
            control.should_save = True
            self.report(
                f"stopping at step {state.global_step} on {signal.Signals(self.received).name} ({self.resume_hint})"
            )

    def on_train_end(self, args, state, control, **kwargs):
        self.restore()
