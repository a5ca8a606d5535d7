"""Stop signals around a run's child processes (its format start or supervised help, ``training.core.format_start``).

The training entry points stop after the step under way on SIGTERM or Ctrl-C
(``training.callbacks.stop_on_signal``). A run whose supervised child is training waits for that child to stop
the same way, then stops too instead of starting GRPO.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def take_over(handler, signals=SIGNALS) -> dict:
    """Point ``signals`` at ``handler``; the handlers they had, for :func:`give_back`. Python handles signals in the
    main thread only, so elsewhere nothing changes and the result is empty."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum in signals}


def give_back(previous: dict) -> None:
    """The handlers :func:`take_over` replaced, back in place."""
    for signum, handler in previous.items():
        signal.signal(signum, handler)


class StopRequested(Exception):
    """A stop signal arrived while a run's child process (its format start or supervised help) was training: the
    child finished its step and wrote its adapter, and the run does not go on to GRPO. ``signum``: the signal."""

    def __init__(self, signum: int, message: str):
        super().__init__(message)
        self.signum = signum


REPEAT_SECONDS = 1.0  # a stop signal of the same kind again within this is the same stop, delivered twice


def run_child_until_stopped(command: list[str]) -> tuple[int, int | None]:
    """Run ``command`` (a child that stops on signals itself, with StopOnSignal) and wait for it; (its exit code,
    the first stop signal this process got meanwhile, or None).

    The child runs in a process group of its own, and each stop signal this process gets (SIGTERM, or Ctrl-C's
    SIGINT) is passed on to it, so that it gets each stop exactly once and ends after its step, writing its adapter,
    instead of being killed with this process. Sent to a whole process group (a terminal's Ctrl-C, a ``timeout``, which
    signals its command and then its group), a signal would otherwise reach the child twice, and a second stop
    signal means "stop at once" to it. The same kind again within ``REPEAT_SECONDS`` is taken for the same stop and not
    passed on; later, it is (a person asking twice). Outside the main thread the signals keep their usual meaning."""
    child = subprocess.Popen(command, process_group=0)
    received: list[int] = []
    last: dict[int, float] = {}

    def handle(signum, frame):
        received.append(signum)
        now = time.monotonic()
        if signum not in last or now - last[signum] >= REPEAT_SECONDS:
            child.send_signal(signum)
        last[signum] = now

    previous = take_over(handle)
    try:
        code = child.wait()
    finally:
        give_back(previous)
    return code, (received[0] if received else None)
