"""Per-step training metrics: a JSONL file flushed at every log, clipping reports, and the run summary."""

from __future__ import annotations

import json
import time
from pathlib import Path

from transformers import TrainerCallback

CLIPPED_KEY = "completions/clipped_ratio"


def read_metric_lines(path: str | Path) -> list[dict]:
    """Every record of a metrics JSONL file as written, resumed segments included (a torn line is skipped)."""
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def latest_per_step(records: list[dict]) -> list[dict]:
    """One record per step, the last one written: a record at or before an earlier record's step means the run
    went back (resumed from a checkpoint, or restarted), so the records of the steps it redoes are dropped."""
    kept: list[dict] = []
    for record in records:
        step = record.get("global_step")
        if step is None:
            continue
        while kept and kept[-1]["global_step"] >= step:
            kept.pop()
        kept.append(record)
    return kept


def read_metrics(path: str | Path) -> list[dict]:
    """The records of a run's metrics file, one per step (the last written), in step order."""
    return latest_per_step(read_metric_lines(path))


def _gpu_peak_memory_gib() -> float | None:
    """Peak memory PyTorch has allocated on this process's GPU so far (None without CUDA)."""
    import torch

    if not torch.cuda.is_available():
        return None
    return torch.cuda.max_memory_allocated() / 2**30


class MetricsFile(TrainerCallback):
    """Appends each training log (TRL's metrics plus global step, timestamp and tokens/s) to ``path``.

    Each record also carries ``run_seconds``: the seconds of training so far over every segment of the run (a
    resumed run adds its time to that of the segments before it, each counted up to its last record). Also
    reports, at most once every ``report_every`` logs, when completions hit ``max_completion_length``.
    """

    def __init__(
        self,
        path: str | Path,
        max_completion_length: int | None = None,
        report_every: int = 10,
        report=print,
        step_key: str = "reward",
    ):
        self.step_key = step_key  # logs carrying it are training steps (GRPO: reward; supervised: loss)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.max_completion_length = max_completion_length
        self.report_every = report_every
        self.report = report
        self._previous: tuple[float, float] | None = None  # (time, tokens) at the previous log
        self._logs_since_report: int | None = None
        self._segment_start = time.time()
        self._earlier_seconds = 0.0  # training time of the run's earlier segments (a resumed run)

    def on_train_begin(self, args, state, control, **kwargs):
        self._segment_start = time.time()
        self._earlier_seconds = 0.0
        if state.global_step > 0 and self.path.is_file():  # resumed: count the time of the segments before
            written = read_metric_lines(self.path)
            self._earlier_seconds = float(written[-1].get("run_seconds", 0.0)) if written else 0.0

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not state.is_world_process_zero or not logs or self.step_key not in logs:
            return
        now = time.time()
        record = {
            "global_step": state.global_step,
            "timestamp": now,
            "run_seconds": self._earlier_seconds + now - self._segment_start,
            **logs,
        }
        tokens = logs.get("num_tokens")
        if tokens is not None and self._previous is not None and now > self._previous[0]:
            record["tokens_per_second"] = (tokens - self._previous[1]) / (now - self._previous[0])
        if tokens is not None:
            self._previous = (now, tokens)
        peak = _gpu_peak_memory_gib()
        if peak is not None:
            record["gpu_peak_memory_gib"] = peak
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        self._report_clipping(state.global_step, logs.get(CLIPPED_KEY))

    def _report_clipping(self, step: int, clipped: float | None) -> None:
        if self._logs_since_report is not None:
            self._logs_since_report += 1
        if not clipped or (self._logs_since_report is not None and self._logs_since_report < self.report_every):
            return
        self._logs_since_report = 0
        limit = f" ({self.max_completion_length} tokens)" if self.max_completion_length else ""
        self.report(
            f"clipped completions at step {step}: {clipped:.0%} stopped at max_completion_length{limit} "
            "before their end token"
        )


def summarize(records: list[dict]) -> dict:
    """First/last/best reward, zero-variance fraction, lengths and training time of a run's metrics records.

    ``records`` come from :func:`read_metrics` (one per step). ``wall_seconds``, the run's training time summed
    over its segments (from the last record's ``run_seconds``), is there when the records carry it.
    """
    train = latest_per_step([r for r in records if "reward" in r])
    if not train:
        return {"steps_logged": 0}

    def series(key):
        return [r[key] for r in train if r.get(key) is not None]

    rewards = series("reward")
    best = max(train, key=lambda r: r["reward"])
    summary = {
        "steps_logged": len(train),
        "last_step": train[-1]["global_step"],
        "reward_first": rewards[0],
        "reward_last": rewards[-1],
        "reward_best": best["reward"],
        "reward_best_step": best["global_step"],
        "seconds": train[-1]["timestamp"] - train[0]["timestamp"] + (train[0].get("step_time") or 0.0),
    }
    if train[-1].get("run_seconds") is not None:
        summary["wall_seconds"] = train[-1]["run_seconds"]
    for key, name in (
        ("frac_reward_zero_std", "zero_std_fraction_mean"),
        ("completions/mean_length", "mean_length_mean"),
        (CLIPPED_KEY, "clipped_ratio_mean"),
        ("step_time", "step_time_mean"),
        ("tokens_per_second", "tokens_per_second_mean"),
        ("time/generation", "generation_time_mean"),
    ):
        values = series(key)
        if values:
            summary[name] = sum(values) / len(values)
    for key in ("entropy", "completions/mean_length"):
        values = series(key)
        if values:
            summary[f"{key.replace('completions/', '')}_first"] = values[0]
            summary[f"{key.replace('completions/', '')}_last"] = values[-1]
    return summary
