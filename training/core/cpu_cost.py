"""What a GRPO run will cost on a CPU, said before it starts, with what to do instead.

The estimate scales one measured step (``CPU_REFERENCE``: the default stage-1 step on this project's 2-core machine,
``results/pipeline-cpu/``) by the work of a step: completions x tokens per completion (prompt + completion budget)
x model parameters, over CPU threads. The first steps' own times then give the real pace (``RunEta``).
"""

from __future__ import annotations

from dataclasses import dataclass

from training.core.reporting import duration

LONG_RUN_SECONDS = 15 * 60  # beyond this, the report also says what to do instead


@dataclass(frozen=True)
class CpuStep:
    """One GRPO step's size: generations per step, tokens per generation (prompt + budget), parameters, threads."""

    completions: int
    tokens: float
    parameters: float
    threads: int

    @property
    def work(self) -> float:
        return self.completions * self.tokens * self.parameters / self.threads


@dataclass(frozen=True)
class CpuReference:
    """A measured CPU step: its size and its time (with dynamic sampling's two resampling rounds, as the base model's
    all-zero rewards trigger them)."""

    step: CpuStep
    seconds: float
    source: str


# results/pipeline-cpu/stage-1-summary.json (step_time_mean; 8 prompts x 8 generations, a 53-token budget) and
# README.md there (the prompt tokens: a stage-1 prompt is ~174 tokens; SmolLM2-135M with its LoRA adapter, r=32);
# tests/training/core/test_cpu_cost.py checks these numbers against those files.
CPU_REFERENCE = CpuReference(CpuStep(completions=64, tokens=174 + 53, parameters=139.3e6, threads=2), seconds=0.0,
                             source="results/pipeline-cpu/")


def estimated_step_seconds(step: CpuStep, reference: CpuReference = CPU_REFERENCE) -> float:
    """The reference step's time scaled by this step's work."""
    return reference.seconds * step.work / reference.step.work


def cpu_cost_report(max_steps: int, step: CpuStep, completion_budget: int,
                    reference: CpuReference = CPU_REFERENCE) -> list[str]:
    """The lines said before a CPU run: its size, the estimated time, and (for a long run) what to do instead."""
    seconds = estimated_step_seconds(step, reference)
    lines = [f"no GPU: this run trains on the CPU ({step.threads} threads): {max_steps} steps x {step.completions} "
             f"completions of up to {completion_budget} tokens, on a model of {step.parameters / 1e6:.0f}M "
             f"parameters. Estimate: about {duration(seconds)} a step, {duration(seconds * max_steps)} in all "
             f"(scaled from a measured CPU step, {reference.source}; the first steps' times will say better)."]
    if seconds * max_steps > LONG_RUN_SECONDS:
        lines.append("  instead: `make smoke` runs the whole path (warm start, GRPO, eval, model card) on a tiny model "
                     "in about 3 minutes on 2 cores; a GPU takes about a second a step (results/bench/); or shrink "
                     'this run: TRAIN_ARGS="--max_steps 2 --per_device_train_batch_size 8 --num_generations 4"')
    return lines
