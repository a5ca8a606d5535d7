"""Where a training step's time goes: torch.profiler over a window of optimizer steps, written as a table.

The chain's supervised helps are most of its minutes (results/grpo/chain-minutes.md), and a help of the 135M model ran
only ~6% slower with another run on its card (batches 28-29): its steps may wait on the host more than on the GPU.
``--profile_steps A-B`` (training.cli.warm_start) profiles optimizer steps A to B and writes ``profile.md`` (and the
numbers into summary.json): seconds a step before the window (unprofiled) and inside it, the share of the window's wall
time the GPU spent in kernels, and the operators that took the most host and device time. Measure before optimising.
"""

from __future__ import annotations

import time
from pathlib import Path

import torch
from transformers import TrainerCallback

BEFORE = 10  # unprofiled steps timed before the window, where the run has them


def kernel_microseconds(averages) -> float:
    """The device time of a profile's kernels, as torch's own table totals it ("Self CUDA time total"): the events on
    the device (kineto), or the CPU events that carry their kernels' time (the legacy profiler); the CPU operators'
    own device time is their kernels' again, not added twice."""
    from torch.autograd import DeviceType

    total = 0.0
    for event in averages:
        kind = getattr(event, "device_type", DeviceType.CPU)
        legacy = kind == DeviceType.CPU and getattr(event, "is_legacy", False)
        on_device = kind == DeviceType.CUDA and not getattr(event, "is_user_annotation", False)
        if legacy or on_device:
            total += getattr(event, "self_device_time_total", 0.0)
    return total


class ProfileSteps(TrainerCallback):
    """Profile optimizer steps ``first``..``last`` (torch.profiler, host and, on a GPU, device activity); on the
    window's end write ``out`` (markdown) and keep the numbers in ``self.result``."""

    def __init__(self, first: int, last: int, out: Path, report=print, row_limit: int = 15):
        self.first, self.last, self.out, self.report, self.row_limit = first, last, Path(out), report, row_limit
        self.cuda = torch.cuda.is_available()
        self.step_ends: list[tuple[int, float]] = []  # (global step, time) at each step's end before the window
        self.profiler = None
        self.started = None
        self.result: dict | None = None

    def _sync(self):
        if self.cuda:
            torch.cuda.synchronize()

    def on_step_end(self, args, state, control, **kwargs):
        step = state.global_step  # the step just taken
        if step < self.first:
            self._sync()
            self.step_ends = [*self.step_ends[-BEFORE:], (step, time.perf_counter())]
        if step == self.first - 1:
            self._start()
        elif step == self.last and self.profiler is not None:
            self._stop(step)
        return control

    def on_train_begin(self, args, state, control, **kwargs):
        if self.first == state.global_step + 1:
            self._start()  # the window opens with the run's first step: nothing before it to time
        elif state.global_step < self.first:
            self._sync()
            self.step_ends = [(state.global_step, time.perf_counter())]  # the first step's start
        return control

    def on_train_end(self, args, state, control, **kwargs):
        if self.profiler is not None:  # the run ended inside the window: what was profiled is still written
            self._stop(state.global_step)
        elif self.result is None:
            window = f"{self.first}-{self.last}"
            self.report(f"--profile_steps {window}: the run ended at step {state.global_step}, before the window")
        return control

    def _start(self):
        from torch.profiler import ProfilerActivity, profile

        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if self.cuda else [])
        self.profiler = profile(activities=activities)
        self._sync()
        self.profiler.__enter__()
        self.started = time.perf_counter()

    def _stop(self, step: int):
        self._sync()
        wall = time.perf_counter() - self.started
        self.profiler.__exit__(None, None, None)
        averages = self.profiler.key_averages()
        self.profiler = None
        steps = step - self.first + 1
        kernel_us = kernel_microseconds(averages) if self.cuda else 0.0
        before = self.step_ends
        unprofiled = (before[-1][1] - before[0][1]) / (before[-1][0] - before[0][0]) if len(before) > 1 else None
        self.result = {
            "steps": [self.first, step],
            "seconds_a_step_profiled": wall / steps,
            "seconds_a_step_before": unprofiled,
            "steps_timed_before": [before[0][0] + 1, before[-1][0]] if len(before) > 1 else None,
            "gpu_kernel_share": kernel_us / 1e6 / wall if self.cuda else None,
        }
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(self._markdown(averages))
        share = self.result["gpu_kernel_share"]
        self.report(
            f"profiled steps {self.first}-{step}: {self.result['seconds_a_step_profiled']:.3f} s a step"
            + (f", GPU in kernels {share:.0%} of the time" if share is not None else "")
            + f" ({self.out})"
        )

    def _markdown(self, averages) -> str:
        r = self.result
        first, last = r["steps"]
        lines = [
            f"# Where steps {first}-{last} spent their time (torch.profiler)",
            "",
            f"- {r['seconds_a_step_profiled']:.3f} s a step inside the window (the profiler adds host time).",
        ]
        if r["seconds_a_step_before"] is not None:
            a, b = r["steps_timed_before"]
            lines.append(f"- {r['seconds_a_step_before']:.3f} s a step before it, unprofiled (steps {a}-{b}).")
        if r["gpu_kernel_share"] is not None:
            lines.append(
                f"- The GPU ran kernels for {r['gpu_kernel_share']:.0%} of the window's wall time (the sum of the "
                "operators' own device time over the wall time): the rest of the time it waited on the host."
            )
        sorts = [("self_cpu_time_total", "own host time")]
        if self.cuda:
            sorts.append(("self_cuda_time_total", "own device time"))
        for key, label in sorts:
            table = averages.table(sort_by=key, row_limit=self.row_limit)
            lines += ["", f"## Operators by {label}", "", "```", table, "```"]
        return "\n".join(lines) + "\n"
