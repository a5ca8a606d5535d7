"""What a slow GRPO step is doing while it runs: a bar over the rollout's token steps, then a line as the update starts.

On a GPU a step takes about a second and nothing shows (a bar appears only once a rollout has run ``delay`` seconds).
On a CPU a default step takes minutes, and the Trainer's own bar, which counts finished steps, sat at 0/200 all along;
reading the prompts alone (the prefill, before the first token) takes minutes there, so the bar also shows, with its
clock running, before its first token.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from tqdm.auto import tqdm


class StepProgress:
    """Rollout bars and phase lines of one process's training steps (``enabled``: on the main process only)."""

    def __init__(
        self, enabled: bool = True, delay: float = 5.0, report: Callable[[str], None] = print, heartbeat: float = 5.0
    ):
        self.enabled = enabled
        self.delay = delay
        self.report = report
        self.heartbeat = heartbeat  # seconds between redraws of a bar whose count has not moved
        self._step_started: dict[int, float] = {}

    def step_started(self, step: int) -> None:
        """Mark the start of optimizer step ``step`` (its rollouts come first)."""
        self._step_started = {step: time.monotonic()}

    def rollout(self, step: int, completions: int, max_tokens: int, round_: int = 0):
        """A bar of ``max_tokens`` token steps while ``completions`` completions are sampled (``token_bar``); a
        context manager that yields its tick."""
        what = f"step {step}: sampling {completions} completions" + (f" (resampling round {round_})" if round_ else "")
        return token_bar(what, max_tokens, self.delay, self.heartbeat, self.enabled)

    def update_started(self, step: int, completions: int) -> None:
        """Say that the update (loss, backward, optimizer) of ``step`` begins, if the step has been slow so far."""
        started = self._step_started.pop(step, None)  # once per step, though each micro-batch calls this
        if not self.enabled or started is None:
            return
        elapsed = time.monotonic() - started
        if elapsed >= self.delay:
            self.report(
                f"step {step}: {completions} completions sampled and scored in {elapsed:.0f} s; "
                "now the update (forward and backward over them)"
            )


@contextmanager
def token_bar(
    what: str, max_tokens: int, delay: float = 5.0, heartbeat: float = 5.0, enabled: bool = True
) -> Iterator[Callable[[], None]]:
    """A bar named ``what`` of up to ``max_tokens`` token steps, for a batch of completions being decoded (a GRPO
    rollout, a batch of ``make eval``); yields the tick to call after each token step. It shows once it has run
    ``delay`` seconds, and is redrawn every ``heartbeat`` seconds, so that its clock runs while the prompts are read
    (the prefill, before the first token: minutes on a CPU)."""
    bar = tqdm(
        total=max_tokens,
        desc=what,
        unit="token",
        leave=False,
        delay=delay,
        dynamic_ncols=True,
        disable=not enabled,
        postfix="reading the prompts",
    )
    stop = threading.Event()
    redraws = threading.Thread(target=_redraw, args=(bar, stop, delay, heartbeat), daemon=True)
    if enabled:
        redraws.start()

    def tick() -> None:
        if bar.n == 0:
            bar.set_postfix_str("", refresh=False)
        bar.update(1)

    try:
        yield tick
    finally:
        stop.set()
        if redraws.is_alive():
            redraws.join()
        bar.close()


def _redraw(bar: tqdm, stop: threading.Event, delay: float, heartbeat: float) -> None:
    """Once the bar has run ``delay`` seconds, redraw it every ``heartbeat`` seconds until it ends."""
    if stop.wait(delay):
        return
    while True:
        bar.refresh()  # tqdm's lock: waits while a tick draws it
        if stop.wait(heartbeat):
            return
