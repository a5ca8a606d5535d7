"""Issue 17, item 3's ablation, gathered from committed results only: per stage, the arms at (about) equal GPU
minutes (supervised help alone against help + GRPO), stage 6 trained directly against through the curriculum (the
collapse test), and whatever test-split scores those arms have.

    .venv/bin/python scripts/analysis/ablation.py            # writes results/grpo/ablation/README.md and two plots

Which runs are the arms of which comparison is written below (``COMPARISONS``, ``DIRECT``, ``CHAIN``), as the batch
READMEs (results/grpo/batch-23 ... batch-31/README.md) define them. Every number in the output is read from a file
under results/: minutes from each run's ``summary.json`` (``wall_seconds``; a stage run that trained a supervised
help first adds the help's ``wall_seconds``), per-step GRPO curves from ``metrics.jsonl(.gz)``, scores from the
``eval.json`` of ``scores/``, ``cpu-eval/``, ``cpu-check/`` and ``shipped-eval/``, and the condensed
``batch-N.json`` records as a cross-check. A file that is missing shows as ``no file`` in its cell. No GPU; about a
second.
"""

import argparse
import io
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.summarize_runs import read_jsonl  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
STAGE_WORDS = {1: 10, 2: 25, 3: 50, 4: 100, 5: 200, 6: 500}
BATCHES = (23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45)


@dataclass(frozen=True)
class Part:
    """One training run of an arm: ``results/grpo/batch-{batch}/{run}/summary.json``. ``upto_step`` takes the run's
    minutes up to a checkpoint from its ``metrics.jsonl(.gz)``; ``untimed`` is a step that took minutes nobody
    recorded (named, counted as unknown)."""

    batch: int
    run: str
    upto_step: int | None = None
    untimed: str | None = None


@dataclass(frozen=True)
class Arm:
    name: str
    batch: int
    what: str
    parts: tuple[Part, ...]
    evals: tuple[str, ...]  # eval folders (or files) relative to results/grpo, validation first
    start: bool = False  # the common start of the comparison: its minutes are not counted


@dataclass(frozen=True)
class Pair:
    grpo: str
    help: str | None
    kind: str  # "equal": the batch README pairs them at equal minutes; "nearest": no arm at equal minutes ran
    base: str | None = None  # the help both arms build on, for GRPO's gain on top of it and the extra help's gain
    note: str = ""


@dataclass(frozen=True)
class Comparison:
    key: str
    stage: int
    title: str
    arms: tuple[Arm, ...]
    pairs: tuple[Pair, ...] = ()
    note: str = ""
    extra_words: tuple[int, ...] = field(default=())


def _p(batch: int, *runs: str) -> tuple[Part, ...]:
    return tuple(Part(batch, run) for run in runs)


def _v(batch: int, run: str) -> tuple[str, ...]:
    return (f"batch-{batch}/scores/{run}-validation",)


COMPARISONS: tuple[Comparison, ...] = (
    Comparison(
        "1",
        1,
        "Stage 1 (10 words): GRPO alone from the format start (batch 23)",
        (
            Arm(
                "sft-start",
                0,
                "a format start of the same recipe (100 SFT steps) from an earlier session; batch 23's own were not "
                "scored",
                (),
                ("sft-start-eval-validation.json",),
                start=True,
            ),
            Arm(
                "i1-b256",
                23,
                "format start, then `stage-1.yaml` (the shipped stage 1 of batches 24-25)",
                (Part(23, "sft-start"), Part(23, "i1-b256")),
                ("batch-23/scores/i1-b256-average-validation",),
            ),
            Arm(
                "i1-b256-s1",
                23,
                "the same, seed 1, on machine 2's own format start",
                (Part(23, "sft-start-h100"), Part(23, "i1-b256-s1")),
                ("batch-23/scores/i1-b256-s1-average-validation",),
            ),
            Arm(
                "i1-b256-s2",
                23,
                "the same, seed 2",
                (Part(23, "sft-start-h100"), Part(23, "i1-b256-s2")),
                ("batch-23/scores/i1-b256-s2-average-validation",),
            ),
        ),
        note="No supervised-only arm at stage 1 ran at these minutes on this corpus. The nearest supervised run, "
        "batch 24's `sup-1` (`sft-every-length.yaml` from a fresh adapter), was never scored on its own; see the gaps.",
    ),
    Comparison(
        "2",
        2,
        "Stage 2 (25 words), from batch 23's stage 1 (batches 24-25)",
        (
            Arm(
                "i1-b256",
                23,
                "the start (batch 23's stage 1)",
                (),
                ("batch-23/scores/i1-b256-average-validation",),
                start=True,
            ),
            Arm("c2", 24, "`stage-2.yaml` of then: help, then GRPO at lr 3e-4", _p(24, "c2"), _v(24, "c2")),
            Arm("c2-eq", 24, "the scrambled help alone", _p(24, "c2-eq"), _v(24, "c2-eq")),
            Arm("c2-eq-grpo", 24, "c2-eq, then GRPO (`polish`)", _p(24, "c2-eq", "c2-eq-grpo"), _v(24, "c2-eq-grpo")),
            Arm("n2-eq12", 25, "the same help alone, longer", _p(25, "n2-eq12"), _v(25, "n2-eq12")),
        ),
        (
            Pair("c2", "c2-eq", "equal", note="c2's own 2-minute help was not scored apart"),
            Pair("c2-eq-grpo", "n2-eq12", "equal", base="c2-eq"),
        ),
    ),
    Comparison(
        "3",
        3,
        "Stage 3 (50 words), from the shipped stage 2 (c2-eq-grpo; batch 25)",
        (
            Arm(
                "c2-eq-grpo",
                24,
                "the start (stage 2)",
                (),
                (*_v(24, "c2-eq-grpo"), "batch-24/shipped-eval"),
                start=True,
            ),
            Arm("n3-eq", 25, "stage 3's help alone", _p(25, "n3-eq"), _v(25, "n3-eq")),
            Arm("n3-grpo", 25, "n3-eq, then GRPO (`polish`)", _p(25, "n3-eq", "n3-grpo"), _v(25, "n3-grpo")),
            Arm(
                "n4-eq3",
                25,
                "n3-eq, then stage 4's help alone (not more of stage 3's)",
                _p(25, "n3-eq", "n4-eq3"),
                _v(25, "n4-eq3"),
            ),
        ),
        (
            Pair(
                "n3-grpo",
                "n4-eq3",
                "nearest",
                base="n3-eq",
                note="no help-alone arm at n3-grpo's minutes ran; n4-eq3 spends its extra minutes on stage 4's help",
            ),
        ),
    ),
    Comparison(
        "4",
        4,
        "Stage 4 (100 words), from n3-eq (batch 25; n5-eq of batch 26 as the nearest longer help)",
        (
            Arm("n3-eq", 25, "the start (stage 3)", (), _v(25, "n3-eq"), start=True),
            Arm("n4-eq3", 25, "stage 4's help alone", _p(25, "n4-eq3"), _v(25, "n4-eq3")),
            Arm("n4-grpo3", 25, "n4-eq3, then GRPO (`polish`)", _p(25, "n4-eq3", "n4-grpo3"), _v(25, "n4-grpo3")),
            Arm(
                "n5-eq",
                26,
                "n4-eq3, then stage 5's help alone (not more of stage 4's)",
                (Part(25, "n4-eq3"), Part(26, "n5-eq")),
                _v(26, "n5-eq"),
            ),
        ),
        (
            Pair(
                "n4-grpo3",
                "n5-eq",
                "nearest",
                base="n4-eq3",
                note="no help-alone arm at n4-grpo3's minutes ran; n5-eq spends more minutes, on stage 5's help",
            ),
        ),
    ),
    Comparison(
        "5",
        5,
        "Stage 5 (200 words), from the shipped stage 4 (n4-eq3; batch 26)",
        (
            Arm("n4-eq3", 25, "the start (stage 4)", (), _v(25, "n4-eq3"), start=True),
            Arm("n5-eq", 26, "stage 5's help alone", _p(26, "n5-eq"), _v(26, "n5-eq")),
            Arm("n5-grpo", 26, "n5-eq, then GRPO (`polish`)", _p(26, "n5-eq", "n5-grpo"), _v(26, "n5-grpo")),
            Arm("n5-eq12", 26, "the same help alone, longer", _p(26, "n5-eq12"), _v(26, "n5-eq12")),
            Arm(
                "n5-lt",
                30,
                "the long-text help alone (lr 1e-4 constant, 25-400 words; stage 5's help since batch 30)",
                _p(30, "n5-lt"),
                _v(30, "n5-lt"),
            ),
        ),
        (Pair("n5-grpo", "n5-eq12", "equal", base="n5-eq"),),
    ),
    Comparison(
        "6a",
        6,
        "Stage 6 (500 words) from n5-eq: GRPO alone against stage 6's help alone (batch 26)",
        (
            Arm("n5-eq", 26, "the start (stage 5's 7-minute help)", (), _v(26, "n5-eq"), start=True),
            Arm("n6-eq", 26, "stage 6's help (4-500 words, lr 5e-4) alone", _p(26, "n6-eq"), _v(26, "n6-eq")),
            Arm(
                "s6-chain",
                26,
                "`stage-6.yaml`'s GRPO on whole answers, no help",
                _p(26, "s6-chain"),
                _v(26, "s6-chain"),
            ),
        ),
        (
            Pair(
                "s6-chain",
                "n6-eq",
                "equal",
                note="GRPO alone against help alone from the same start; batch 26's rule compares them (6 minutes of "
                "GRPO, 8 of help) without calling them equal minutes",
            ),
        ),
        extra_words=(200,),
    ),
    Comparison(
        "6b",
        6,
        "Stage 6 (500 words) from n5-eq12, the old stage-6 help (batch 27)",
        (
            Arm("n5-eq12", 26, "the start (stage 5 by `stage-5.yaml`)", (), _v(26, "n5-eq12"), start=True),
            Arm("n6-8m", 27, "stage 6's help of then (4-500 words, lr 5e-4) alone", _p(27, "n6-8m"), _v(27, "n6-8m")),
            Arm(
                "c6-win",
                27,
                "n6-8m, then GRPO on 40-word continuation windows",
                _p(27, "n6-8m", "c6-win"),
                _v(27, "c6-win"),
            ),
            Arm("n6-13m", 27, "the same help alone, longer", _p(27, "n6-13m"), _v(27, "n6-13m")),
        ),
        (Pair("c6-win", "n6-13m", "equal", base="n6-8m"),),
        extra_words=(200,),
    ),
    Comparison(
        "6c",
        6,
        "Stage 6 (500 words) from n5-eq12, the long-text help (batches 27-28)",
        (
            Arm("n5-eq12", 26, "the start (stage 5 by `stage-5.yaml`)", (), _v(26, "n5-eq12"), start=True),
            Arm(
                "n6-lt8",
                27,
                "`sft-long-texts` alone (cosine schedule, stopped at step 742)",
                _p(27, "n6-lt8"),
                _v(27, "n6-lt8"),
            ),
            Arm(
                "c6w-lt",
                27,
                "n6-lt8, then GRPO on random 40-word windows",
                _p(27, "n6-lt8", "c6w-lt"),
                _v(27, "c6w-lt"),
            ),
            Arm(
                "c6-slip",
                28,
                "n6-lt8, its greedy eval on 320 train problems (the cut points), then GRPO on "
                "windows at its first slips, lr 3e-5",
                (
                    Part(27, "n6-lt8"),
                    Part(28, "n6-lt8-train", untimed="the cut-point eval (scores/n6-lt8-train)"),
                    Part(28, "c6-slip"),
                ),
                _v(28, "c6-slip"),
            ),
            Arm(
                "c6-slip-lr",
                28,
                "the same at lr 1e-4",
                (
                    Part(27, "n6-lt8"),
                    Part(28, "n6-lt8-train", untimed="the cut-point eval (scores/n6-lt8-train)"),
                    Part(28, "c6-slip-lr"),
                ),
                _v(28, "c6-slip-lr"),
            ),
            Arm(
                "n6-long-742",
                28,
                "`sft-stage-6-help-long-texts` (constant rate): n6-long's step-742 checkpoint",
                (Part(28, "n6-long", upto_step=742),),
                _v(28, "n6-long-742"),
            ),
            Arm(
                "n6-long",
                28,
                "the same help for 1,500 steps (the shipped stage 6)",
                _p(28, "n6-long"),
                _v(28, "n6-long"),
            ),
        ),
        (
            Pair(
                "c6-slip",
                "n6-long",
                "equal",
                base="n6-lt8",
                note="n6-long is a run of its own from n5-eq12 (a constant-rate schedule), not n6-lt8 continued",
            ),
            Pair("c6-slip-lr", "n6-long", "equal", base="n6-lt8"),
            Pair(
                "c6w-lt",
                "n6-long",
                "nearest",
                base="n6-lt8",
                note="batch 27 ran no equal-minutes arm for c6w-lt; n6-long (batch 28) is the nearest",
            ),
        ),
        extra_words=(200,),
    ),
    Comparison(
        "6d",
        6,
        "Stage 6 (500 words) from n6-long: GRPO at its own slips against more help (batch 29)",
        (
            Arm("n6-long", 28, "the start (stage 6's first help part, batch 28)", (), _v(28, "n6-long"), start=True),
            Arm(
                "n6-more",
                29,
                "850 more steps of the same help (another draw of problems)",
                _p(29, "n6-more"),
                _v(29, "n6-more"),
            ),
            Arm(
                "c6s-only",
                29,
                "n6-long's greedy eval on 480 train problems (the cut points), then GRPO on windows at its first "
                "slips, the slipped problems alone, lr 3e-5",
                (
                    Part(29, "n6-long-train", untimed="the cut-point eval (scores/n6-long-train)"),
                    Part(29, "c6s-only"),
                ),
                _v(29, "c6s-only"),
            ),
            Arm("ml-more", 29, "n6-more's minutes at max_length 6144", _p(29, "ml-more"), _v(29, "ml-more")),
            Arm(
                "idf-more",
                29,
                "ml-more with identifiers in half the problems (the shipped stage 6)",
                _p(29, "idf-more"),
                _v(29, "idf-more"),
            ),
        ),
        (
            Pair(
                "c6s-only",
                "n6-more",
                "equal",
                base="n6-long",
                note="c6s-only also spent an untimed cut-point eval (~3 minutes)",
            ),
        ),
        extra_words=(200,),
    ),
    Comparison(
        "6e",
        6,
        "Stage 6 (500 words) from the shipped adapter (idf-more): GRPO at its own slips against more help (batch 30)",
        (
            Arm("idf-more", 29, "the start (the shipped stage 6, batch 29)", (), _v(29, "idf-more"), start=True),
            Arm(
                "idf-again",
                30,
                "6 more minutes of its identifier help (another draw of problems)",
                _p(30, "idf-again"),
                _v(30, "idf-again"),
            ),
            Arm(
                "c6s-ship",
                30,
                "its greedy eval on 320 train problems (the cut points), then GRPO on windows at its first slips, "
                "the slipped problems alone, lr 3e-5 (batch 30's c6s-only)",
                (
                    Part(30, "ship-train", untimed="the cut-point eval (scores/ship-train)"),
                    Part(30, "c6s-only"),
                ),
                _v(30, "c6s-only"),
            ),
        ),
        (
            Pair(
                "c6s-ship",
                "idf-again",
                "equal",
                base="idf-more",
                note="c6s-ship also spent an untimed cut-point eval (~2 minutes); idf-again's test and "
                "out-of-register scores came back in batch 31",
            ),
        ),
        extra_words=(200,),
    ),
    Comparison(
        "6f",
        6,
        "Stage 6 (500 words) from the chain's own stage 6 (s6-lt): GRPO at its own slips against more help (batch 32)",
        (
            Arm(
                "s6-lt",
                31,
                "the start (stage 6 of the chain by the recipes of now, batch 31)",
                (),
                _v(31, "s6-lt"),
                start=True,
            ),
            Arm(
                "idf-again-lt",
                32,
                "6 more minutes of its identifier help (another draw of problems; batch 30's idf-again recipe)",
                _p(32, "idf-again-lt"),
                _v(32, "idf-again-lt"),
            ),
            Arm(
                "c6s-lt",
                32,
                "its greedy eval on 320 train problems (the cut points), then GRPO on windows at its first slips, "
                "the slipped problems alone, lr 3e-5 (batch 30's c6s-only recipe)",
                (
                    Part(32, "lt-train", untimed="the cut-point eval (scores/lt-train)"),
                    Part(32, "c6s-lt"),
                ),
                _v(32, "c6s-lt"),
            ),
        ),
        (
            Pair(
                "c6s-lt",
                "idf-again-lt",
                "equal",
                base="s6-lt",
                note="c6s-lt also spent an untimed cut-point eval (~2 minutes)",
            ),
        ),
        extra_words=(200,),
    ),
)

# Stage 6 directly from stage 1 against through the curriculum: the GRPO run, and the chain of runs before it.
DIRECT = Arm(
    "s6-direct",
    24,
    "`stage-6.yaml`'s GRPO from stage 1 (batch 23's i1-b256, shipped then as "
    "`adapters/shipped`; the batch README's s6-direct-2)",
    _p(24, "s6-direct"),
    _v(24, "s6-direct"),
)
DIRECT_BEFORE = (Part(23, "sft-start"), Part(23, "i1-b256"))
CHAIN = Arm(
    "s6-chain", 26, "`stage-6.yaml`'s GRPO from the chain's stage 5 (n5-eq)", _p(26, "s6-chain"), _v(26, "s6-chain")
)
CHAIN_BEFORE = (*DIRECT_BEFORE, *_p(24, "c2-eq", "c2-eq-grpo"), *_p(25, "n3-eq", "n4-eq3"), Part(26, "n5-eq"))

# Evaluation folders whose name does not name the run they scored (from the batch READMEs).
EVAL_ALIASES = {
    "batch-24/shipped-eval": "c2-eq-grpo",
    "batch-27/cpu-check": "n6-lt8",
    "batch-28/cpu-check": "n6-long",
    "batch-29/cpu-check": "idf-more",
    "batch-29/scores/idf-more-t15-test": "idf-more",
    "batch-29/scores/idf-more-t6-test": "idf-more",
    "batch-30/scores/c6s-only-test": "c6s-ship",  # batch 30's c6s-only (batch 29 has a run of that name)
}
EVAL_SUFFIXES = ("-average-out_of_register", "-average-test", "-out_of_register", "-test", "-oor")
# Arms for scale, not in a comparison: the supervised chain's first two phases (batch 24).
SCALE_RUNS = ("sup-2",)


def curriculum_steps() -> list[str]:
    """The runs of `make supervised-curriculum` (training/recipes/chains/supervised-curriculum.yaml), whose folders
    results/curriculum/ holds."""
    from training.core.chains import CHAINS_DIR, read_chain

    return [step.run for step in read_chain(CHAINS_DIR / "supervised-curriculum.yaml").steps]


# ---------------------------------------------------------------------------------------------------- reading files


def read_json(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.is_file() else None


def read_metrics(folder: Path) -> tuple[list[dict], Path | None]:
    """A run's per-step metrics (``read_jsonl``: the file or its gzipped copy) and the file they came from."""
    plain = folder / "metrics.jsonl"
    path = next((p for p in (plain, plain.with_name(plain.name + ".gz")) if p.is_file()), None)
    return read_jsonl(plain), path


class Results:
    """Cached reads of one results tree (``root`` is results/; runs live under ``root/grpo``)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.grpo = self.root / "grpo"
        self._cache: dict = {}

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)

    def summary(self, part: Part) -> dict | None:
        key = ("summary", part.batch, part.run)
        if key not in self._cache:
            self._cache[key] = read_json(self.grpo / f"batch-{part.batch}" / part.run / "summary.json")
        return self._cache[key]

    def metrics(self, part: Part) -> tuple[list[dict], Path | None]:
        key = ("metrics", part.batch, part.run)
        if key not in self._cache:
            self._cache[key] = read_metrics(self.grpo / f"batch-{part.batch}" / part.run)
        return self._cache[key]

    def eval_rows(self, arm: Arm) -> tuple[dict, list[str]]:
        """{(task, split): row} over the arm's eval files (the first file that holds a cell wins), and the files."""
        rows: dict = {}
        files = []
        for entry in arm.evals:
            path = self.grpo / entry
            path = path if path.suffix == ".json" else path / "eval.json"
            data = read_json(path)
            if data is None:
                continue
            files.append(self.rel(path))
            for row in data.get("rows", []):
                if row.get("label", "trained") == "trained":
                    rows.setdefault((row["task"], row.get("split")), row)
        return rows, files


# ---------------------------------------------------------------------------------------------------- one arm


def device_name(text: str | None) -> str:
    """The card's short name (``H100``), or each card in turn where a run named several (a help of two parts on two
    cards: ``one NVIDIA H100 80GB HBM3, then one NVIDIA H200`` -> ``H100, then H200``)."""
    if not text:
        return "?"
    found = [card for part in text.split(", then ") for card in ("H100", "H200", "A100") if card in part]
    return ", then ".join(found) if found else text


def is_grpo(summary: dict) -> bool:
    return "grpo" in summary and (summary.get("global_step") or 0) > 0


@dataclass
class PartTime:
    help_seconds: float | None
    grpo_seconds: float | None
    help_steps: int
    grpo_steps: int
    card: str
    source: str
    note: str = ""
    learning_rate: float | None = None


def part_time(results: Results, part: Part) -> PartTime:
    folder = results.rel(results.grpo / f"batch-{part.batch}" / part.run)
    if part.untimed:
        return PartTime(
            None, None, 0, 0, "", results.rel(results.grpo / f"batch-{part.batch}/scores/{part.run}"), part.untimed
        )
    summary = results.summary(part)
    if summary is None:
        return PartTime(None, None, 0, 0, "?", f"{folder}/summary.json", "no file")
    card = device_name(summary.get("device"))
    if part.upto_step is not None:
        rows, path = results.metrics(part)
        logged = [r for r in rows if r.get("global_step", 0) <= part.upto_step and "run_seconds" in r]
        if not logged:
            return PartTime(None, None, 0, 0, card, f"{folder}/metrics.jsonl(.gz)", "no file")
        last = logged[-1]
        note = f"run_seconds at logged step {last['global_step']}"
        return PartTime(last["run_seconds"], 0.0, part.upto_step, 0, card, results.rel(path), note)
    help_seconds, help_steps = 0.0, 0
    grpo_seconds, grpo_steps, learning_rate = 0.0, 0, None
    if is_grpo(summary):
        grpo_seconds, grpo_steps = summary["wall_seconds"], summary["global_step"]
        learning_rate = summary["grpo"].get("learning_rate")
        helped = summary.get("supervised_help")
        if isinstance(helped, dict):
            help_seconds, help_steps = helped.get("wall_seconds") or 0.0, helped.get("steps") or 0
    else:
        helped = summary.get("supervised_help")
        help_seconds = summary.get("wall_seconds") or 0.0
        help_steps = helped.get("steps", 0) if isinstance(helped, dict) else summary.get("global_step", 0)
    return PartTime(
        help_seconds, grpo_seconds, help_steps, grpo_steps, card, f"{folder}/summary.json", learning_rate=learning_rate
    )


@dataclass
class ArmFacts:
    arm: Arm
    minutes: float | None  # None when any part is missing
    untimed: list[str]
    help_minutes: float
    grpo_minutes: float
    help_steps: int
    grpo_steps: int
    cards: list[str]
    learning_rates: list[float]
    sources: list[str]
    scores: dict
    eval_files: list[str]
    zero_std: list[float]  # per GRPO step, frac_reward_zero_std
    curve_sources: list[str]

    def score(self, words: int, split: str = "validation") -> dict | None:
        stage = {v: k for k, v in STAGE_WORDS.items()}[words]
        return self.scores.get((f"stage-{stage}", split))


def arm_facts(results: Results, arm: Arm) -> ArmFacts:
    times = [part_time(results, part) for part in arm.parts]
    missing = any(t.note == "no file" for t in times)
    untimed = [t.note for t in times if t.help_seconds is None and t.note != "no file"]
    help_seconds = sum(t.help_seconds or 0.0 for t in times)
    grpo_seconds = sum(t.grpo_seconds or 0.0 for t in times)
    zero_std, curve_sources = [], []
    for part, t in zip(arm.parts, times):
        if t.grpo_steps:
            rows, path = results.metrics(part)
            steps = [r["frac_reward_zero_std"] for r in rows if "frac_reward_zero_std" in r]
            zero_std.extend(steps)
            if path is not None:
                curve_sources.append(results.rel(path))
    scores, eval_files = results.eval_rows(arm)
    return ArmFacts(
        arm=arm,
        minutes=None if missing else (help_seconds + grpo_seconds) / 60,
        untimed=untimed,
        help_minutes=help_seconds / 60,
        grpo_minutes=grpo_seconds / 60,
        help_steps=sum(t.help_steps for t in times),
        grpo_steps=sum(t.grpo_steps for t in times),
        cards=sorted({t.card for t in times if t.card}),
        learning_rates=[t.learning_rate for t in times if t.learning_rate is not None],
        sources=[t.source for t in times],
        scores=scores,
        eval_files=eval_files,
        zero_std=zero_std,
        curve_sources=curve_sources,
    )


# ---------------------------------------------------------------------------------------------------- formatting


def nw(row: dict | None, exact: bool = True) -> str:
    if row is None or row.get("nw_score") is None:
        return "not scored"
    text = f"{row['nw_score']:.3f}"
    if exact and row.get("exact_match") is not None:
        text += f" / {100 * row['exact_match']:.1f}%"
    return text


def signed(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    return f"{0.0:.{digits}f}" if round(value, digits) == 0 else f"{value:+.{digits}f}"


def minutes_text(facts: ArmFacts) -> str:
    if facts.arm.start:
        return "(start)"
    if facts.minutes is None:
        return "no file"
    text = f"{facts.minutes:.1f}"
    if facts.untimed:
        text += " + untimed"
    return text


def composition(facts: ArmFacts) -> str:
    if facts.arm.start:
        return "-"
    pieces = []
    if facts.help_steps or facts.help_minutes:
        pieces.append(f"help {facts.help_minutes:.1f} min ({facts.help_steps:,} steps)")
    if facts.untimed:
        pieces.append("untimed: " + "; ".join(facts.untimed))
    if facts.grpo_steps:
        rates = ", ".join(f"lr {lr:g}" for lr in facts.learning_rates)
        pieces.append(f"GRPO {facts.grpo_minutes:.1f} min ({facts.grpo_steps} steps, {rates})")
    return " + ".join(pieces) or "no file"


def zero_std_text(values: list[float]) -> str:
    if not values:
        return "-"
    text = f"{statistics.fmean(values):.2f}"
    if len(values) >= 20:
        text += f" ({statistics.fmean(values[:10]):.2f} -> {statistics.fmean(values[-10:]):.2f})"
    return text


def score_value(row: dict | None) -> float | None:
    return None if row is None else row.get("nw_score")


def diff(a: dict | None, b: dict | None) -> float | None:
    x, y = score_value(a), score_value(b)
    return None if x is None or y is None else x - y


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------- tables


def gather(results: Results, comparisons=COMPARISONS) -> dict[tuple[str, str], ArmFacts]:
    return {(c.key, arm.name): arm_facts(results, arm) for c in comparisons for arm in c.arms}


def arms_table(results: Results, comparisons=COMPARISONS, facts=None) -> str:
    facts = facts or gather(results, comparisons)
    blocks = []
    for c in comparisons:
        words = STAGE_WORDS[c.stage]
        extra = [w for w in c.extra_words if w != words]
        header = ["arm", "batch", "what", "card", "minutes", "training", f"{words} w (NW / exact)"]
        header += [f"{w} w" for w in extra] + (["10 w"] if words != 10 else [])
        header += ["GRPO steps: zero-variance fraction", "sources"]
        rows = []
        for arm in c.arms:
            f = facts[(c.key, arm.name)]
            row = [
                f"**{arm.name}**" if not arm.start else arm.name,
                str(arm.batch or "-"),
                arm.what,
                "/".join(f.cards) or "-",
                minutes_text(f),
                composition(f),
                nw(f.score(words)),
            ]
            row += [nw(f.score(w), exact=False) for w in extra]
            row += [nw(f.score(10), exact=False)] if words != 10 else []
            row.append(zero_std_text(f.zero_std))
            row.append(", ".join(f"`{s}`" for s in [*f.sources, *f.eval_files, *f.curve_sources]) or "no file")
            rows.append(row)
        block = f"#### {c.key}. {c.title}\n\n" + table(header, rows)
        if c.note:
            block += f"\n\n{c.note}"
        blocks.append(block)
    return "\n\n".join(blocks)


@dataclass
class PairFacts:
    comparison: Comparison
    pair: Pair
    grpo: ArmFacts
    help: ArmFacts | None
    base: ArmFacts | None

    @property
    def words(self) -> int:
        return STAGE_WORDS[self.comparison.stage]

    def share(self, words: int | None = None) -> float | None:
        words = words or self.words
        return None if self.help is None else diff(self.grpo.score(words), self.help.score(words))

    def grpo_gain(self) -> float | None:
        return None if self.base is None else diff(self.grpo.score(self.words), self.base.score(self.words))

    def help_gain(self) -> float | None:
        if self.base is None or self.help is None:
            return None
        return diff(self.help.score(self.words), self.base.score(self.words))

    def minutes_apart(self) -> float | None:
        if self.help is None or self.grpo.minutes is None or self.help.minutes is None:
            return None
        return self.grpo.minutes - self.help.minutes


def pair_facts(comparisons=COMPARISONS, facts=None) -> list[PairFacts]:
    out = []
    for c in comparisons:
        for p in c.pairs:
            out.append(
                PairFacts(
                    c,
                    p,
                    facts[(c.key, p.grpo)],
                    facts.get((c.key, p.help)) if p.help else None,
                    facts.get((c.key, p.base)) if p.base else None,
                )
            )
    return out


def pairs_table(pairs: list[PairFacts]) -> str:
    header = [
        "stage",
        "arm with GRPO (minutes)",
        "help-alone arm (minutes)",
        "pairing",
        "GRPO's share at the stage's length (GRPO arm - help arm)",
        "at 10 w",
        "GRPO on top of its help (GRPO arm - the help it started from)",
        "the help arm's extra minutes over that same help",
        "zero-variance fraction of the GRPO steps (mean; first 10 -> last 10)",
        "note",
    ]
    rows = []
    for pf in pairs:
        g, h = pf.grpo, pf.help
        apart = pf.minutes_apart()
        pairing = (
            "(about) equal minutes, as the batch pairs them"
            if pf.pair.kind == "equal"
            else "nearest arm, not equal minutes"
        )
        if apart is not None:
            pairing += f"; {apart:+.1f} min apart" + (" + untimed" if g.untimed else "")
        base = f" over {pf.base.arm.name}" if pf.base else ""
        rows.append(
            [
                f"{pf.comparison.stage} ({pf.words} w)",
                f"{g.arm.name}, batch {g.arm.batch} ({minutes_text(g)})",
                f"{h.arm.name}, batch {h.arm.batch} ({minutes_text(h)})" if h else "none ran",
                pairing,
                signed(pf.share()),
                signed(pf.share(10)) if pf.words != 10 else "-",
                signed(pf.grpo_gain()) + base if pf.base else "n/a",
                signed(pf.help_gain()) + base if pf.base and h else "n/a",
                zero_std_text(g.zero_std),
                pf.pair.note,
            ]
        )
    return table(header, rows)


def curve(results: Results, arm: Arm) -> tuple[list[dict], str | None]:
    rows, path = [], None
    for part in arm.parts:
        summary = results.summary(part)
        if summary is not None and is_grpo(summary):
            rows, path = results.metrics(part)
    return [r for r in rows if "frac_reward_zero_std" in r], (results.rel(path) if path else None)


def direct_vs_chain(results: Results) -> str:
    header = [
        "run",
        "batch",
        "what",
        "start (summary's init_adapter)",
        "training minutes before it, from the format start",
        "stage-6 GRPO: minutes, steps, s a step",
        "reward (mean of steps)",
        "reward std (mean)",
        "zero-variance groups (mean; max)",
        "groups of identical completions (max)",
        "completions at the token limit (mean)",
        "500 w after (validation)",
        "other stage after",
        "sources",
    ]
    rows, per_step = [], []
    for arm, before in ((DIRECT, DIRECT_BEFORE), (CHAIN, CHAIN_BEFORE)):
        f = arm_facts(results, arm)
        pre = arm_facts(results, Arm(arm.name, arm.batch, "", before, ()))
        steps, source = curve(results, arm)
        summary = results.summary(arm.parts[0]) or {}

        def mean(key, steps=steps):
            values = [s[key] for s in steps if s.get(key) is not None]
            return statistics.fmean(values) if values else None

        def fmt(value, spec):
            return "no file" if value is None else format(value, spec)

        zero = [s["frac_reward_zero_std"] for s in steps]
        identical = [s.get("groups/identical_fraction_sampled") for s in steps]
        identical = [v for v in identical if v is not None]
        other = [(k, r) for k, r in f.scores.items() if k[1] == "validation" and k[0] != "stage-6"]
        rows.append(
            [
                f"**{arm.name}**",
                str(arm.batch),
                arm.what,
                f"`{summary.get('init_adapter', 'no file')}`",
                "no file" if pre.minutes is None else f"{pre.minutes:.1f} ({len(before)} runs)",
                f"{f.grpo_minutes:.1f}, {f.grpo_steps}, {fmt(mean('step_time'), '.0f')}",
                fmt(mean("reward"), ".4f"),
                fmt(mean("reward_std"), ".4f"),
                f"{fmt(statistics.fmean(zero) if zero else None, '.2f')}; {fmt(max(zero) if zero else None, '.2f')}",
                fmt(max(identical) if identical else None, ".2f"),
                fmt(mean("completions/clipped_ratio"), ".2f"),
                nw(f.score(500)),
                ", ".join(f"{k[0]}: {nw(r)}" for k, r in sorted(other)) or "-",
                ", ".join(f"`{s}`" for s in [*f.sources, *f.eval_files, *([source] if source else []), *pre.sources]),
            ]
        )
        for s in steps:
            per_step.append(
                [
                    arm.name,
                    str(s["global_step"]),
                    f"{s['reward']:.4f}",
                    f"{s.get('reward_std', float('nan')):.4f}",
                    f"{s['frac_reward_zero_std']:.3f}",
                    fmt(s.get("groups/identical_fraction_sampled"), ".3f"),
                    fmt(s.get("completions/clipped_ratio"), ".3f"),
                    fmt(s.get("completions/mean_length"), ",.0f"),
                    fmt(s.get("step_time"), ".0f"),
                ]
            )
    per_step_header = [
        "run",
        "step",
        "reward",
        "reward std",
        "zero-variance groups",
        "identical groups",
        "at the token limit",
        "mean length (tokens)",
        "step time (s)",
    ]
    return (
        table(header, rows) + "\n\nPer step (`metrics.jsonl(.gz)` of each run):\n\n" + table(per_step_header, per_step)
    )


def eval_name(results: Results, path: Path) -> str:
    folder = path.parent
    key = str(folder.relative_to(results.grpo))
    if key in EVAL_ALIASES:
        return EVAL_ALIASES[key]
    name = folder.name
    for suffix in EVAL_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def held_out_scores(results: Results, names: list[str]) -> dict[str, list[tuple[str, str, str, dict]]]:
    """{run: [(split, file, device, {stage: row})]} from every eval.json of BATCHES with test or
    out-of-register rows."""
    found: dict[str, list] = {}
    for batch in BATCHES:
        folder = results.grpo / f"batch-{batch}"
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("eval.json")):
            name = eval_name(results, path)
            if name not in names:
                continue
            data = read_json(path) or {}
            by_split: dict[str, dict] = {}
            for row in data.get("rows", []):
                if row.get("split") in ("test", "out_of_register") and row["task"].startswith("stage-"):
                    by_split.setdefault(row["split"], {})[int(row["task"].split("-")[1])] = row
            for split, stages in by_split.items():
                found.setdefault(name, []).append((split, results.rel(path), device_name(data.get("device")), stages))
    return found


def held_out_table(results: Results, comparisons=COMPARISONS) -> tuple[str, list[str], list[str]]:
    names = []
    for c in comparisons:
        names += [a.name for a in c.arms if a.name not in names]
    names += [n for n in (DIRECT.name, *SCALE_RUNS) if n not in names]
    found = held_out_scores(results, names)
    header = ["run", "split", "card", *[f"{w} w" for w in STAGE_WORDS.values()], "file"]
    rows = []
    for name in names:
        for split, path, card, stages in found.get(name, []):
            cells = [nw(stages.get(s)) if s in stages else "" for s in STAGE_WORDS]
            rows.append([name, split.replace("_", " "), card, *cells, f"`{path}`"])
    with_scores = [n for n in names if n in found]
    without = [n for n in names if n not in found and n != "sft-start"]
    return table(header, rows), with_scores, without


# ---------------------------------------------------------------------------------------------------- the README


def cross_check(results: Results, comparisons=COMPARISONS) -> list[str]:
    """Each arm's condensed record (batch-N.json) against its eval.json and summary.json, and each arm's name in its
    batch README."""
    agree, mismatches, unnamed = 0, [], []
    records = {}
    for batch in BATCHES:
        data = read_json(results.grpo / f"batch-{batch}.json") or {}
        for run in data.get("runs", []):
            records[(batch, run["run"])] = run
    arms = {(a.batch, a.name): a for c in comparisons for a in c.arms} | {(DIRECT.batch, DIRECT.name): DIRECT}
    for (batch, name), arm in sorted(arms.items()):
        readme = results.grpo / f"batch-{batch}" / "README.md"
        if readme.is_file() and name not in readme.read_text() and not arm.start:
            unnamed.append(f"{name} (batch {batch})")
        record = records.get((batch, name))
        if record is None:
            continue
        scores, _ = results.eval_rows(arm)
        for row in record.get("final_validation") or []:
            mine = scores.get((row["task"], "validation"))
            if mine is None:
                continue
            if abs(mine["nw_score"] - row["nw_score"]) < 1e-6:
                agree += 1
            else:
                mismatches.append(
                    f"{name} {row['task']}: {row['nw_score']} in batch-{batch}.json, {mine['nw_score']} in eval.json"
                )
    lines = [
        f"- Cross-check: {agree} validation scores of the arms agree between `batch-N.json`'s `final_validation` "
        f"and `scores/*/eval.json`"
        + (f"; they differ for {'; '.join(mismatches)}" if mismatches else ", and none differs.")
    ]
    lines.append(
        "- Every arm is named in its batch's README."
        if not unnamed
        else "- Not named in their batch's README: " + ", ".join(unnamed) + "."
    )
    return lines


def shows(pairs: list[PairFacts], facts: dict, results: Results, comparisons=COMPARISONS) -> list[str]:
    out = []
    for c in comparisons:
        if c.pairs:
            continue
        words = STAGE_WORDS[c.stage]
        arms = [facts[(c.key, a.name)] for a in c.arms]
        start = [f for f in arms if f.arm.start]
        out.append(
            f"- Stage {c.stage} has no pair: "
            + (f"from {start[0].arm.name} ({nw(start[0].score(words), False)} at {words} words) " if start else "")
            + "GRPO reached "
            + ", ".join(
                f"{f.arm.name} {nw(f.score(words), False)} in {minutes_text(f)} min" for f in arms if not f.arm.start
            )
            + "; no supervised-only arm ran at these minutes."
        )
    equal = [p for p in pairs if p.pair.kind == "equal" and p.share() is not None]
    help_won = [p for p in equal if p.share() < 0]
    for p in equal:
        out.append(
            f"- Stage {p.comparison.stage}, {p.grpo.arm.name} ({minutes_text(p.grpo)} min) against {p.help.arm.name} "
            f"({minutes_text(p.help)} min): {nw(p.grpo.score(p.words), False)} against "
            f"{nw(p.help.score(p.words), False)} at {p.words} words, GRPO's share {signed(p.share())}"
            + (f"; at 10 words {signed(p.share(10))}." if p.share(10) is not None else " (10 words: not in both).")
            + (
                f" GRPO on top of {p.base.arm.name} added {signed(p.grpo_gain())}; the help arm's extra minutes over "
                f"the same {p.base.arm.name} added {signed(p.help_gain())}."
                if p.base
                else ""
            )
        )
    if equal:
        out.append(
            f"- **In {len(help_won)} of the {len(equal)} pairs at (about) equal minutes the help-alone arm "
            f"scored higher at the stage's own length**"
            + (
                "."
                if len(help_won) == len(equal)
                else "; the arm with GRPO scored higher in "
                + ", ".join(p.grpo.arm.name for p in equal if p.share() >= 0)
                + "."
            )
        )
    gains = [p for p in pairs if p.grpo_gain() is not None]
    if gains:
        out.append(
            "- GRPO's gain on top of the help it started from, at the stage's length: "
            + "; ".join(
                f"stage {p.comparison.stage} {p.grpo.arm.name} {signed(p.grpo_gain())} in {p.grpo.grpo_minutes:.1f} min"
                for p in gains
            )
            + "."
        )
    nearest = [p for p in pairs if p.pair.kind == "nearest" and p.share() is not None]
    for p in nearest:
        out.append(
            f"- Not at equal minutes (stage {p.comparison.stage}): {p.grpo.arm.name} ({minutes_text(p.grpo)} "
            f"min) against {p.help.arm.name} ({minutes_text(p.help)} min, {p.pair.note}): "
            f"{signed(p.share())} at {p.words} words."
        )
    forgot = [p for p in equal if p.share(10) is not None and p.share(10) < -0.02]
    if forgot:
        out.append(
            "- At 10 words the GRPO arm lost more than 0.02 against the help arm in: "
            + ", ".join(f"{p.grpo.arm.name} ({signed(p.share(10))})" for p in forgot)
            + "."
        )
    by_stage = {}
    for (key, _), f in facts.items():
        if f.zero_std:
            by_stage.setdefault(key, []).append(f"{f.arm.name} {statistics.fmean(f.zero_std):.2f}")
    out.append(
        "- Zero-variance fraction of the GRPO steps, mean per run: "
        + "; ".join(f"{key}: {', '.join(v)}" for key, v in by_stage.items())
        + "."
    )
    direct, _ = curve(results, DIRECT)
    chain, _ = curve(results, CHAIN)

    def mean_of(steps, key):
        return statistics.fmean(s[key] for s in steps)

    if direct and chain:

        def span(steps, key, spec=".4f"):
            values = [s[key] for s in steps if s.get(key) is not None]
            return f"{min(values):{spec}}-{max(values):{spec}}" if values else "no file"

        ident = [s.get("groups/identical_fraction_sampled") or 0 for s in direct + chain]
        d_after = arm_facts(results, DIRECT).score(500)
        c_after = arm_facts(results, CHAIN).score(500)
        out.append(
            f"- Stage 6 from stage 1 (s6-direct, {len(direct)} steps): reward {span(direct, 'reward')} a step, reward "
            f"std {span(direct, 'reward_std')}, zero-variance groups {span(direct, 'frac_reward_zero_std', '.2f')}; "
            f"through the curriculum (s6-chain, {len(chain)} steps): reward {span(chain, 'reward')}, std "
            f"{span(chain, 'reward_std')}, zero-variance groups {span(chain, 'frac_reward_zero_std', '.2f')}. "
            f"Groups of identical completions: at most {max(ident):.2f} in any step of either run. After them: "
            f"{nw(d_after)} and {nw(c_after)} at 500 words."
            + (
                " The reference run's collapse (all generations of a group identical) did not occur in either run."
                if max(ident) == 0
                else ""
            )
            + (
                f" From stage 1 the mean reward is {mean_of(direct, 'reward') / mean_of(chain, 'reward'):.4f} times "
                f"the chain's and its spread {mean_of(direct, 'reward_std') / mean_of(chain, 'reward_std'):.4f} "
                "times, so the advantages carry almost no signal; through the chain "
                + (
                    "no group lacked reward variance in any step."
                    if max(s["frac_reward_zero_std"] for s in chain) == 0
                    else "some groups lacked variance."
                )
            )
        )
    return out


def gaps(results: Results, pairs: list[PairFacts]) -> list[str]:
    out = []
    both = [p for p in pairs if p.pair.kind == "equal" and p.help is not None]
    tested = held_out_scores(results, sorted({a.arm.name for p in both for a in (p.grpo, p.help)}))
    tested = {name for name, found in tested.items() if any(split == "test" for split, *_ in found)}
    lacking = [
        f"{p.grpo.arm.name} / {p.help.arm.name}: test for "
        + (" and ".join(a.arm.name for a in (p.grpo, p.help) if a.arm.name in tested) or "neither")
        for p in both
    ]
    full = [p for p in both if p.grpo.arm.name in tested and p.help.arm.name in tested]
    out.append(
        f"- **Test-split scores of both arms of an equal-minutes pair: {len(full)} of {len(both)} pairs have "
        f"them** ({'; '.join(lacking)}). Every GRPO share above is on validation (256 problems, one run an "
        "arm). Section 3 lists which arms have any held-out score."
    )
    sup1 = part_time(results, Part(24, "sup-1"))
    sup2 = part_time(results, Part(24, "sup-2"))
    sup_minutes = (
        "no file"
        if sup1.help_seconds is None or sup2.help_seconds is None
        else f"{(sup1.help_seconds + sup2.help_seconds) / 60:.1f} min"
    )
    sup1_scores = list((results.grpo / "batch-24").glob("scores/sup-1-*/eval.json"))
    sup1_minutes = "no file" if sup1.help_seconds is None else f"{sup1.help_seconds / 60:.1f} min"
    out.append(
        f"- **Stage 1 has no supervised-only arm at equal minutes on this corpus.** The nearest supervised run "
        f"from a fresh adapter, batch 24's sup-1 (`sft-every-length.yaml`, {sup1_minutes}, "
        f"`results/grpo/batch-24/sup-1/summary.json`), has {'no' if not sup1_scores else len(sup1_scores)} score of "
        "its own."
    )
    out.append(
        "- **Stages 3 and 4 have no help-alone arm at the GRPO arm's minutes**: n3-grpo and n4-grpo3 are their "
        "help plus GRPO, measured against the shorter help they started from (GRPO on top), not against the "
        "same minutes of more help. The nearest longer arms train a later stage's help."
    )
    steps = curriculum_steps()
    curriculum = [read_json(results.root / "curriculum" / step / "summary.json") for step in steps]
    last = read_json(results.root / "curriculum" / steps[-1] / "eval.json") or {}
    stage6 = next((r for r in last.get("rows", []) if r["task"] == "stage-6" and r.get("split") == "test"), None)
    total = sum(s["wall_seconds"] for s in curriculum if s) / 60 if all(curriculum) else None
    sup2_test = held_out_scores(results, ["sup-2"]).get("sup-2", [])
    sup2_500 = next((stages.get(6) for split, _, _, stages in sup2_test if split == "test"), None)
    out.append(
        "- **The supervised-only chain of `make supervised-curriculum`, on the corpus of now, at equal minutes.** "
        "What exists: "
        f"batch 24's sup-1 + sup-2 (its first two phases, {sup_minutes}), scored on test only "
        f"({nw(sup2_500)} at 500 words, `results/grpo/batch-24/scores/sup-2-test/`), and "
        f"the whole chain in `results/curriculum/` ({'no file' if total is None else f'{total:.1f}'} min over its "
        f"{len(steps)} steps' `summary.json`, {nw(stage6)} at 500 words on test), measured in sessions 5-6 "
        "on the earlier two-register corpus (README.md, results/grpo/README.md), so not comparable with the GRPO "
        "chain's scores of now. The supervised chain's later phases have not run on this corpus."
    )
    runs = []
    for arm, start in (
        (DIRECT, Arm("i1-b256", 23, "", (), ("batch-23/scores/i1-b256-average-validation",))),
        (CHAIN, Arm("n5-eq", 26, "", (), _v(26, "n5-eq"))),
    ):
        summary = results.summary(arm.parts[0]) or {}
        every = (summary.get("recipe") or {}).get("promotion_every")
        scored = results.eval_rows(start)[0].get(("stage-6", "validation"))
        runs.append((arm.name, summary.get("global_step"), every, start.name, scored))
    out.append(
        "- **Stage 6 directly against through the curriculum has no score per step and is not at equal minutes**: "
        + "; ".join(
            f"{name} made {steps} steps with a promotion check every {every} (so "
            f"{'none' if steps is not None and every and steps < every else 'some'} ran), from {start}, "
            f"{'not scored' if scored is None else 'scored ' + nw(scored)} at 500 words before it"
            for name, steps, every, start, scored in runs
        )
        + ". So what the steps changed at 500 words is unknown, neither run is long enough to show a trajectory, "
        "and the two starts differ by the whole chain's minutes (section 2)."
    )
    out.append(
        "- The GRPO arms ran beside other runs on shared machines (the batch READMEs' Calls tables), so "
        "their minutes bought fewer steps than alone, and the cards differ between batches (the card "
        "column). The cut-point eval of c6-slip / c6-slip-lr was not timed (the batch 28 README estimates it)."
    )
    repeats = [read_json(results.grpo / f"batch-{b}/scores/i1-b512-average-validation/eval.json") for b in (25, 26)]
    if all(repeats):
        a, b = (next(r["nw_score"] for r in d["rows"] if r["task"] == "stage-1") for d in repeats)
        out.append(
            f"- One run an arm, no seeds, 256 problems a stage. Two runs of one recipe (i1-b512, batches 25 "
            f"and 26, `scores/i1-b512-average-validation/eval.json`) scored {a:.3f} and {b:.3f} at 10 words: "
            f"{abs(a - b):.3f} apart, the size of several GRPO shares above."
        )
    return out


def build_readme(results: Results, comparisons=COMPARISONS, plots: tuple[str, ...] = ()) -> str:
    facts = gather(results, comparisons)
    pairs = pair_facts(comparisons, facts)
    held, with_scores, without = held_out_table(results, comparisons)
    parts = [
        "# Issue 17, item 3: supervised help against GRPO at equal GPU minutes, and stage 6 directly against "
        "through the curriculum",
        "Written by `scripts/analysis/ablation.py` (`.venv/bin/python scripts/analysis/ablation.py`) from committed "
        "files only: every number below is read from the file its row names. Validation scores are greedy on 256 "
        "problems a stage (NW / exact match). **Minutes** are `wall_seconds` / 60 of each run's `summary.json`, "
        "summed over the arm's runs from the comparison's start (a stage run that trained a help first adds the "
        "help's `wall_seconds`); the batch READMEs sometimes quote training time alone, 0.1-0.2 min less. The "
        "zero-variance fraction is `frac_reward_zero_std` per GRPO step (the share of groups whose completions all "
        "scored alike), from `metrics.jsonl(.gz)`; for runs of 20 steps or more, the means of the first and last 10 "
        "steps follow in brackets.",
        "\n".join(cross_check(results, comparisons)),
        "## 1. Per stage: the arms at (about) equal minutes",
        "Each block starts from its start adapter (first row). Bold: the arms; 10 w shows forgetting of stage 1.",
        arms_table(results, comparisons, facts),
        "### GRPO's share",
        "The arm with GRPO minus the help-alone arm at the stage's own length (and at 10 words). The pairs are the "
        "batch READMEs'; a *nearest* row is shown where no help-alone arm ran at the GRPO arm's minutes.",
        pairs_table(pairs),
        "## 2. Stage 6 trained directly against through the curriculum (the collapse test)",
        "s6-direct: `stage-6.yaml` (GRPO on whole 500-word answers, 8 completions a prompt, no help) from batch 23's "
        "stage 1; s6-chain: the same recipe from the chain's stage 5 (n5-eq). The reference run saw all 16 "
        "generations identical at 500 words straight away; `groups/identical_fraction_sampled` measures that. The "
        "help alone at stage 6 from the same start as s6-chain is n6-eq (block 6a above).",
        direct_vs_chain(results),
        *(f"![{p}]({p})" for p in plots),
        "## 3. Test split and out of register",
        f"Every `eval.json` of batches {BATCHES[0]}-{BATCHES[-1]} with test or out-of-register rows, for the arms "
        "above and for sup-2 (the "
        "supervised chain's first two phases, for scale). `cpu-eval/` and `cpu-check/` ran on CPU in float32 "
        "(`cpu-check/` scored the shipped bfloat16 file); the others on the card named.",
        held,
        f"Arms with a test or out-of-register score: {', '.join(with_scores)}. **Without any: {', '.join(without)}.**",
        "## What it shows",
        "\n".join(shows(pairs, facts, results, comparisons)),
        "## Gaps: what item 3 asks that these files cannot answer",
        "\n".join(gaps(results, pairs)),
    ]
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------------- plots


def _palette(path: Path) -> None:
    from PIL import Image

    data = path.read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        quantized = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    buffer = io.BytesIO()
    quantized.save(buffer, "PNG", optimize=True)
    if buffer.tell() < len(data):
        path.write_bytes(buffer.getvalue())


def plot_direct_vs_chain(results: Results, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for arm, colour in ((DIRECT, "tab:red"), (CHAIN, "tab:blue")):
        steps, _ = curve(results, arm)
        x = [s["global_step"] for s in steps]
        label = f"{arm.name} (batch {arm.batch})"
        left.plot(x, [s["frac_reward_zero_std"] for s in steps], "o-", color=colour, label=label)
        left.plot(
            x,
            [s.get("groups/identical_fraction_sampled", 0) for s in steps],
            "x:",
            color=colour,
            label=f"{arm.name}: identical groups",
        )
        right.plot(x, [s["reward"] for s in steps], "o-", color=colour, label=f"{arm.name}: reward")
        right.plot(x, [s["reward_std"] for s in steps], "s--", color=colour, label=f"{arm.name}: reward std")
    left.set(
        xlabel="GRPO step",
        ylabel="fraction of groups",
        ylim=(-0.05, 1.05),
        title="zero reward variance (o) / identical (x)",
    )
    right.set(xlabel="GRPO step", ylabel="per step (log)", yscale="log", title="reward and its std")
    left.legend(fontsize=7)
    right.legend(fontsize=7)
    fig.suptitle("Stage 6 (500 words): GRPO from stage 1 (s6-direct) against from stage 5 (s6-chain)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    _palette(path)


def plot_zero_std(results: Results, path: Path, comparisons=COMPARISONS) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = [c for c in comparisons if any(not a.start for a in c.arms)]
    cols = 4
    rows = (len(blocks) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(14, 3.2 * rows), squeeze=False)
    for ax, c in zip(axes.flat, blocks):
        for arm in c.arms:
            if arm.start:
                continue
            steps, _ = curve(results, arm)
            if not steps:
                continue
            x = [s["global_step"] for s in steps]
            y = [s["frac_reward_zero_std"] for s in steps]
            if len(y) > 40:
                (line,) = ax.plot(x, y, lw=0.5, alpha=0.4)
                rolled = [statistics.fmean(y[max(0, i - 9) : i + 1]) for i in range(len(y))]
                ax.plot(x, rolled, lw=1.8, color=line.get_color(), label=f"{arm.name} (10-step mean)")
            else:
                ax.plot(x, y, "o-", ms=3, label=arm.name)
        ax.set(title=f"{c.key}: stage {c.stage} ({STAGE_WORDS[c.stage]} words)", xlabel="GRPO step", ylim=(-0.05, 1.05))
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(blocks) :]:
        ax.axis("off")
    axes[0][0].set_ylabel("zero-variance fraction")
    fig.suptitle("frac_reward_zero_std per GRPO step, the GRPO arms of table 1")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    _palette(path)


PLOTS = ("stage6-direct-vs-chain.png", "zero-variance-by-stage.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=REPO_ROOT / "results", help="the results/ folder to read")
    parser.add_argument("--out", type=Path, default=None, help="default: RESULTS/grpo/ablation")
    parser.add_argument("--no_plots", action="store_true")
    args = parser.parse_args(argv)
    results = Results(args.results)
    out = args.out or results.grpo / "ablation"
    out.mkdir(parents=True, exist_ok=True)
    plots: tuple[str, ...] = ()
    if not args.no_plots:
        plot_direct_vs_chain(results, out / PLOTS[0])
        plot_zero_std(results, out / PLOTS[1])
        plots = PLOTS
    (out / "README.md").write_text(build_readme(results, plots=plots))
    print(f"wrote {out / 'README.md'}" + "".join(f", {out / p}" for p in plots))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
