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
    """One GRPO step's size: completions per step, prompt tokens and completion budget of each, parameters, threads."""

    completions: int
    prompt_tokens: float
    completion_tokens: int
    parameters: float
    threads: int

    @property
    def work(self) -> float:
        return self.completions * (self.prompt_tokens + self.completion_tokens) * self.parameters / self.threads


@dataclass(frozen=True)
class CpuReference:
    """A measured CPU step: its size and its time (with dynamic sampling's two resampling rounds, as the base model's
    all-zero rewards trigger them)."""

    step: CpuStep
    seconds: float
    source: str


# results/pipeline-cpu/stage-1-summary.json: step_time_mean, 8 prompts x 8 generations, a 48-token budget (the budget
# of that time; the register mix's is larger); a stage-1 prompt is ~174 tokens with the chat template; SmolLM2-135M
# (134.5M) with its LoRA adapter (r=32, all linear layers: 9.8M). tests/training/core/test_cpu_cost.py checks each.
CPU_REFERENCE = CpuReference(
    CpuStep(completions=64, prompt_tokens=174, completion_tokens=48, parameters=144.28e6, threads=2),
    seconds=412.7,
    source="results/pipeline-cpu/",
)


def estimated_step_seconds(step: CpuStep, reference: CpuReference = CPU_REFERENCE) -> float:
    """The reference step's time scaled by this step's work."""
    return reference.seconds * step.work / reference.step.work


def cpu_cost_report(max_steps: int, step: CpuStep, reference: CpuReference = CPU_REFERENCE) -> list[str]:
    """The lines said before a CPU run: its size, the estimated time, and (for a long run) what to do instead."""
    seconds = estimated_step_seconds(step, reference)
    threads = f"{step.threads} thread" + ("s" if step.threads != 1 else "")
    lines = [
        f"no GPU: this run trains on the CPU ({threads}): {max_steps} steps x {step.completions} "
        f"completions of up to {step.completion_tokens} tokens, on a model of {step.parameters / 1e6:.0f}M "
        f"parameters. Estimated time: {duration(seconds)} a step, {duration(seconds * max_steps)} in all "
        f"(scaled from a measured CPU step, {reference.source}; the first steps' times will say better)."
    ]
    if seconds * max_steps > LONG_RUN_SECONDS:
        lines.append(
            "  instead: `make smoke` runs the whole path (warm start, GRPO, eval, model card) on a tiny model "
            "in under 2.5 minutes on 2 cores; a GPU takes about a second a step (results/bench/); or shrink "
            'this run: TRAIN_ARGS="--max_steps 2 --per_device_train_batch_size 8 --num_generations 4"'
        )
    return lines
