"""Derailed answers in evaluations already on disk: for each folder's ``problems.jsonl`` (or its gzipped copy), per
label, split and task, the answers whose slipped target words reach a quarter of the target, and the score they lose
(``training.core.slip_diagnostics.derailment``, which ``make eval`` writes into ``diagnostics.json`` since session
20). Writes ``derailment.json`` into each folder and prints one table.

    .venv/bin/python scripts/derailment.py EVAL_FOLDER [EVAL_FOLDER ...]
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from scripts.summarize_runs import read_jsonl  # noqa: E402
from training.core.slip_diagnostics import DERAIL_FRACTION, derailment  # noqa: E402


def folder_derailment(folder: Path) -> list[dict]:
    """One entry per (label, split, task) group of the folder's problem records that has slip fields, in file order."""
    groups: dict[tuple[str, str, str], list[tuple[float, int, int]]] = {}
    for record in read_jsonl(folder / "problems.jsonl"):
        if record.get("slipped_words") is None:
            continue  # a task without two streams (arithmetic): nothing to derail
        key = (record["label"], record["split"], record["task"])
        groups.setdefault(key, []).append((record["score"], record["slipped_words"], record["reference_words"]))
    return [
        {"label": label, "split": split, "task": task, "answers": len(outcomes), **derailment(outcomes)}
        for (label, split, task), outcomes in groups.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print("| folder | label | split | task | answers | derailed | score lost | of it by the derailed |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for folder in args.folders:
        entries = folder_derailment(folder)
        if not entries:
            print(f"error: {folder} holds no problems.jsonl with slip fields (make eval writes one)", file=sys.stderr)
            return 2
        record = {"derail_fraction": DERAIL_FRACTION, "groups": entries}
        (folder / "derailment.json").write_text(json.dumps(record, indent=2) + "\n")
        for e in entries:
            print(
                f"| {folder} | {e['label']} | {e['split']} | {e['task']} | {e['answers']} | {e['problems']} | "
                f"{e['score_lost']:.3f} | {e['score_lost_by_derailed']:.3f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
