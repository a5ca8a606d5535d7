"""What stands where answers first slip, in evaluations already on disk: for each folder's ``problems.jsonl`` (or its
gzipped copy), per label, split and task, the share of first slips that fall on a *symbolic* word (digits,
underscores, slashes, dots or brackets inside it, or camelCase: ``django.utils.timezone``, ``errors='strict')``,
``8.5``, ``ModelAdmin``), or right after one in the target, and on a word whose stream's previous two words occur
again as a pair in that text (a place that is easy to lose), each against its share of all target words. The
problems are drawn again from their ids (``task.problems(split, n)``), so the folder needs no texts. ``make eval``
records each first slip's word and counts the symbolic ones since session 22 (``diagnostics.json``); this script
reads evaluations from before that too, and adds the repeated places.

    .venv/bin/python scripts/first_slip_words.py EVAL_FOLDER [EVAL_FOLDER ...]

Writes ``first_slips.json`` into each folder and prints one table. Session 22 found with it that out of register
(technical docs) half of the shipped adapter's first slips fall on symbolic words, which are 6-7% of the target words.
"""

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from scripts.summarize_runs import read_jsonl  # noqa: E402
from training.core.slip_diagnostics import is_symbolic, target_stream  # noqa: E402


def stream_word(index: int, len_a: int, len_b: int) -> tuple[str | None, int]:
    """(stream, index in that stream's text) of target word ``index`` (the target alternates while both texts
    last, then the longer text goes on)."""
    stream = target_stream(index, len_a, len_b)
    common = min(len_a, len_b)
    return stream, index // 2 if index < 2 * common else common + index - 2 * common


def first_difference(a: list, b: list) -> int:
    """The first position where two sequences (words, tokens) differ; the shorter one's length when one is the
    other's start."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def places_repeat(words: list[str]) -> list[bool]:
    """Per word of a text, whether the two words before it occur again as a pair in it: the place to continue
    from is ambiguous there."""
    lowered = [w.lower() for w in words]
    pairs = Counter(zip(lowered, lowered[1:]))
    return [j >= 2 and pairs[(lowered[j - 2], lowered[j - 1])] > 1 for j in range(len(words))]


def word_features(problem: dict) -> list[dict[str, bool]]:
    """Per target word of ``problem``: whether it is symbolic, at or right after a symbolic word, and whether its
    stream's place repeats there (each text read once)."""
    target = problem["target"].split()
    texts = {"A": problem["text_a"].split(), "B": problem["text_b"].split()}
    repeats = {stream: places_repeat(words) for stream, words in texts.items()}
    symbolic = [is_symbolic(word) for word in target]
    features = []
    for index in range(len(target)):
        stream, j = stream_word(index, len(texts["A"]), len(texts["B"]))
        features.append(
            {
                "symbolic": symbolic[index],
                "at_or_after_symbolic": any(symbolic[max(0, index - 2) : index + 1]),
                "place_repeats": stream is not None and repeats[stream][j],
            }
        )
    return features


FEATURES = ("symbolic", "at_or_after_symbolic", "place_repeats")


def group_first_slips(records: list[dict], problems: dict[str, dict]) -> dict:
    """For records of one label, split and task: how many first slips, and for each feature its share at first
    slips and among all target words."""
    at, base, slips, words = Counter(), Counter(), 0, 0
    for record in records:
        features = word_features(problems[record["id"]])
        words += len(features)
        for word in features:
            base.update(k for k, v in word.items() if v)
        first = record.get("first_slip")
        if first is None or first >= len(features):
            continue
        slips += 1
        at.update(k for k, v in features[first].items() if v)
    return {
        "answers": len(records),
        "first_slips": slips,
        **{f"{k}_at_first_slips": round(at[k] / slips, 3) if slips else None for k in FEATURES},
        **{f"{k}_of_target_words": round(base[k] / words, 3) if words else None for k in FEATURES},
    }


def slip_groups(records: list[dict], keep=lambda task: True):
    """The interleave answers of an evaluation's ``records`` (arithmetic has no streams to slip) whose task ``keep``
    accepts, by (label, split, task) in order, each group with its problems: (label, split, task, records, {problem
    id: problem}). A group whose records carry their texts (``make eval --completions`` since session 30) is its own
    problems; else they are drawn again from their ids, which the problems of ``make eval DATA=...`` cannot be."""
    from dataset_builders import tasks
    from dataset_builders.prompts import interleave_target

    groups: dict[tuple, list[dict]] = {}
    for record in records:
        if "first_slip" in record and keep(record["task"]):
            # an answer without a label is the adapter's, as paired_scores.py reads it
            groups.setdefault((record.get("label", "trained"), record["split"], record["task"]), []).append(record)
    for (label, split, task), members in sorted(groups.items()):
        if all("text_a" in r and "text_b" in r for r in members):
            problems = {
                r["id"]: {"id": r["id"], "text_a": r["text_a"], "text_b": r["text_b"]}
                | {"target": interleave_target(r["text_a"], r["text_b"])}
                for r in members
            }
        else:
            size = max(r["index"] for r in members) + 1
            problems = {p["id"]: p for p in tasks.get(task).problems(split, size)}
        yield label, split, task, members, problems


def folder_first_slips(folder: Path) -> list[dict]:
    return [
        {"label": label, "split": split, "task": task, **group_first_slips(members, problems)}
        for label, split, task, members, problems in slip_groups(read_jsonl(folder / "problems.jsonl"))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print(
        "| folder | label | split | task | first slips | on a symbolic word (of all words) | at or after one | "
        "where the place repeats |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for folder in args.folders:
        rows = folder_first_slips(folder)
        (folder / "first_slips.json").write_text(json.dumps({"definition": __doc__, "groups": rows}, indent=1) + "\n")
        for r in rows:
            cells = [
                f"{r[f'{k}_at_first_slips']} ({r[f'{k}_of_target_words']})" if r["first_slips"] else "-"
                for k in FEATURES
            ]
            print(
                f"| {folder} | {r['label']} | {r['split']} | {r['task']} | {r['first_slips']} | "
                + " | ".join(cells)
                + " |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
