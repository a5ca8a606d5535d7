"""Bring a GPU batch's files home: the device calls' folders (``/work/.device/N``: each call's ``results.tar.gz`` of
``$LAB/results`` and the ``adapter-NAME.tar.gz.part-*`` of the parts that ended then) into the batch's record.

    .venv/bin/python scripts/gpu/collect_batch.py 31 /work/.device/5 /work/.device/6 /work/.device/7 --note "..."

- Every ``results.tar.gz`` (or its ``results.tar.gz.part-*`` joined, as ``results_back`` in setup.sh cuts it), in
  the order given (a later call's copy of a file replaces an earlier one: each tar holds
  the whole ``results/`` of the machine at that call), is unpacked; its run folders (those with a ``summary.json``, a
  ``train.log`` or a ``chain.log``, the chain runner's log of a ``make curriculum`` part; with their ``eval/``),
  ``scores/`` and part logs (``bg-PART.log``, into ``logs/``) go to ``results/grpo/batch-N/``; slip probes
  (``probe/NAME.json``, ``scripts/analysis/slip_probe.py``'s output) go to ``results/grpo/slip-probe/batch-N-NAME.json``
  beside the earlier batches' probes.
- Each adapter (its parts joined, wherever they came back) goes to ``adapters/batch-N/NAME/`` (bf16, as ``back``
  brings them), to be committed in history and dropped from the tree in the next commit, as batches 24-30 did.
- Each piece of a chain run in pieces (``piece-NAME.tar.gz.part-*``, setup.sh's ``chain_piece``) goes whole to
  ``adapters/batch-N/NAME/`` (committed, then dropped, as an adapter; the next sweep carries it with a ``#
  CARRY-TREE`` line, ``carry_starts.py``), and its records (all but the adapter) to ``results/grpo/batch-N/NAME/``.
- Then, as batches 29-30's READMEs list: ``scripts/compress_results.py --min_kb 1``, ``scripts/summarize_runs.py``
  into ``results/grpo/batch-N.json`` with ``--note``, and ``scripts/derailment.py`` on every score folder that holds
  its ``problems.jsonl`` (those without one are named, not an error: batch 36 brought some scores back without).

Prints what it wrote and what is left by hand (the README, first slips, paired comparisons, the commits). Refuses to
write into a batch folder that exists (``--force`` adds to it).
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def results_archive(folder: Path) -> bytes | None:
    """A call's ``results.tar.gz``, whole or joined from its ``results.tar.gz.part-*`` (setup.sh's ``results_back``
    cuts it under the 16 MiB a returned file may have); None where the call brought neither."""
    whole = folder / "results.tar.gz"
    if whole.is_file():
        return whole.read_bytes()
    parts = sorted(folder.glob("results.tar.gz.part-*"))
    return b"".join(p.read_bytes() for p in parts) if parts else None


def unpack_results(folders: list[Path], into: Path) -> int:
    """Unpack each folder's results archive into ``into`` in turn (later ones replace files of earlier ones); how
    many there were. A joined archive that is not whole (a part missing) is one clear error."""
    count = 0
    for folder in folders:
        data = results_archive(folder)
        if data is None:
            continue
        try:
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                tar.extractall(into, filter="data")
        except (tarfile.TarError, EOFError, OSError) as error:
            raise SystemExit(f"{folder}: its results archive does not unpack ({error}); is a part missing?") from error
        count += 1
    return count


def adapter_parts(folders: list[Path], prefix: str = "adapter-") -> dict[str, list[Path]]:
    """NAME -> its ``PREFIXNAME.tar.gz.part-*`` files in order (``adapter-`` for ``back``'s adapters, ``piece-`` for
    ``chain_piece``'s pieces), from whichever folder each came back in (a part found twice: the later folder's)."""
    parts: dict[str, dict[str, Path]] = {}
    for folder in folders:
        for path in sorted(folder.glob(f"{prefix}*.tar.gz.part-*")):
            name, _, suffix = path.name[len(prefix) :].partition(".tar.gz.part-")
            parts.setdefault(name, {})[suffix] = path
    return {name: [by_suffix[s] for s in sorted(by_suffix)] for name, by_suffix in parts.items()}


def read_adapter(name: str, parts: list[Path], keep_paths: bool = False) -> dict[str, bytes]:
    """The files of a joined ``adapter-NAME.tar.gz`` by name (``back`` packs ``out/NAME/...``), or by their paths in
    it with ``keep_paths`` (a chain piece's tree); one clear error where its parts do not make a whole archive."""
    data = b"".join(p.read_bytes() for p in parts)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            return {
                (str(Path(m.name)) if keep_paths else Path(m.name).name): tar.extractfile(m).read()
                for m in tar.getmembers()
                if m.isfile()
            }
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise SystemExit(
            f"{name}: its parts ({', '.join(p.name for p in parts)}) are not a whole archive ({exc}): is a part "
            "missing? Give every call's folder, oldest first"
        ) from None


RUN_MARKERS = ("summary.json", "train.log", "chain.log")  # a folder with one of these is a run's record


def copy_records(results: Path, batch: Path) -> dict[str, list[str]]:
    """Run folders, ``scores/`` and part logs of an unpacked ``results/`` into the batch folder; its slip probes
    (``probe/*.json``) into ``slip-probe/`` beside it, named ``batch-N-NAME.json``."""
    batch.mkdir(parents=True, exist_ok=True)
    copied: dict[str, list[str]] = {"runs": [], "scores": [], "logs": [], "probes": []}
    for path in sorted(results.iterdir()):
        if path.is_dir() and path.name != "scores" and any((path / marker).exists() for marker in RUN_MARKERS):
            shutil.copytree(path, batch / path.name, dirs_exist_ok=True)
            copied["runs"].append(path.name)
        elif path.is_file() and path.name.startswith("bg-") and path.suffix == ".log":
            (batch / "logs").mkdir(exist_ok=True)
            shutil.copy2(path, batch / "logs" / path.name)
            copied["logs"].append(path.name)
    if (results / "scores").is_dir():
        shutil.copytree(results / "scores", batch / "scores", dirs_exist_ok=True)
        copied["scores"] = sorted(p.name for p in (results / "scores").iterdir() if p.is_dir())
    for probe in sorted((results / "probe").glob("*.json")) if (results / "probe").is_dir() else []:
        into = batch.parent / "slip-probe" / f"{batch.name}-{probe.name}"
        into.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(probe, into)
        copied["probes"].append(str(into.relative_to(batch.parent.parent.parent)))
    return copied


def has_answers(score_folder: Path) -> bool:
    """Whether a score folder holds its per-problem records (``problems.jsonl``, gzipped or not), which
    ``scripts/derailment.py`` reads; a call that brought back only ``eval.json`` leaves none."""
    return any((score_folder / name).exists() for name in ("problems.jsonl", "problems.jsonl.gz"))


def run_script(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=REPO_ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr.strip()}")
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("batch", type=int, help="the batch number N (scripts/gpu/grpo_sweep_N.sh)")
    parser.add_argument("folders", nargs="+", type=Path, help="the device calls' folders, oldest first")
    parser.add_argument("--note", required=True, help="batch-N.json's note: what ran, where, and the README's path")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the repository (tests write elsewhere)")
    parser.add_argument("--force", action="store_true", help="add to a batch folder that exists")
    args = parser.parse_args(argv)

    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        raise SystemExit(f"no such folder: {', '.join(missing)}")
    batch = args.root / "results" / "grpo" / f"batch-{args.batch}"
    if batch.exists() and not args.force:
        raise SystemExit(f"{batch} exists: give --force to add to it")
    adapters = {name: read_adapter(name, parts) for name, parts in adapter_parts(args.folders).items()}  # checked first
    pieces = {
        name: read_adapter(name, parts, keep_paths=True)
        for name, parts in adapter_parts(args.folders, prefix="piece-").items()
    }
    with tempfile.TemporaryDirectory() as tmp:
        if not unpack_results(args.folders, Path(tmp)):
            raise SystemExit("no results.tar.gz in the folders given (is each a device call's folder?)")
        if not (Path(tmp) / "results").is_dir():
            raise SystemExit("the results.tar.gz files hold no results/ folder")
        copied = copy_records(Path(tmp) / "results", batch)
    for name, files in adapters.items():
        folder = args.root / "adapters" / f"batch-{args.batch}" / name
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, content in files.items():
            (folder / file_name).write_bytes(content)
            (folder / file_name).chmod(0o644)

    for name, files in pieces.items():  # the whole piece for the next to carry; its records kept in the batch
        for path, content in files.items():
            for target in [args.root / "adapters" / f"batch-{args.batch}" / name / path] + (
                [] if path.endswith(".safetensors") else [batch / name / path]
            ):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
                target.chmod(0o644)

    rel = batch.relative_to(args.root)
    print(f"{rel}: runs {', '.join(copied['runs']) or '-'}; scores {', '.join(copied['scores']) or '-'}")
    for name, files in adapters.items():
        print(f"adapters/batch-{args.batch}/{name}: {', '.join(sorted(files))}")
    for name, files in pieces.items():
        print(
            f"adapters/batch-{args.batch}/{name}: the chain piece, {len(files)} files (carry it on: "
            f"`# CARRY-TREE chain COMMIT:adapters/batch-{args.batch}/{name}` in the next sweep); its records "
            f"also in {rel}/{name}/"
        )
    for probe in copied["probes"]:
        print(f"slip probe: {probe}")
    print(run_script("scripts/compress_results.py", str(batch), "--min_kb", "1").strip())
    record = args.root / "results" / "grpo" / f"batch-{args.batch}.json"
    print(run_script("scripts/summarize_runs.py", str(batch), str(record), "--note", args.note).rstrip())
    scored = sorted(p for p in (batch / "scores").iterdir() if p.is_dir()) if (batch / "scores").is_dir() else []
    answered = [p for p in scored if has_answers(p)]
    if answered:
        print(run_script("scripts/derailment.py", *map(str, answered)).rstrip())
    if unanswered := [p.name for p in scored if p not in answered]:
        print(f"no derailment.json for {', '.join(unanswered)}: no problems.jsonl came back with their scores")
    print(
        "\nLeft by hand: commit the adapters (then drop them from the tree in the next commit); "
        f"{rel}/README.md with the rules applied; scripts/first_slip_words.py and scripts/paired_scores.py where the "
        "README compares; results/grpo/README.md, README.md and scripts/analysis/ablation.py."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
