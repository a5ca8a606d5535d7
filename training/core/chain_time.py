"""How long a chain took, step by step, from the runner's record of each step's process and each step's
``results/summary.json``: what ``make curriculum`` prints and writes (``<runs_dir>/<chain>-time.json``) when its
steps are done, so that issue 17's bar for the whole chain (60 minutes on one H100, its format start included) is
read from the runs themselves, also when the steps trained on different machines and were carried (a skipped
step's records are read like any other).

Two figures a step. Its process time: how long the runner's process of the step ran, start to end (``STEP_FILE``,
written beside the step's output by ``make curriculum``; every attempt of a stopped and rerun step added up), which
is what the bar counts. And what its summary records: its format start's and supervised help's training time (their
records inside it) and its own (``wall_seconds``: the GRPO steps, or a warm start's trainer), without building and
tokenizing the problems, loading the model and saving; a stage of ``max_steps: 0`` is its help alone, and its
``wall_seconds`` is the help's, counted once. A step trained elsewhere without the runner has the summary's figure
only, and the total says how many steps it counts that way (batch 34's chain logs ran 1-2.5 minutes a step over it).
"""

from __future__ import annotations

import json
from pathlib import Path

from training.core.runs import RUN_SUMMARY, run_summary

STEP_FILE = "chain-step.json"  # under a step's output_dir: {"process_seconds": ...}, written by the chain runner


def step_seconds(summary: dict) -> dict[str, float] | None:
    """{part: seconds} of one run's summary, in the order they ran ("format start", "supervised help", then "GRPO"
    or "supervised"); None when its own time is not recorded."""
    own = summary.get("wall_seconds")
    if own is None:
        return None
    parts = {}
    for key, label in (("format_start", "format start"), ("supervised_help", "supervised help")):
        record = summary.get(key)
        if isinstance(record, dict) and record.get("wall_seconds") is not None:
            parts[label] = float(record["wall_seconds"])
    if not (summary.get("max_steps") == 0 and "supervised help" in parts):  # a help-only stage: its time is the help's
        parts["GRPO" if "grpo" in summary else "supervised"] = float(own)
    return parts


def add_process_time(output_dir: Path, seconds: float) -> None:
    """Add ``seconds`` (one attempt of the step's process) to the step's ``STEP_FILE``."""
    path = Path(output_dir) / STEP_FILE
    before = json.loads(path.read_text()).get("process_seconds", 0.0) if path.is_file() else 0.0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"process_seconds": before + seconds}) + "\n")


def chain_time(steps: list[tuple[str, Path]]) -> dict:
    """The record of ``steps`` ((run, output_dir), in chain order): each step's process seconds (None where the
    runner did not run it), its summary's parts, their sum and its device; the total (process time where known,
    else the summary's), how many steps count by their summary only, and the runs with neither."""
    rows, missing = [], []
    for run, output_dir in steps:
        summary, step_file = run_summary(output_dir), Path(output_dir) / STEP_FILE
        parts = step_seconds(summary) if summary is not None else None
        process = json.loads(step_file.read_text())["process_seconds"] if step_file.is_file() else None
        if parts is None and process is None:
            missing.append(run)
            continue
        rows.append(
            {
                "run": run,
                "process_seconds": process,
                "seconds": sum(parts.values()) if parts else None,
                "parts": parts or {},
                "device": summary.get("device") if summary else None,
            }
        )
    devices = sorted({d for row in rows if row["device"] for d in str(row["device"]).split(", ")})
    total = sum(r["process_seconds"] if r["process_seconds"] is not None else r["seconds"] for r in rows)
    summary_only = [r["run"] for r in rows if r["process_seconds"] is None]
    return {
        "steps": rows,
        "total_seconds": total,
        "devices": devices,
        "summary_only": summary_only,
        "not_recorded": missing,
    }


def render(record: dict) -> list[str]:
    """The record as the lines ``make curriculum`` prints: a step a line, then the total."""
    width = max([len(r["run"]) for r in record["steps"]] + [len(run) for run in record["not_recorded"]] + [5])
    lines = ["time by step (wall clock): the step's process, and the training its results/summary.json records"]
    for row in record["steps"]:
        parts = ", ".join(f"{name} {seconds / 60:.1f}" for name, seconds in row["parts"].items()) or "no summary"
        if row["process_seconds"] is None:
            head = f"{row['seconds'] / 60:6.1f} min  (not run by this runner: its summary only; {parts})"
        else:
            head = f"{row['process_seconds'] / 60:6.1f} min  (training {parts})"
        lines.append(f"  {row['run']:<{width}} {head}" + (f" on {row['device']}" if row["device"] else ""))
    for run in record["not_recorded"]:
        lines.append(f"  {run:<{width}}      - min  (no {STEP_FILE} or {RUN_SUMMARY}: not counted)")
    on = " and ".join(record["devices"]) or "no recorded device"
    notes = [f"{len(record['summary_only'])} step(s) by their summary only"] if record["summary_only"] else []
    notes += [f"{len(record['not_recorded'])} step(s) not counted"] if record["not_recorded"] else []
    lines.append(
        f"  {'total':<{width}} {record['total_seconds'] / 60:6.1f} min  on {on}" + "".join(f", {n}" for n in notes)
    )
    return lines
