"""Observers of scored rollouts (see ``ObservedGRPOTrainer``): the completion log and the sample outputs file."""

from __future__ import annotations

from pathlib import Path

from training.callbacks.completion_log import CompletionLog


class CompletionLogObserver:
    """Appends every completion of a step (all sampling rounds) to the run's gzip JSONL completion log."""

    def __init__(self, path: str | Path):
        self.log = CompletionLog(path)

    def __call__(self, rollouts, final) -> None:
        self.log.write_step(final.step, [record for rollout in rollouts for record in rollout.records])


def _shorten(text, limit: int = 2000) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} more characters]"


def describe_record(label: str, record: dict) -> str:
    """A few lines for one completion: its reward (and each reward function's), the completion and the reference."""
    parts = ", ".join(f"{name} {value:.3f}" for name, value in record["rewards"].items() if value is not None)
    return (
        f"  {label} {record['id']}: reward {record['reward']:.3f} ({parts})\n"
        f"    completion: {_shorten(record['completion'])}\n"
        f"    reference:  {_shorten(record['reference'])}\n"
    )


class SampleOutputs:
    """Every ``every`` steps (and at step 1), writes the step's best and worst trained completion to a text file."""

    def __init__(self, path: str | Path, every: int = 10):
        self.path = Path(path)
        self.every = max(1, every)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def __call__(self, rollouts, final) -> None:
        if final.step != 1 and final.step % self.every:
            return
        ranked = sorted(final.records, key=lambda r: r["reward"])
        stats = final.stats()
        mean = sum(r["reward"] for r in ranked) / len(ranked)
        text = (
            f"step {final.step}: mean reward {mean:.3f} over {len(ranked)} completions, "
            f"{stats.zero_std_groups}/{stats.groups} groups with zero reward variance\n"
            + describe_record("best ", ranked[-1])
            + describe_record("worst", ranked[0])
            + "\n"
        )
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(text)
