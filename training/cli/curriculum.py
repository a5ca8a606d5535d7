"""``make curriculum``: run a chain of training steps declared in one file, then evaluate its last adapter.

    python -m training.cli.curriculum [--chain training/recipes/chains/curriculum.yaml] [--model M] [--dry_run]
                                      [--until RUN]

Each step runs in its own process (``python -m training.cli.warm_start`` or ``training.cli.train``) with its recipe,
``--output_dir runs/<run>``, ``--init_adapter`` the previous step's final adapter (none for the first step, which
starts as its recipe says: a fresh adapter, or stage 1's format start) and the step's overrides, then
``--step_args`` (flags for every step). A step whose ``runs/<run>/final`` exists is skipped, so a stopped chain
continues where it stopped; a GRPO step with checkpoints but no final adapter resumes from them. ``--until RUN``
stops after step RUN, without the eval: a machine held for less than the whole chain trains the steps it has time
for, and the chain runs again elsewhere with their ``runs/<run>/final`` carried over (``make curriculum
UNTIL=stage-2``, then ``make curriculum`` there). When its steps are done (before the eval), it prints how long each
step took, its process start to end and the training its ``results/summary.json`` records (a carried step's too),
and the total, and writes the same to ``<runs_dir>/<chain name>-time.json`` (``runs/curriculum-time.json``): issue
17's bar for the whole chain is 60 minutes on one H100 (``training.core.chain_time``). A stop signal (Ctrl-C, or
SIGTERM to the runner, which passes it on) ends the step under way after its own step and the chain there.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import time
from pathlib import Path

from training.core.arguments import RecipeError
from training.core.chain_time import add_process_time, chain_time, render
from training.core.chains import CHAINS_DIR, Chain, flags, read_chain
from training.core.runs import signal_stop
from training.core.stop_signals import run_child_until_stopped

EVALUATE = "training.cli.evaluate"


def steps_until(chain: Chain, until: str | None) -> tuple:
    """The chain's steps up to and including the run ``until`` (all of them for None); a RecipeError names the
    chain's steps when it has no such run."""
    runs = [step.run for step in chain.steps]
    if until is None:
        return chain.steps
    if until not in runs:
        raise RecipeError(f"--until {until}: the chain has no step of that name; its steps: {', '.join(runs)}")
    return chain.steps[: runs.index(until) + 1]


def step_commands(
    chain: Chain,
    runs_dir: Path,
    launcher: list[str],
    model: str | None,
    step_args: list[str],
    until: str | None = None,
) -> list[tuple[str, list[str] | None, str]]:
    """(run, command or None when skipped, what to report) for each step, then the eval; with ``until``, the steps
    up to and including that run, and no eval."""
    runs = [step.run for step in chain.steps]
    planned, previous = [], None
    for step in steps_until(chain, until):
        output_dir = runs_dir / step.run
        final = output_dir / "final"
        if (final / "adapter_config.json").is_file():
            note = f"skip {step.run}: {final} exists (delete it to train this step again)"
            if stopped := signal_stop(output_dir):
                note = f"skip {step.run}: {final} exists, {stopped} (delete it to train this step on)"
            planned.append((step.run, None, note))
            previous = final
            continue
        init = step.init_adapter or (str(previous) if previous else None)  # None: the recipe's own start
        recipe = os.path.relpath(step.recipe_path)  # as a person would type it, from the repo root
        command = [
            *launcher,
            "-m",
            step.module,
            "--config",
            recipe,
            "--output_dir",
            str(output_dir),
            *(["--init_adapter", init] if init else []),
            *(["--model", model] if model else []),
            *flags(step.overrides),
            *step_args,
        ]
        resuming = step.entry_point == "grpo" and any(output_dir.glob("checkpoint-*/checkpoint_complete.json"))
        if resuming:
            command += ["--resume", "true"]
        note = f"{step.run}: {step.entry_point} {step.recipe}" + (" (resuming its checkpoints)" if resuming else "")
        planned.append((step.run, command, note))
        previous = final
    if until is not None:
        rest = runs[runs.index(until) + 1 :] + (["the eval"] if chain.eval_stages is not None else [])
        if rest:
            left = f"{', '.join(rest[:-1])} and {rest[-1]} are" if len(rest) > 1 else f"{rest[0]} is"
            planned.append(
                (
                    until,
                    None,
                    f"stop after {until} (--until): {left} left; run the chain again without --until, here or "
                    f"where {runs_dir / until / 'final'} and the runs before it are carried",
                )
            )
        return planned
    if chain.eval_stages is not None and previous is not None:
        command = [
            sys.executable,
            "-m",
            EVALUATE,
            "--adapter",
            str(previous),
            "--stages",
            chain.eval_stages,
            *(["--model", model] if model else []),
            *chain.eval_args,
        ]
        planned.append(("eval", command, f"eval of {previous} (stages {chain.eval_stages or 'none'})"))
    return planned


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.cli.curriculum",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--chain", default=str(CHAINS_DIR / "curriculum.yaml"), help="the chain file")
    parser.add_argument("--runs_dir", default="runs", help="where each step's runs/<run>/ goes")
    parser.add_argument("--model", default=None, help="a model preset, folder or Hub id for every step and the eval")
    parser.add_argument("--step_args", default="", help="flags added to every training step, e.g. '--max_steps 5'")
    parser.add_argument(
        "--launcher",
        default=sys.executable,
        help="what runs a step's module (e.g. 'accelerate launch --num_processes 2')",
    )
    parser.add_argument("--dry_run", action="store_true", help="print the commands without running them")
    parser.add_argument("--until", default=None, help="stop after this step (a run name, e.g. stage-2), no eval")
    args = parser.parse_args(argv)
    try:
        chain = read_chain(args.chain)
        planned = step_commands(
            chain,
            Path(args.runs_dir),
            shlex.split(args.launcher),
            args.model,
            shlex.split(args.step_args),
            until=args.until,
        )
    except RecipeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    timed = False
    for run, command, note in planned:
        is_eval = command is not None and EVALUATE in command[:3]  # the eval of the last adapter, not a step
        if is_eval and not args.dry_run:
            report_time(chain, Path(args.runs_dir), args.chain, args.until)
            timed = True
        print(f"[{args.chain}] {note}", flush=True)
        if command is None:
            continue
        print("  " + shlex.join(command), flush=True)
        if args.dry_run:
            continue
        started = time.monotonic()
        code, stopped_by = run_child_until_stopped(command)  # a stop signal: the step ends after its own step
        if not is_eval:  # the step's process time, every attempt's, beside its output (chain_time reads it)
            add_process_time(Path(args.runs_dir) / run, time.monotonic() - started)
        if stopped_by is not None:
            print(
                f"stopped during {run} ({signal.Signals(stopped_by).name}); the chain goes no further. Run it again to "
                "go on: finished steps are skipped, and a step that wrote its final adapter when stopped counts as "
                "finished (delete its final/ to train it on; a GRPO step resumes from its checkpoints)",
                file=sys.stderr,
            )
            return 128 + stopped_by
        if code != 0:
            print(
                f"error: step {run} exited with {code}; fix it and run the chain again (finished steps are skipped)",
                file=sys.stderr,
            )
            return code
    if not (timed or args.dry_run):
        report_time(chain, Path(args.runs_dir), args.chain, args.until)
    return 0


def report_time(chain: Chain, runs_dir: Path, chain_file: str, until: str | None) -> None:
    """Print how long each trained step took (``training.core.chain_time``) and write it to
    ``<runs_dir>/<chain name>-time.json``."""
    record = chain_time([(step.run, runs_dir / step.run) for step in steps_until(chain, until)])
    for line in render(record):
        print(f"[{chain_file}] {line}", flush=True)
    out = runs_dir / f"{Path(chain_file).stem}-time.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"[{chain_file}] wrote {out}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
