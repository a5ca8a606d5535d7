"""Stage 6's score by the stage 5 it was trained from: every committed stage-6 adapter of the current stage-6 recipe
(its long-text part, then its identifier part, or a continuation of one), grouped by lineage, with its 500-word
scores on validation, test and out of register read from the batches' ``eval.json``. Session 31 read it this way:
every stage 6 from n5-eq12 (stage 5 of before, 12 minutes of ``sft-stage-5-help-long``) scores higher at 500 words
than every one from the long-text stage 5 (n5-lt, then h5-steps), and ~0.1 higher out of register.

    .venv/bin/python scripts/analysis/stage6_lineage.py            # writes results/grpo/stage6-lineage.md

Which adapter descends from which stage 5 is written below (``ARMS``), as the batch READMEs say; every number is
read from a file under results/grpo/ (a missing one shows as ``-``). No GPU; under a second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
GRPO = REPO_ROOT / "results" / "grpo"

EQ12 = "n5-eq12"  # sft-stage-5-help-long for 12 minutes (4-400 words, lr 5e-4, a clock-cut cosine) from n4-eq3
LONG = "long-text stage 5"  # sft-stage-5-help-long-texts (25-400 words, lr 1e-4 constant): n5-lt from n4-eq3, h5-steps
LONG5E4 = "long-text stage 5 at 5e-4"  # the same help at lr 5e-4 (batch 38's adoption): l5-5e4 from h4-steps

# (adapter, batch, lineage, what it is; score folders by split, as the batch wrote them: (batch, folder) where a
# later batch scored it)
ARMS = [
    (
        "idf-more",
        29,
        EQ12,
        "the identifier part from n6-long (the long-text part from n5-eq12); the shipped adapter",
        {
            "validation": "idf-more-validation",
            "test": "idf-more-t6-test",
            "out_of_register": "idf-more-out_of_register",
        },
    ),
    (
        "idf-again",
        30,
        EQ12,
        "the identifier part again, from idf-more (problem seed 2)",
        {
            "validation": "idf-again-validation",
            "test": (31, "idf-again-test"),
            "out_of_register": (31, "idf-again-out_of_register"),
        },
    ),
    (
        "c6s-only",
        30,
        EQ12,
        "GRPO at idf-more's own slips, from idf-more",
        {"validation": "c6s-only-validation", "test": "c6s-only-test"},
    ),
    (
        "idf-long",
        31,
        EQ12,
        "idf-again's recipe with long identifiers, from idf-more",
        {"validation": "idf-long-validation", "out_of_register": "idf-long-out_of_register"},
    ),
    (
        "s6-lt",
        31,
        LONG,
        "stage 6 (both parts) from n5-lt",
        {"validation": "s6-lt-validation", "test": "s6-lt-test", "out_of_register": "s6-lt-out_of_register"},
    ),
    (
        "s6-short",
        31,
        LONG,
        "the identifier part from s6-lt's long-text part at step 1,100",
        {"validation": "s6-short-validation"},
    ),
    ("c6s-lt", 32, LONG, "c6s-only's recipe from s6-lt", {"validation": "c6s-lt-validation", "test": "c6s-lt-test"}),
    (
        "idf-again-lt",
        32,
        LONG,
        "idf-again's recipe from s6-lt",
        {"validation": "idf-again-lt-validation", "test": "idf-again-lt-test"},
    ),
    (
        "s6-ctl",
        32,
        LONG,
        "the identifier part again from s6-lt's long-text part (bf16)",
        {"validation": "s6-ctl-validation", "out_of_register": "s6-ctl-out_of_register"},
    ),
    (
        "s6-long",
        32,
        LONG,
        "the same with long identifiers",
        {"validation": "s6-long-validation", "test": "s6-long-test", "out_of_register": "s6-long-out_of_register"},
    ),
    (
        "s6-ema99",
        33,
        LONG,
        "the identifier part with a weight average (decay 0.99) from s6-lt's long-text part",
        {"validation": "s6-ema99-validation", "test": "s6-ema99-test", "out_of_register": "s6-ema99-out_of_register"},
    ),
    (
        "s6-ema995",
        33,
        LONG,
        "the same at decay 0.995",
        {"validation": "s6-ema995-validation", "out_of_register": "s6-ema995-out_of_register"},
    ),
    (
        "chain-stage-6",
        34,
        LONG,
        "the chain's stage 6 from batch 33's stage 5 (stage-5.yaml)",
        {
            "validation": "chain-stage-6-validation",
            "test": "chain-stage-6-test",
            "out_of_register": "chain-stage-6-out_of_register",
        },
    ),
    (
        "chain-stage-6s",
        36,
        LONG,
        "the chain's stage 6 from h5-steps (trained in batch 35)",
        {
            "validation": "chain-stage-6s-validation",
            "test": "chain-stage-6s-test",
            "out_of_register": "chain-stage-6s-out_of_register",
        },
    ),
    (
        "ctl-tail",
        36,
        LONG,
        "300 more identifier steps from chain-stage-6s",
        {"validation": "ctl-tail-validation", "test": "ctl-tail-test", "out_of_register": "ctl-tail-out_of_register"},
    ),
    ("ctl-tail2", 36, LONG, "300 more identifier steps from ctl-tail (seed 3)", {"validation": "ctl-tail2-validation"}),
    (
        "ctl-tail-s3",
        37,
        LONG,
        "300 more identifier steps from chain-stage-6s at seed 3 (validation: 512 problems)",
        {"validation": "ctl-tail-s3-512-validation"},
    ),
    (
        "cos-tail-s2",
        37,
        LONG,
        "the same at seed 2, annealed to zero (validation: 512 problems)",
        {"validation": "cos-tail-s2-512-validation"},
    ),
    (
        "cos-tail-s3",
        37,
        LONG,
        "the same at seed 3, annealed to zero (validation: 512 problems)",
        {"validation": "cos-tail-s3-512-validation"},
    ),
    (
        "rgrpo",
        37,
        LONG,
        "5 minutes of GRPO on repeated 50-word problems from chain-stage-6s (validation: 512 problems)",
        {"validation": "rgrpo-512-validation"},
    ),
    (
        "chain-stage-6t",
        39,
        LONG5E4,
        "the chain's stage 6 from l5-5e4 (batch 38; validation and OOR scored in batch 40, from its bf16 copy)",
        {
            "validation": (40, "chain-stage-6t-validation"),
            "test": "chain-stage-6t-test",
            "out_of_register": (40, "chain-stage-6t-out_of_register"),
        },
    ),
    (
        "idk",
        40,
        LONG5E4,
        "the identifier part as committed from s6a (the long-text part from l5-5e4, run alone)",
        {"validation": "idk-validation"},
    ),
    (
        "idc",
        40,
        LONG5E4,
        "the same annealed to zero (--lr_scheduler_type cosine) from s6a (test and OOR scored in batch 41)",
        {
            "validation": "idc-validation",
            "test": (41, "idc40-test"),
            "out_of_register": (41, "idc40-out_of_register"),
        },
    ),
    (
        "idk-s1",
        41,
        LONG5E4,
        "the identifier part at a constant rate from s6a again, the sampler's seed 1",
        {"validation": "idk-s1-validation"},
    ),
    (
        "idc-s1",
        41,
        LONG5E4,
        "the identifier part annealed from s6a again, the sampler's seed 1 (the recipe since batch 41)",
        {"validation": "idc-s1-validation"},
    ),
    (
        "idc-s2",
        41,
        LONG5E4,
        "the same at seed 2 (its constant-rate pair: idk-s2, batch 42)",
        {"validation": "idc-s2-validation"},
    ),
    (
        "idk-s2",
        42,
        LONG5E4,
        "the identifier part at a constant rate from s6a again, the sampler's seed 2 (batch 41's trained unscored)",
        {"validation": "idk-s2-validation"},
    ),
    (
        "c1000-idc",
        42,
        LONG5E4,
        "the identifier part (annealed, 613 steps) from the long-text part's step 1,000 (s6a-r, a third draw of it)",
        {"validation": "c1000-idc-validation"},
    ),
    (
        "c1000-idc400",
        42,
        LONG5E4,
        "the same in 400 steps (annealed over them)",
        {"validation": "c1000-idc400-validation"},
    ),
    (
        "idc-long",
        43,
        LONG5E4,
        "the identifier part annealed from s6a, half its identifiers long (--long_identifier_share 0.5; not adopted)",
        {"validation": "idc-long-validation"},
    ),
]
SPLITS = ("validation", "test", "out_of_register")


def trained_score(eval_json: Path, task: str) -> float | None:
    """The trained adapter's NW score of ``task`` (e.g. stage-6) in one eval.json; None where it has no such row."""
    rows = json.loads(eval_json.read_text())["rows"]
    return next((r["nw_score"] for r in rows if r["task"] == task and r.get("label", "trained") == "trained"), None)


def stage6_score(batch: int, folder: str | tuple[int, str]) -> float | None:
    """The 500-word (stage-6) NW score of one committed evaluation, None where it has none; ``folder`` is a score
    folder of the arm's batch, or (batch, folder) for one that a later batch scored."""
    if isinstance(folder, tuple):
        batch, folder = folder
    path = GRPO / f"batch-{batch}" / "scores" / folder / "eval.json"
    return trained_score(path, "stage-6") if path.exists() else None


def table() -> tuple[list[dict], dict[str, dict[str, list[float]]]]:
    """Each arm's scores, and per lineage the scores of each split."""
    arms, by_lineage = [], {lineage: {s: [] for s in SPLITS} for lineage in (EQ12, LONG, LONG5E4)}
    for name, batch, lineage, what, folders in ARMS:
        scores = {split: stage6_score(batch, folders[split]) if split in folders else None for split in SPLITS}
        arms.append({"adapter": name, "batch": batch, "lineage": lineage, "what": what, **scores})
        for split, score in scores.items():
            if score is not None:
                by_lineage[lineage][split].append(score)
    return arms, by_lineage


def cell(score: float | None) -> str:
    return "-" if score is None else f"{score:.3f}"


def span(scores: list[float]) -> str:
    if not scores:
        return "-"
    return f"{min(scores):.3f}-{max(scores):.3f} (mean {statistics.mean(scores):.3f}, {len(scores)})"


def render(arms: list[dict], by_lineage: dict) -> str:
    lines = [
        "# Stage 6 by the stage 5 it came from (500 words, greedy, 256 problems a split)",
        "",
        "Written by `scripts/analysis/stage6_lineage.py` from the batches' `scores/*/eval.json`. Every adapter",
        "below was trained by the stage-6 recipe of now (its long-text part, 1,500 steps, then its identifier part) or",
        "continues one. n5-eq12 and n5-lt both continue n4-eq3 (batch 25's stage 4): between those two lineages only",
        "the stage-5 help differs (`sft-stage-5-help-12m`: 4-400 words at lr 5e-4 for 12 minutes; against",
        "`sft-stage-5-help-long-texts`: 25-400 words at a constant 1e-4, 759 steps). h5-steps is the long-text help",
        "from the chain's stage 4 of now; l5-5e4 the same help at lr 5e-4 from it (batch 38's adoption). Continuations",
        "of one adapter are not independent draws.",
        "",
        "| adapter | batch | stage 5 it descends from | what | validation | test | out of register |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for a in arms:
        lines.append(
            f"| {a['adapter']} | {a['batch']} | {a['lineage']} | {a['what']} | {cell(a['validation'])} | "
            f"{cell(a['test'])} | {cell(a['out_of_register'])} |"
        )
    lines += ["", "| lineage | validation | test | out of register |", "| --- | --- | --- | --- |"]
    for lineage, scores in by_lineage.items():
        lines.append(f"| {lineage} | {' | '.join(span(scores[s]) for s in SPLITS)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=GRPO / "stage6-lineage.md", help="where the table goes")
    args = parser.parse_args(argv)
    arms, by_lineage = table()
    args.out.write_text(render(arms, by_lineage))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
