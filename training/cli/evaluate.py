"""``make eval``: greedy scores of a model, and of the model with a trained adapter, on held-out problems.

By default each curriculum stage is scored on the test split (in register: held-out works of the training
registers) and on the out_of_register split (the registers held out of training), side by side; the arithmetic
control on its test split. ``--data`` scores the stages on the user's texts instead (a folder of .txt files, a
.jsonl of text_a/text_b pairs, a local dataset folder or a Hub dataset id: see
``dataset_builders.interleave_curriculum.user_texts``).

Each task scores its completions itself (``Task.score``). Completions come from the fast sampler
(``training.trainer.graph_sampler``, greedy) on a merged copy of the model. Writes to ``--out``: ``eval.json`` (the
schema of ``model_cards.eval_results``), ``eval.md``, ``eval.png``, ``problems.jsonl`` (one line per problem: score,
exact match, whether it stopped on an end token, the first slip and its stream, repeated phrases),
``diagnostics.json`` and ``slips.png`` (slip rates by position and by tokens per word; ``training.core.
slip_diagnostics``).

Without ``--adapter`` it scores the adapter shipped with the project (``adapters/shipped/``,
``model_cards.shipped_adapter``) where no ``runs/stage-N/final`` exists and the model is the one it was trained on, and
says so; else the base model alone. ``--adapter base`` scores the base model alone in every case.

On a GPU the defaults are the full evaluation (stages 1-6, 256 problems per task and split, base model and adapter).
On CPU they are small, to finish in minutes: stages 1-3, 8 problems per task and split, and the adapter only
(``--baseline true`` adds the base model). ``--stages``, ``--n`` and ``--baseline`` override both.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from model_cards.eval_results import EvalResults
from model_cards.shipped_adapter import ShippedAdapterError, is_shipped_folder, shipped_default, trained_stages

BASE_ONLY = "base"  # --adapter base: the base model alone
GPU_PROBLEMS, CPU_PROBLEMS = 256, 8
GPU_STAGES, CPU_STAGES = "1-6", "1-3"
DEFAULT_SPLITS = ("test", "out_of_register")
SPLITS = ("validation", "test", "out_of_register", "out_of_register_validation", "train")  # train: a GRPO run's


class EvalInputError(ValueError):
    """An evaluation that cannot run as asked; the message says what is wrong."""


def parse_stages(spec: str) -> list[int]:
    """``"1-6"``, ``"1,3"``, ``"2"`` -> stage numbers (1-6)."""
    stages: list[int] = []
    for part in spec.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ValueError(f"STAGES={spec!r}: expected e.g. 1-6, 1,3 or 2")
        stages += range(int(first), int(last or first) + 1)
    if not stages or any(s < 1 or s > 6 for s in stages):
        raise ValueError(f"STAGES={spec!r}: stages are 1 to 6")
    return sorted(set(stages))


def parse_splits(spec: str) -> list[str]:
    """``"test,out_of_register"`` -> split names (``SPLITS``)."""
    splits = [s for s in spec.replace(" ", "").split(",") if s]
    wrong = [s for s in splits if s not in SPLITS]
    if not splits or wrong:
        raise ValueError(f"--splits {spec!r}: splits are {', '.join(SPLITS)} (comma-separated)")
    return list(dict.fromkeys(splits))


def device_defaults(args: argparse.Namespace, cuda: bool) -> list[str]:
    """Fill ``--stages``, ``--n`` and ``--baseline`` where not given: the full evaluation on a GPU, a small one on
    CPU (minutes, not hours). Returns notes that say what was chosen on CPU."""
    chosen = []
    if args.stages is None:
        args.stages = GPU_STAGES if cuda else CPU_STAGES
        chosen += [] if cuda else [f"stages {CPU_STAGES}"]
    if args.n is None:
        args.n = GPU_PROBLEMS if cuda else CPU_PROBLEMS
        chosen += [] if cuda else [f"{CPU_PROBLEMS} problems per task and split"]
    if args.baseline is None:
        args.baseline = "true" if cuda else "false"
        chosen += ["the adapter only"] if not cuda and args.adapter else []
    if not chosen:
        return []
    return [
        f"CPU defaults: {', '.join(chosen)}, so that the run takes minutes, not hours. The full evaluation, the "
        f"GPU defaults, is STAGES={GPU_STAGES} `--n {GPU_PROBLEMS} --baseline true` (hours on CPU); give any of "
        "them to choose"
    ]


def is_arithmetic_task(name: str) -> bool:
    """Whether the task registry has an arithmetic task of this name (arithmetic-2x2, not arithmetic-0x2)."""
    from dataset_builders import tasks
    from dataset_builders.arithmetic.task import ArithmeticTask

    try:
        return isinstance(tasks.get(name), ArithmeticTask)
    except tasks.UnknownTask:
        return False


def choose_adapter(args: argparse.Namespace, runs_dir: str | Path = "runs") -> str | None:
    """Settle ``args.adapter``: ``base`` -> None (the base model alone); none given -> the shipped adapter where no
    stage has a final adapter in ``runs_dir`` and it fits ``args.model``. Returns the note that says so, or None."""
    if args.adapter == BASE_ONLY:
        args.adapter = None
        return None
    if args.adapter:
        return None
    if stages := trained_stages(runs_dir):
        latest = f"{runs_dir}/stage-{stages[-1]}/final"
        return f"no ADAPTER given: the base model alone ({latest} is a trained adapter: ADAPTER={latest} scores it)"
    shipped = shipped_default(runs_dir)
    if shipped is None or not shipped.fits(args.model):
        return None
    args.adapter = str(shipped.folder)
    return (
        f"no ADAPTER given and no stage's final adapter in {runs_dir}/: scoring {shipped.describe()}; "
        f"ADAPTER={BASE_ONLY} scores the base model alone, ADAPTER=runs/<run>/final another adapter"
    )


def out_folder(args: argparse.Namespace) -> Path:
    """``--out``, else ``runs/eval/<adapter's run or model name>`` (``-data-<name>`` added for ``--data``)."""
    if args.out:
        return Path(args.out)
    if args.adapter and is_shipped_folder(args.adapter):
        name = Path(args.adapter).resolve().name  # runs/eval/shipped
    else:
        name = Path(args.adapter).resolve().parent.name if args.adapter else Path(str(args.model)).name
    if args.data:
        data_name = Path(args.data.rstrip("/")).stem if Path(args.data).exists() else args.data
        name += "-data-" + re.sub(r"[^A-Za-z0-9._-]+", "-", data_name)
    return Path("runs/eval") / name  # ad hoc, under the ignored runs/; results/ holds curated copies


def problem_sets(
    args: argparse.Namespace, names: list[str], splits: list[str], splits_given: bool, user_texts=None
) -> tuple[list, list[str]]:
    """Every problem to score, generated before a model is loaded (bad input fails here), and notes."""
    from dataset_builders import tasks
    from training.trainer.greedy_eval import ProblemSet

    sets, notes = [], []
    for name in names:
        task = tasks.get(name)
        if user_texts is not None and task.words is not None:  # an interleave task: the user's texts
            from dataset_builders.interleave_curriculum.user_texts import SPLIT

            sets.append(ProblemSet(task, SPLIT, user_texts.problems(task.words, args.n, args.seed)))
            continue
        for split in splits if user_texts is None else ["test"]:
            if split != "train" and split not in task.held_out_splits:
                continue  # e.g. arithmetic has no out_of_register split
            try:
                rows = list(task.problems(split, args.n))
            except ValueError as exc:
                if split != "out_of_register" or splits_given:
                    raise EvalInputError(f"{name}, {split} split: {exc}") from None
                notes.append(f"no out_of_register problems for {name} ({exc}): its test split only")
                continue
            sets.append(ProblemSet(task, split, rows))
    return sets, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.cli.evaluate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", default="smollm2-135m-instruct", help="preset, model folder or Hub id")
    parser.add_argument(
        "--adapter",
        default=None,
        help=f"a trained LoRA adapter folder, or '{BASE_ONLY}' for the base model alone (omit: the adapter shipped "
        "with the project, adapters/shipped/, where no runs/stage-N/final exists and the model is its base model; "
        "else the base model alone)",
    )
    parser.add_argument(
        "--stages",
        default=None,
        help=f"curriculum stages, e.g. 1-6, 1,3 (empty: none; default: {GPU_STAGES} on a GPU, {CPU_STAGES} on CPU)",
    )
    parser.add_argument(
        "--arithmetic",
        default=None,
        help="also the arithmetic control: true, false, or a variant arithmetic-AxB (A-digit x B-digit, e.g. "
        "arithmetic-2x2) (default: true, false with --data)",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        choices=("true", "false"),
        help="with --adapter, also score the model without it (default: true on a GPU, false on CPU)",
    )
    parser.add_argument(
        "--n",
        type=int,
        default=None,
        help=f"problems per task and split (default: {GPU_PROBLEMS} on a GPU, {CPU_PROBLEMS} on CPU)",
    )
    parser.add_argument(
        "--splits",
        "--split",
        dest="splits",
        default=None,
        help="comma-separated: validation, test, out_of_register, out_of_register_validation (other documents of "
        "the held-out registers, to choose recipes on), train (default: test,out_of_register; tasks without a split "
        "skip it). train: the first N train problems, in the order a GRPO run draws them; "
        "its problems.jsonl is what --continuation_cuts reads",
    )
    parser.add_argument(
        "--data",
        default=None,
        help="score the stages on these texts instead: a folder of .txt files, a .jsonl of "
        "text_a/text_b pairs, a local dataset folder or a Hub dataset id owner/name[:config]",
    )
    parser.add_argument(
        "--data_column",
        default=None,
        help="--data as a dataset: its text column (default: text; or text_a/text_b pairs)",
    )
    parser.add_argument(
        "--data_split",
        default=None,
        help="--data as a dataset: its split (default: test if it has one, else its only split)",
    )
    parser.add_argument("--seed", type=int, default=0, help="--data texts: which fragment pairs make the problems")
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument(
        "--out", default=None, help="output folder (default runs/eval/<adapter's run or model name>[-data-<name>])"
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=0,
        help="also write samples.md: the first K problems of each task with their completions",
    )
    parser.add_argument(
        "--dtype",
        default=None,
        choices=("bfloat16", "float32"),
        help="weights and decoding dtype (default: bfloat16 on a GPU, float32 on CPU)",
    )
    parser.add_argument(
        "--completions",
        action="store_true",
        help="problems.jsonl also holds each completion's text (stage 6: ~6 kB per problem)",
    )
    args = parser.parse_args(argv)
    if args.n is not None and args.n < 1:
        parser.error(f"--n must be at least 1 (problems per task and split), got {args.n}")
    if args.batch_size < 1 or args.samples < 0:
        parser.error("--batch_size must be at least 1 and --samples at least 0")
    try:
        if args.stages is not None and args.stages.strip():
            parse_stages(args.stages)
        splits = parse_splits(args.splits) if args.splits is not None else list(DEFAULT_SPLITS)
    except ValueError as exc:
        parser.error(str(exc))
    no_stages = args.stages is not None and not args.stages.strip()
    if args.data and args.splits is not None:
        parser.error("--splits and --data exclude each other: --data scores the stages on its own texts")
    if args.data and no_stages:
        parser.error("--data needs stages (--stages / STAGES=...): its texts are cut to each stage's words")
    args.arithmetic = args.arithmetic or ("false" if args.data else "true")
    if args.arithmetic not in ("true", "false") and not is_arithmetic_task(args.arithmetic):
        parser.error(f"--arithmetic {args.arithmetic!r}: true, false or arithmetic-AxB (e.g. arithmetic-2x2)")
    if no_stages and args.arithmetic == "false":
        parser.error("nothing to evaluate: give --stages or --arithmetic true")
    try:
        adapter_note = choose_adapter(args)
    except ShippedAdapterError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if adapter_note:
        print(adapter_note, flush=True)
    if args.adapter and not (Path(args.adapter) / "adapter_config.json").is_file():
        print(
            f"error: {args.adapter} is not a LoRA adapter folder (no adapter_config.json); train one with "
            "`make train-stage N=...` (it writes runs/stage-N/final)",
            file=sys.stderr,
        )
        return 2
    try:
        return run(args, splits, [adapter_note] if adapter_note else [])
    except EvalInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace, splits: list[str], notes: list[str] = ()) -> int:
    """Check the input and the model, then score each label and write the files; EvalInputError for bad input."""
    from dataset_builders.interleave_curriculum.user_texts import UserTextError, read_user_texts

    user_texts = None
    if args.data:
        try:
            user_texts = read_user_texts(args.data, args.data_column, args.data_split)
        except UserTextError as exc:
            raise EvalInputError(f"DATA: {exc}") from None

    import torch

    cuda = torch.cuda.is_available()
    chosen = device_defaults(args, cuda)
    for note in chosen:
        print(note)
    notes = [*notes, *chosen]
    names = [f"stage-{s}" for s in parse_stages(args.stages)] if args.stages.strip() else []
    names += [] if args.arithmetic == "false" else ["arithmetic" if args.arithmetic == "true" else args.arithmetic]
    try:
        sets, more_notes = problem_sets(args, names, splits, args.splits is not None, user_texts)
    except UserTextError as exc:
        raise EvalInputError(f"DATA: {exc}") from None
    for note in more_notes:
        print(f"note: {note}")
    notes += more_notes

    from peft import PeftModel

    from base_models.models import ModelUnavailable, load_model
    from training.core.adapter_fit import adapter_base_model, adapter_mismatch
    from training.core.slip_diagnostics import SlipDiagnostics
    from training.trainer.greedy_eval import evaluate_sets

    device = torch.cuda.get_device_name() if cuda else "cpu"
    dtype = args.dtype or ("bfloat16" if cuda else "float32")
    try:
        model, tokenizer = load_model(args.model, dtype=dtype, device="cuda" if cuda else "cpu")
    except ModelUnavailable as exc:
        raise EvalInputError(str(exc)) from None
    if args.adapter and (why := adapter_mismatch(model, args.adapter)):
        raise EvalInputError(
            f"the adapter {args.adapter} does not fit the model {args.model}: {why}. It was trained on "
            f"{adapter_base_model(args.adapter) or 'another base model'}: evaluate it with that model (MODEL=... / "
            "--model)"
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    out = out_folder(args)
    runs = ([("baseline", None)] if not args.adapter or args.baseline == "true" else []) + (
        [("trained", args.adapter)] if args.adapter else []
    )
    rows, samples, problems = [], [], []
    diagnostics = SlipDiagnostics()
    for label, adapter in runs:
        subject = PeftModel.from_pretrained(model, adapter) if adapter else model
        rows += evaluate_sets(
            subject,
            tokenizer,
            sets,
            label,
            args.batch_size,
            samples=samples,
            samples_per_task=args.samples,
            problems_out=problems,
            with_completions=args.completions,
            diagnostics=diagnostics,
        )
        if adapter:
            model = subject.unload()
    results = EvalResults(
        model=str(args.model),
        adapter=str(args.adapter) if args.adapter else None,
        generated_at=time.strftime("%Y-%m-%dT%H:%M:%S"),
        device=device,
        rows=rows,
        decoding="greedy" if args.dtype is None else f"greedy, {dtype}",
        data=user_texts.describe(args.seed) if user_texts else None,
    )
    write_outputs(out, results, diagnostics.to_dict(), problems, samples, notes)
    return 0


def write_outputs(
    out: Path, results: EvalResults, diagnostics: dict, problems: list[dict], samples: list[dict], notes: list[str]
) -> None:
    """eval.json, eval.md, eval.png, problems.jsonl, diagnostics.json, slips.png (when a task has slips) and
    samples.md (when asked) in ``out``; prints the table and what was written."""
    from training.core.eval_plots import plot_scores, plot_slips
    from training.core.eval_report import render_markdown, render_samples

    results.save(out / "eval.json")
    table = render_markdown(results, diagnostics, notes)
    (out / "eval.md").write_text(table, encoding="utf-8")
    plot_scores(results.rows, out / "eval.png")
    (out / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in problems), encoding="utf-8")
    (out / "diagnostics.json").write_text(json.dumps(diagnostics, indent=1) + "\n", encoding="utf-8")
    written = ["eval.json", "eval.md", "eval.png", "problems.jsonl", "diagnostics.json"]
    if plot_slips(diagnostics, out / "slips.png"):
        written.append("slips.png")
    else:
        (out / "slips.png").unlink(missing_ok=True)  # a folder evaluated again: no stale plot
    if samples:
        (out / "samples.md").write_text(render_samples(samples), encoding="utf-8")
        written.append("samples.md")
    print(table)
    print(f"written: {out}/" + ", ".join(written))


if __name__ == "__main__":
    sys.exit(main())
