"""``python -m publishing.ship_adapter`` (``make ship-adapter``): write the adapter that ships with the project,
``adapters/shipped/`` (``model_cards/shipped_adapter.py`` describes the folder), from a training run.

    make ship-adapter RUN=runs/stage-6 COMMIT=<the commit it was trained at> COMMAND="make curriculum"

It writes the run's final adapter in bfloat16 (each floating-point tensor cast, nothing else changed; the config
names the base model's Hub id), the run's ``summary.json`` and plots, its greedy scores (``--eval_file``, else the
newest ``make eval`` of the run's final adapter in ``--eval_root``; several files are merged), ``provenance.json``
(stage, task, commit, recipe, commands, conversion, weights) and the card, ``README.md``, rendered as
``make publish-model`` renders it, for the namespace ``HUB_USER``. It stops if the folder would exceed 25 MB.

``--card_only`` renders ``README.md`` again from the folder's own files (after the card template changed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from dataset_builders.cli_flags import underscore_flags
from model_cards.eval_results import EvalResults, EvalResultsError, find_run_eval
from model_cards.shipped_adapter import (
    EVAL_FILE,
    PLOTS_FOLDER,
    PROVENANCE_FILE,
    REPO_ROOT,
    SHIPPED_ADAPTER,
    SHIPPED_ADAPTER_PATH,
    SIZE_LIMIT_BYTES,
    SUMMARY_FILE,
    WEIGHTS_FILE,
    ShippedAdapterError,
    check_provenance,
    load_shipped,
    shown_path,
)
from publishing.dataset_folders.folders import ARITHMETIC_FOLDER, CURRICULUM_FOLDER
from publishing.hub import HubError
from publishing.model_folders import BASE_MODEL_LICENSES, base_model_id, model_repo_name, shipped_card

CARD_NAMESPACE = "HUB_USER"  # the committed card names the repos in this placeholder namespace
METRIC_REPO = "needleman_wunsch"
TARGET_DTYPE = "bfloat16"
CONVERSION_METHOD = (
    "each floating-point tensor of the adapter cast to bfloat16 with torch, nothing else changed; "
    "adapter_config.json's base_model_name_or_path set to the base model's Hub id"
)
# What a shipped folder holds; a folder in the way with anything else is not replaced.
FOLDER_ENTRIES = {"README.md", "adapter_config.json", WEIGHTS_FILE, PROVENANCE_FILE, "results", PLOTS_FOLDER}


class ShipError(ValueError):
    """An input the shipped folder cannot be written from; the message says what to give instead."""


def full_commit(commit: str) -> str:
    """The full id of ``commit`` in this checkout's history; a ShipError if it names none."""
    proc = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise ShipError(f"COMMIT={commit!r} is not a commit of this repository (git rev-parse found none)")
    return proc.stdout.strip()


def _recipe_at(commit: str, recipe: str) -> None:
    proc = subprocess.run(["git", "cat-file", "-e", f"{commit}:{recipe}"], cwd=REPO_ROOT, capture_output=True)
    if proc.returncode != 0:
        raise ShipError(f"the recipe {recipe} is not in commit {commit[:12]}: name the recipe the run used (--recipe)")


def merged_eval(paths: list[Path]) -> EvalResults:
    """One eval file of the rows of ``paths``, which must be of one model and adapter, on one device, with no row
    twice; its time is the newest."""
    if not paths:
        raise ShipError("no eval file given")
    files = [EvalResults.load(p) for p in paths]
    first = files[0]
    for path, results in zip(paths[1:], files[1:]):
        for name in ("model", "adapter", "device", "decoding"):
            if getattr(results, name) != getattr(first, name):
                raise ShipError(
                    f"{path} and {paths[0]} differ in {name} ({getattr(results, name)!r} vs "
                    f"{getattr(first, name)!r}): the merged scores must be of one adapter, scored one way"
                )
    rows, seen = [], set()
    for path, results in zip(paths, files):
        if results.data is not None:
            raise ShipError(f"{path} scores the user's texts (make eval DATA=...), not the held-out splits")
        for row in results.rows:
            key = (row.label, row.task, row.split)
            if key in seen:
                raise ShipError(f"{path}: {row.label} {row.task} {row.split} is in more than one eval file")
            seen.add(key)
            rows.append(row)
    return EvalResults(
        model=first.model,
        adapter=first.adapter,
        generated_at=max(r.generated_at for r in files),
        device=first.device,
        decoding=first.decoding,
        rows=rows,
    )


def bfloat16_weights(adapter: Path, converted_from: str | None) -> tuple[dict | None, str]:
    """The adapter's tensors cast to bfloat16 (None when they are bfloat16 already: the file is copied as it is),
    and the dtype they were converted from."""
    import torch
    from safetensors.torch import load_file

    tensors = load_file(str(adapter / WEIGHTS_FILE))
    dtypes = sorted({str(t.dtype).removeprefix("torch.") for t in tensors.values() if t.is_floating_point()})
    if dtypes == [TARGET_DTYPE]:
        if not converted_from:
            raise ShipError(
                f"{adapter / WEIGHTS_FILE} is {TARGET_DTYPE} already: say which dtype it was converted from "
                "with --converted_from (e.g. float32), or give the run's own final adapter"
            )
        return None, converted_from
    found = ", ".join(dtypes)
    if converted_from and converted_from != found:
        raise ShipError(f"--converted_from {converted_from}, but {adapter / WEIGHTS_FILE} holds {found} tensors")
    return {k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in tensors.items()}, found


def _check_out_folder(out: Path) -> None:
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise ShipError(f"{out} is not a folder")
    other = sorted(p.name for p in out.iterdir() if p.name not in FOLDER_ENTRIES) if out.is_dir() else []
    if other:
        raise ShipError(
            f"{out} holds {', '.join(other)}, which a shipped adapter folder does not: move them away, or pick "
            "another --out (only a shipped adapter folder is replaced)"
        )


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def render_card(folder: Path, namespace: str = CARD_NAMESPACE):
    """The card of the shipped folder, rendered as `make publish-model` renders it for ``namespace``."""
    shipped = load_shipped(folder)
    summary = shipped.summary()
    return shipped_card(
        shipped,
        repo_id=f"{namespace}/{model_repo_name(summary)}",
        base_model=shipped.base_model,
        datasets_repo=f"{namespace}/{CURRICULUM_FOLDER}",
        arithmetic_repo=f"{namespace}/{ARITHMETIC_FOLDER}",
        metric_repo=f"{namespace}/{METRIC_REPO}",
        license=BASE_MODEL_LICENSES.get(shipped.base_model, "apache-2.0"),
    )


def write_card(folder: Path, namespace: str = CARD_NAMESPACE) -> Path:
    """README.md of the shipped folder (``render_card``)."""
    render_card(folder, namespace).save(Path(folder) / "README.md")
    return Path(folder) / "README.md"


def ship(args: argparse.Namespace, argv: list[str]) -> Path:
    """Write the shipped folder ``args.out`` from the run; returns it."""
    from model_cards.stage_card import stage_task

    adapter = Path(args.adapter or (args.run / "final" if args.run else ""))
    results_dir = Path(args.results or (args.run / "results" if args.run else ""))
    if not (args.adapter or args.run) or not (adapter / "adapter_config.json").is_file():
        raise ShipError(f"no adapter at {adapter}: give RUN=runs/<run> (its final/) or --adapter a LoRA adapter folder")
    if not (adapter / WEIGHTS_FILE).is_file():
        raise ShipError(f"{adapter} has no {WEIGHTS_FILE}: only safetensors adapters are shipped")
    if not (results_dir / "summary.json").is_file():
        raise ShipError(
            f"no {results_dir / 'summary.json'}: the card and provenance come from the run's summary (training "
            "writes it into RUN/results/); give --results a folder holding summary.json and the plots"
        )
    summary = json.loads((results_dir / "summary.json").read_text(encoding="utf-8"))
    task = stage_task(summary)
    if not args.command:
        raise ShipError('say how the run was made: COMMAND="..." (--command, once per command, in order)')
    commit = full_commit(args.commit)
    recipe = args.recipe or f"training/recipes/{task.name}.yaml"
    _recipe_at(commit, recipe)
    eval_files = [Path(p) for p in args.eval_file]
    if not eval_files:
        found = find_run_eval(args.eval_root, summary.get("run") or adapter.parent.name, summary.get("final_adapter"))
        if found is None:
            raise ShipError(
                f"no eval of the run's final adapter in {args.eval_root}/: score it first (make eval ADAPTER="
                f"{adapter}) or give --eval_file (once per file)"
            )
        eval_files = [found]
    scores = merged_eval(eval_files)
    if not scores.rows_for("trained", "test"):
        raise ShipError(f"the eval files hold no trained row on the test split: {', '.join(map(str, eval_files))}")
    base_model = base_model_id(summary, args.base_model)
    tensors, converted_from = bfloat16_weights(adapter, args.converted_from)
    out = Path(args.out)
    _check_out_folder(out)

    new = out.parent / f".{out.name}.new"
    if new.exists():
        shutil.rmtree(new)
    (new / "results").mkdir(parents=True)
    try:
        config = json.loads((adapter / "adapter_config.json").read_text(encoding="utf-8"))
        config["base_model_name_or_path"] = base_model
        (new / "adapter_config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
        if tensors is None:
            shutil.copyfile(adapter / WEIGHTS_FILE, new / WEIGHTS_FILE)
        else:
            from safetensors.torch import save_file

            save_file(tensors, str(new / WEIGHTS_FILE), metadata={"format": "pt"})
        shutil.copyfile(results_dir / "summary.json", new / SUMMARY_FILE)
        scores.save(new / EVAL_FILE)
        for png in sorted(results_dir.glob("*.png")):
            (new / PLOTS_FOLDER).mkdir(exist_ok=True)
            shutil.copyfile(png, new / PLOTS_FOLDER / png.name)
        wall = summary.get("wall_seconds")
        date = args.date or time.strftime("%Y-%m-%d", time.gmtime((results_dir / "summary.json").stat().st_mtime))
        provenance = {
            "what": f"the interleave-grpo adapter shipped with the project: curriculum stage {task.curriculum_stage} "
            f"({task.words} words per text), a LoRA adapter of {base_model}",
            "stage": task.curriculum_stage,
            "task": task.name,
            "run": summary.get("run"),
            "base_model": base_model,
            "git_commit": commit,
            "recipe": recipe,
            "commands": list(args.command),
            "started_from": args.started_from,
            "device": summary.get("device"),
            "trained_on": date,
            "training_minutes": round(wall / 60, 1) if wall is not None else None,
            "conversion": {"from": converted_from, "to": TARGET_DTYPE, "method": CONVERSION_METHOD},
            "weights": {
                "file": WEIGHTS_FILE,
                "bytes": (new / WEIGHTS_FILE).stat().st_size,
                "sha256": _sha256(new / WEIGHTS_FILE),
                "dtype": TARGET_DTYPE,
            },
            "results_source": shown_path(results_dir),
            "eval_sources": [shown_path(p) for p in eval_files],
            "note": args.note,
            "shipped_by": "python -m publishing.ship_adapter " + shlex.join(argv),
        }
        check_provenance(provenance)
        (new / PROVENANCE_FILE).write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
        write_card(new)
        size = _folder_bytes(new)
        if size > SIZE_LIMIT_BYTES:
            raise ShipError(
                f"the shipped folder would hold {size / 1e6:.1f} MB, over the {SIZE_LIMIT_BYTES / 1e6:.0f} MB "
                "it may take (a smaller LoRA rank, or fewer plots)"
            )
        old = out.parent / f".{out.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            out.rename(old)
        new.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if new.exists():
            shutil.rmtree(new)
    print(f"shipped adapter: {out}/ ({size / 1e6:.1f} MB), stage {task.curriculum_stage}, from {adapter}", flush=True)
    return out


def parser() -> argparse.ArgumentParser:
    cmd = argparse.ArgumentParser(
        prog="python -m publishing.ship_adapter",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--run", type=Path, help="a run folder: its final/ adapter and results/ (summary.json, plots)")
    cmd.add_argument("--adapter", type=Path, help="the adapter folder (default RUN/final)")
    cmd.add_argument("--results", type=Path, help="the folder of the run's summary.json and plots (RUN/results)")
    cmd.add_argument(
        "--eval_file",
        type=Path,
        action="append",
        default=[],
        help="an eval.json of the adapter (make eval; once per file, merged); default: the newest in --eval_root",
    )
    cmd.add_argument("--eval_root", type=Path, default=Path("runs/eval"), help="searched for the run's eval.json")
    cmd.add_argument("--commit", help="the commit the run was trained at (COMMIT=...)")
    cmd.add_argument("--recipe", help="the recipe the run used (default training/recipes/<task>.yaml)")
    cmd.add_argument(
        "--command",
        action="append",
        default=[],
        help="a command that made the run, from that commit's checkout (once per command, in order)",
    )
    cmd.add_argument("--date", help="the day the run ended, YYYY-MM-DD (default: the date of its summary.json)")
    cmd.add_argument("--started_from", help="what the run started from, in words (default: from the summary)")
    cmd.add_argument("--note", help="a sentence for the card about this adapter (what it is not, what replaces it)")
    cmd.add_argument(
        "--converted_from",
        help="the dtype the weights had, when the adapter given is bfloat16 already (e.g. rebuilding this folder)",
    )
    cmd.add_argument("--base_model", help="Hub id of the base model (default: from the run's summary)")
    cmd.add_argument(
        "--out", type=Path, default=SHIPPED_ADAPTER, help=f"the folder to write (default {SHIPPED_ADAPTER_PATH})"
    )
    cmd.add_argument("--card_only", action="store_true", help="only render README.md again from the folder's files")
    return cmd


def main(argv: list[str] | None = None) -> int:
    argv = underscore_flags(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    try:
        if args.card_only:
            print(f"card: {write_card(args.out)}", flush=True)
            return 0
        if not args.commit:
            raise ShipError("say which commit the run was trained at: COMMIT=<sha> (--commit)")
        ship(args, argv)
    except (ShipError, ShippedAdapterError, EvalResultsError, HubError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
