"""The chain's training minutes by the recipes of now, stage by stage, from committed run records: for each stage of
``training/recipes/chains/curriculum.yaml``, the latest run of its recipe as it stands (written below, ``STAGES``),
counted by ``training.core.chain_time.step_seconds`` (what ``make curriculum`` prints at its end), then the total.
Issue 17's bar is 60 minutes on one H100 for the whole chain, its format start included; the runs below trained on
H200s, so the H100 figure is an estimate, scaled by the one recipe measured on both (``RATIO_RUNS``).

    .venv/bin/python scripts/analysis/chain_minutes.py       # writes results/grpo/chain-minutes.md

No GPU; under a second. A stage whose recipe changes needs its row changed here, to a run of the new recipe.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))

from training.core.chain_time import step_seconds  # noqa: E402

GRPO = REPO_ROOT / "results" / "grpo"

# (stage, the record's folder under results/grpo/, what it is): the latest run of each stage's recipe as it stands
STAGES = [
    (
        "stage-1",
        "batch-42/chain-a/stage-1/results",
        "`make curriculum UNTIL=stage-2` (batch 42's chain-a): the format start, then GRPO (310 steps at most; "
        "promoted at 180)",
    ),
    (
        "stage-2",
        "batch-42/chain-a/stage-2/results",
        "the same chain: `sft-stage-2-help-7m` (7 minutes), then GRPO (84 steps at most; promoted at 20)",
    ),
    (
        "stage-3",
        "batch-43/chain-b/stage-3/results",
        "`make curriculum UNTIL=stage-5` from chain-a's piece (batch 43's chain-b): `sft-stage-3-help-steps` (1,356 "
        "steps), no GRPO steps",
    ),
    ("stage-4", "batch-43/chain-b/stage-4/results", "the same chain: `sft-stage-4-help-steps` (1,274 steps)"),
    (
        "stage-5",
        "batch-43/chain-b/stage-5/results",
        "the same chain: `sft-stage-5-help-long-texts` (759 steps, 5e-4; constant then, the same steps decaying since "
        "batch 45)",
    ),
    (
        "stage-6",
        ("batch-40/s6a", "batch-40/idc"),
        "its two helps, each run alone from the one before as stage-6.yaml runs them: `sft-stage-6-help-long-texts` "
        "(1,500 steps), then `sft-stage-6-help-identifiers` (613 steps, annealed since batch 41)",
    ),
]
# a row's runs: one folder (a stage's own run, or its one help alone) or several (its help parts alone, in order)
# the H100/H200 ratio: stage 6's first part (sft-stage-6-help-long-texts, 1,500 steps at 1e-4) on each card
RATIO_RUNS = {
    "NVIDIA H100": ["batch-28/n6-long"],
    "NVIDIA H200": [
        "batch-34/chain-stage-6-help",
        "batch-38/l5-5e4-s6a",
        "batch-38/l5-1e4-s6a",
        "batch-39/chain-stage-6t-help",
        "batch-40/s6a",
    ],
}
BAR_MINUTES = 60
# an earlier run of stages 1-2's recipes as they stand (batch 32's chain): GRPO stops at promotion, so minutes vary
EARLIER_DRAW = ["batch-32/chain-stage-1", "batch-32/chain-stage-2"]
# the chain runner's clock against its steps' summaries, piece by piece: a piece's runs/curriculum-time.json (the
# process time `make curriculum` records, batch 42 on; with the steps to read where the ledger also holds the steps
# carried in from the piece before) or, for batch 34's piece, its log's minutes (batch-34/README.md, "The chain's
# minutes ... from the chain logs"), against the same steps' summaries
RUNNER_CLOCK = [
    (
        "stages 1-2",
        "batch-42/chain-a/curriculum-time.json",
        ["batch-42/chain-a/stage-1/results", "batch-42/chain-a/stage-2/results"],
    ),
    (
        "stages 3-5",
        ("batch-43/chain-b/curriculum-time.json", ("stage-3", "stage-4", "stage-5")),
        ["batch-43/chain-b/stage-3/results", "batch-43/chain-b/stage-4/results", "batch-43/chain-b/stage-5/results"],
    ),
    ("stage 6", 22.5, ["batch-34/chain-stage-6"]),
]


def summary(folder: str) -> dict:
    return json.loads((GRPO / folder / "summary.json").read_text())


def folders_of(runs: str | tuple[str, ...]) -> tuple[str, ...]:
    """A row's run folders, in order (``STAGES`` names one as a string)."""
    return (runs,) if isinstance(runs, str) else tuple(runs)


def rows() -> list[dict]:
    """Each stage's record: its parts in minutes (added up over its runs), its total and its card(s)."""
    out = []
    for stage, runs, what in STAGES:
        minutes: dict[str, float] = {}
        devices: list[str] = []
        for folder in folders_of(runs):
            record = summary(folder)
            parts = step_seconds(record)
            if parts is None:
                raise SystemExit(f"{folder}/summary.json records no time")
            for name, seconds in parts.items():
                minutes[name] = minutes.get(name, 0.0) + seconds / 60
            if record.get("device") not in devices:
                devices.append(record.get("device"))
        out.append(
            {
                "stage": stage,
                "folder": " + ".join(folders_of(runs)),
                "what": what,
                "parts": minutes,
                "minutes": sum(minutes.values()),
                "device": ", ".join(str(d) for d in devices),
            }
        )
    return out


def ratio() -> tuple[float, dict[str, float]]:
    """(H100 seconds / H200 seconds for the same recipe, the mean seconds on each card)."""
    means = {}
    for card, folders in RATIO_RUNS.items():
        seconds = []
        for folder in folders:
            record = summary(folder)
            if card not in record["device"]:  # the card the run says it trained on
                raise SystemExit(f"{folder} trained on {record['device']}, not {card}")
            seconds.append(record["wall_seconds"])
        means[card] = statistics.mean(seconds)
    return means["NVIDIA H100"] / means["NVIDIA H200"], means


def clock_minutes(clock: float | str | tuple[str, tuple[str, ...]]) -> float:
    """A piece's minutes by the runner's clock: read from its curriculum-time.json (all of it, or the steps named
    beside it), or as its log said."""
    if isinstance(clock, (int, float)):
        return clock
    path, steps = (clock, None) if isinstance(clock, str) else clock
    ledger = json.loads((GRPO / path).read_text())
    untimed = [*ledger.get("summary_only", []), *ledger.get("not_recorded", [])]  # counted short, or not at all
    if steps is None:
        if untimed:
            raise SystemExit(f"{path}: steps without process time ({ledger}): its total is not the runner's clock")
        return ledger["total_seconds"] / 60
    timed = {step["run"]: step["process_seconds"] for step in ledger["steps"] if step["process_seconds"] is not None}
    missing = [step for step in steps if step not in timed]  # only the steps read: carried ones may be untimed
    if missing:
        raise SystemExit(f"{path} has no process time for {', '.join(missing)}")
    return sum(timed[step] for step in steps) / 60


def minutes_of(folders: list[str]) -> float:
    """The minutes ``make curriculum`` counts for these runs, from their summaries."""
    return sum(sum(step_seconds(summary(f)).values()) for f in folders) / 60


def runner_overhead() -> list[tuple[str, float, float]]:
    """(piece, the runner's minutes, its steps' summary minutes) for each piece of the chain run in pieces."""
    return [(piece, clock_minutes(clock), minutes_of(folders)) for piece, clock, folders in RUNNER_CLOCK]


def render(stages: list[dict], scale: float, means: dict[str, float]) -> str:
    total = sum(s["minutes"] for s in stages)
    pieces = runner_overhead()
    over = sum(clock - counted for _, clock, counted in pieces)
    lines = [
        "# The chain's training minutes by the recipes of now (issue 17: 60 minutes on one H100)",
        "",
        "Written by `scripts/analysis/chain_minutes.py` from the committed `summary.json` of the latest run of each "
        "stage's recipe as it stands, counted as `make curriculum` counts them (`training/core/chain_time.py`: a "
        "stage's format start, supervised help and GRPO steps, wall clock; model loading before GRPO not counted). "
        "Stages 1-5 ran as one chain in two pieces (batch 42's chain-a, batch 43's chain-b from it); stage 6's "
        "rows ran in batch 40, from a stage 5 of its recipe.",
        "",
        "| stage | run | what | parts (minutes) | minutes | card |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s in stages:
        parts = ", ".join(f"{name} {minutes:.1f}" for name, minutes in s["parts"].items())
        runs = " + ".join(f"`{folder}`" for folder in s["folder"].split(" + "))
        lines.append(f"| {s['stage']} | {runs} | {s['what']} | {parts} | {s['minutes']:.1f} | {s['device']} |")
    lines += [
        f"| **total** | | | | **{total:.1f}** | |",
        "",
        f"- **On H200s, training only: {total:.1f} minutes.** On one H100 (estimate): **{total * scale:.1f}**, "
        f"scaled by {scale:.3f}: stage 6's first part (1,500 steps) took {means['NVIDIA H100']:.0f} s on an H100 "
        f"(`{'`, `'.join(RATIO_RUNS['NVIDIA H100'])}`) and {means['NVIDIA H200']:.0f} s on average on H200s "
        f"({len(RATIO_RUNS['NVIDIA H200'])} runs). One recipe's ratio stands for every stage's: GRPO's generation "
        "and the shorter texts of stages 1-4 may scale otherwise.",
        "- **Not counted above**: each step's building and tokenizing of its problems, loading the model and saving, "
        "which the summaries leave out and the chain's clock does not. The runner's clock against its steps' "
        "summaries, piece by piece (stages 1-2: batch 42's chain-a, stages 3-5: batch 43's chain-b, each its "
        "`curriculum-time.json`; stage 6: batch 34's log, `batch-34/README.md`; H200s shared by two to four lanes): "
        + "; ".join(f"{piece} {clock:.1f} against {counted:.1f}" for piece, clock, counted in pieces)
        + f" minutes, **{over:.1f} minutes more** in all (each help's process: `supervised help done in 469 s` in "
        "`batch-33/chain-35/chain.log.gz`, 424 s in its summary).",
        f"- **So the chain by the recipes of now: ~{total + over:.0f} minutes on H200s, ~{total * scale + over:.0f} "
        f"on one H100** (the training scaled, the rest not), "
        f"{'over' if total * scale + over > BAR_MINUTES else 'under'} the bar of {BAR_MINUTES}. GRPO stops when its "
        f"stage is promoted, so its minutes are a draw: batch 32's chain ran the same recipes of stages 1-2 in "
        f"{minutes_of(EARLIER_DRAW):.1f} minutes (stage 1 never promoted: 310 steps), the rows above in "
        f"{sum(s['minutes'] for s in stages[:2]):.1f}. `make curriculum` now "
        "records each step's process time (`runs/<step>/chain-step.json`) and prints both figures when its steps are "
        "done (`runs/curriculum-time.json`), so a chain run as one reads its own.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=GRPO / "chain-minutes.md", help="where the table goes")
    args = parser.parse_args(argv)
    stages = rows()
    scale, means = ratio()
    args.out.write_text(render(stages, scale, means))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
