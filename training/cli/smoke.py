"""``make smoke``: the whole path on the tiny random model in a few minutes on a CPU, each part timed.

    python -m training.cli.smoke [--runs_dir runs/smoke] [--threads 1]

Runs the chain ``training/recipes/chains/smoke.yaml`` into ``runs/smoke/``: a supervised warm start, GRPO stage 1
from it and the eval of that adapter, each in its own process as ``make curriculum`` runs them. Then it publishes the
GRPO run to a local hub in ``runs/smoke/hub/`` (``python -m publishing model --hub local``), which renders the
run's model card. Each part's time, with the cores and load average, goes to ``runs/smoke/smoke.json``.
A smoke starts afresh: it replaces ``runs/smoke/`` when an earlier smoke made it, and refuses
any other folder there.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from base_models.models import TINY_RANDOM_MODEL
from training.cli.curriculum import step_commands
from training.core.arguments import RecipeError
from training.core.chains import CHAINS_DIR, read_chain
from training.core.reporting import duration

SMOKE_CHAIN = CHAINS_DIR / "smoke.yaml"
MARKER = ".smoke"  # in a runs folder a smoke made, so that a later smoke may replace it
SMOKE_RECORD = "smoke.json"  # each part's seconds, the machine's cores and load average
BASE_MODEL_REPO = f"local/{TINY_RANDOM_MODEL}"  # the Hub id the card names (make publish-base-model HUB=local makes it)


def fresh_runs_folder(runs_dir: Path) -> None:
    """``runs_dir`` empty but for the marker; an earlier smoke's folder is replaced, any other folder refused."""
    if runs_dir.exists():
        if not (runs_dir / MARKER).is_file():
            raise RecipeError(
                f"{runs_dir} exists and no smoke made it (no {MARKER} file in it): move it away or "
                "pick another --runs_dir"
            )
        shutil.rmtree(runs_dir)
    runs_dir.mkdir(parents=True)
    (runs_dir / MARKER).write_text("made by python -m training.cli.smoke, which replaces this folder on its next run\n")


def smoke_commands(runs_dir: Path, python: str = sys.executable) -> list[tuple[str, list[str]]]:
    """(part, command) of each part of the smoke, in order: the chain's runs, its eval, then the card."""
    chain = read_chain(SMOKE_CHAIN)
    commands = []
    for run, command, _ in step_commands(chain, runs_dir, [python], TINY_RANDOM_MODEL, []):
        commands.append((run, [*command, "--out", str(runs_dir / "eval")] if run == "eval" else command))
    grpo_run = next(step.run for step in reversed(chain.steps) if step.entry_point == "grpo")
    commands.append(
        (
            "card",
            [
                python,
                "-m",
                "publishing",
                "model",
                "--run",
                str(runs_dir / grpo_run),
                "--hub",
                "local",
                "--hub_dir",
                str(runs_dir / "hub"),
                "--staging",
                str(runs_dir / "publish"),
                "--base_model",
                BASE_MODEL_REPO,
                "--eval_file",
                str(runs_dir / "eval" / "eval.json"),
            ],
        )
    )
    return commands


def part_times(record: dict) -> str:
    """``warm-start 28 s, stage-1 50 s``."""
    return ", ".join(f"{part} {duration(seconds)}" for part, seconds in record["parts"].items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.cli.smoke", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs_dir", type=Path, default=Path("runs/smoke"), help="where the smoke's runs go")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="CPU threads per process (OMP_NUM_THREADS, unless set): the tiny model's operations are "
        "too small to share out, and on a shared CPU the threads of one op wait for each other",
    )
    args = parser.parse_args(argv)
    try:
        fresh_runs_folder(args.runs_dir)
        commands = smoke_commands(args.runs_dir)
    except RecipeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", str(args.threads))}
    record = {
        "cpu_count": os.cpu_count(),
        "omp_num_threads": env["OMP_NUM_THREADS"],
        "load_average_before": os.getloadavg(),
        "parts": {},
    }
    started = time.monotonic()
    for part, command in commands:
        print(f"[smoke] {part}: {' '.join(command[1:])}", flush=True)
        began = time.monotonic()
        code = subprocess.run(command, env=env).returncode
        record["parts"][part] = round(time.monotonic() - began, 1)
        if code != 0:
            print(f"error: the smoke's {part} step exited with {code} (after {part_times(record)})", file=sys.stderr)
            return code
    record.update(seconds=round(time.monotonic() - started, 1), load_average_after=os.getloadavg())
    (args.runs_dir / SMOKE_RECORD).write_text(json.dumps(record, indent=2) + "\n")
    cards = sorted((args.runs_dir / "publish" / "models").glob("*/README.md"))
    print(
        f"[smoke] passed in {duration(record['seconds'])} ({part_times(record)}; load average "
        f"{record['load_average_before'][0]:.1f} on {record['cpu_count']} cores at the start); model card: "
        f"{cards[0] if cards else 'none'}; times: {args.runs_dir / SMOKE_RECORD}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
