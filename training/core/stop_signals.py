"""Stop signals around a run's child processes (its format start or supervised help, ``training.core.format_start``).

The training entry points stop after the step under way on SIGTERM or Ctrl-C
(``training.callbacks.stop_on_signal``). A run whose supervised child is training waits for that child to stop
the same way, then stops too instead of starting GRPO.
"""

from __future__ import annotations

import signal
import subprocess
import threading

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


def run_child_until_stopped(command: list[str]) -> tuple[int, int | None]:
    """Run ``command`` (a supervised child that stops on signals itself, with StopOnSignal) and wait for it;
    (its exit code, the first stop signal this process got meanwhile, or None).

    A SIGTERM sent to this process alone (a ``timeout``) is passed on to the child; a Ctrl-C reaches the child from
    the terminal as well, so it is only noted. Either way the child ends after its step and writes its adapter,
    instead of being killed with this process. Outside the main thread the signals keep their usual meaning."""
    child = subprocess.Popen(command)
    received: list[int] = []

    def handle(signum, frame):
        received.append(signum)
        if signum == signal.SIGTERM:
            child.send_signal(signum)

    previous = take_over(handle)
    try:
        code = child.wait()
    finally:
        give_back(previous)
    return code, (received[0] if received else None)
