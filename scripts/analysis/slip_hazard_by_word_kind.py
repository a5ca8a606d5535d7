"""On what kind of word answers first slip, per word at risk: for each evaluation folder's ``problems.jsonl`` (or its
gzipped copy), per stage, the target words are sorted into kinds, and for each kind the first slips on it per 1,000
of its words still unslipped ("at risk": the words up to and including an answer's first slip, or all of them in an
answer without one). A share of first slips (``scripts/first_slip_words.py``) mixes how often a kind occurs with how
hard it is; this hazard is how hard it is.

Kinds: a *doubled* word, the same as the target word before or after it (Text A's word i and Text B's word i both
``the``: the target reads ``the the``); else a *plain* word (not symbolic,
``training.core.slip_diagnostics.is_symbolic``), split into plain words within two words after a symbolic one
(``plain, after symbolic``) and the others; else a *symbolic* word by its number of components (runs of letters or
digits, camelCase split: ``timezone.FixedOffset`` has 3, ``IGNORABLE_404_STARTS`` 3,
``django.db.models.functions.TruncHour()`` 6): 1-2, 3, or 4 and more.

    .venv/bin/python scripts/analysis/slip_hazard_by_word_kind.py FOLDER [FOLDER ...] [--stages 4-6] [--out FILE.md]

Regenerates each problem from the embedded corpus (the eval's split, seed 0), as ``first_slip_words.py`` does; no
GPU, about a minute a folder. Session 25 used it to choose issue 18's next lever
(results/grpo/slip-hazard-word-kind.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.first_slip_words import slip_groups  # noqa: E402
from scripts.summarize_runs import read_jsonl  # noqa: E402
from training.cli.evaluate import parse_stages  # noqa: E402  (the eval's own reading of a stages spec)
from training.core.slip_diagnostics import is_symbolic  # noqa: E402

KINDS = ("plain", "plain, after symbolic", "symbolic, 1-2 components", "symbolic, 3", "symbolic, 4+", "doubled")


def components(word: str) -> list[str]:
    """The runs of letters or digits of ``word``, camelCase split (``TruncHour()`` -> ``Trunc``, ``Hour``)."""
    return [p for p in re.split(r"[^A-Za-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", word)) if p]


def word_kinds(words: list[str]) -> list[str]:
    """The kind (``KINDS``) of each word of a target."""
    symbolic = [is_symbolic(w) for w in words]
    kinds = []
    for i, word in enumerate(words):
        if (i > 0 and words[i - 1] == word) or (i + 1 < len(words) and words[i + 1] == word):
            kinds.append(KINDS[5])
        elif not symbolic[i]:
            kinds.append(KINDS[1] if any(symbolic[max(0, i - 2) : i]) else KINDS[0])
        else:
            n = len(components(word))
            kinds.append(KINDS[2] if n <= 2 else KINDS[3] if n == 3 else KINDS[4])
    return kinds


def hazards(records: list[dict], targets: dict[str, list[str]]) -> dict[str, dict]:
    """Per kind: first slips on it, its words at risk, first slips per 1,000 at risk, and its words in all."""
    slips, risk, words = Counter(), Counter(), Counter()
    for record in records:
        kinds = word_kinds(targets[record["id"]])
        first = record.get("first_slip")
        slipped = first is not None and first < len(kinds)
        words.update(kinds)
        risk.update(kinds[: first + 1] if slipped else kinds)
        if slipped:
            slips[kinds[first]] += 1
    return {
        kind: {
            "first_slips": slips[kind],
            "at_risk": risk[kind],
            "per_1000": round(1000 * slips[kind] / risk[kind], 2) if risk[kind] else None,
            "words": words[kind],
        }
        for kind in KINDS
    }


def folder_hazards(folder: Path, stages: set[int]) -> list[dict]:
    records = read_jsonl(folder / "problems.jsonl")
    if not records:
        raise SystemExit(f"{folder}: no problems.jsonl or problems.jsonl.gz (is it an evaluation folder?)")

    def in_stages(task: str) -> bool:
        return task.startswith("stage-") and int(task.split("-")[1]) in stages

    rows = []
    for label, split, task, members, problems in slip_groups(records, in_stages):
        targets = {i: p["target"].split() for i, p in problems.items()}
        rows.append({"folder": str(folder), "label": label, "split": split, "task": task, **hazards(members, targets)})
    return rows


def markdown(rows: list[dict]) -> str:
    header = "| folder | split | task | " + " | ".join(KINDS) + " |"
    lines = [header, "| " + " | ".join(["---"] * (3 + len(KINDS))) + " |"]
    for r in rows:
        cells = [
            f"{r[k]['per_1000']} ({r[k]['first_slips']} / {r[k]['at_risk']:,})" if r[k]["at_risk"] else "-"
            for k in KINDS
        ]
        lines.append(f"| `{r['folder']}` | {r['split'].replace('_', ' ')} | {r['task']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--stages", default="4-6", help="curriculum stages, e.g. 6 or 4-6")
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args(argv)
    try:
        stages = set(parse_stages(args.stages))
    except ValueError as error:
        parser.error(str(error))
    rows = [row for folder in args.folders for row in folder_hazards(folder, stages)]
    table = markdown(rows)
    print("First slips per 1,000 words at risk (first slips / words at risk), by kind of word:\n")
    print(table)
    if args.out:
        args.out.write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
