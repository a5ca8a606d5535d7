"""What kind of mistake each first slip is, in evaluations that kept their completions (``make eval`` with
``--completions``): the target and the completion compared word by word up to the first word where they differ
(``first_difference``), and that place sorted into one kind:

- ``digits cut``: the completion's word is the start of a target word, and what it leaves out holds digits
  (``300,000`` written ``300,0``; ``2013.`` written ``2013`` is punctuation);
- ``glued``: the target word and the next written as one (``Ports OTHELLO:`` as ``PortsOTHELLO:``);
- ``split``: the target word written as two (``months!--Have`` as ``months!-- Have``);
- ``order swapped``: the next two target words in the other order (``earnestly a`` as ``a earnestly``);
- ``word dropped``: the target word left out (the completion goes on with the word after it);
- ``word repeated``: the word before written again in its place;
- ``punctuation``: the same word with other punctuation (``subscriptions:`` as ``subscriptions``);
- ``spelling``: a word like it (``ARCHBISHOP`` as ``ARBISHOP``), ``other`` otherwise.

Each place also says whether it comes right after a doubled word of the target (``is is``: where text A's word
equals text B's, the target writes it twice) or is the doubled word's second copy.

    .venv/bin/python scripts/analysis/first_slip_kinds.py EVAL_FOLDER [EVAL_FOLDER ...] [--out FILE.md]
        [--probe PROBE.json]

``--probe``: a ``scripts/analysis/slip_probe.py`` file of the same adapter, split and problems (one folder then):
per kind, how many of its places had an exact answer among the probe's k samples at temperature 1 (what GRPO learns
from) and the median probability of the reference token where greedy left it.

Session 27 found with it that 7 of the 32 first slips of the chain's stage 1 (GRPO) on test cut a number's trailing
zeros (``$30,000`` -> ``$30,0``). ``--thousands`` counts, without completions, the first slips on a number with a
thousands comma in any evaluation folders (the first slip's target word, drawn again from the problem's id): how
often each stage-1 run makes that mistake.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import string
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.analysis.emit import emit  # noqa: E402
from scripts.first_slip_words import first_difference, slip_groups  # noqa: E402
from scripts.summarize_runs import read_jsonl  # noqa: E402

KINDS = (
    "digits cut",
    "glued",
    "split",
    "order swapped",
    "word dropped",
    "word repeated",
    "punctuation",
    "spelling",
    "other",
)
DIGIT = re.compile(r"\d")


def bare(word: str) -> str:
    return word.strip(string.punctuation + "\u2014\u2013\u2019\u2018\u201c\u201d")


def slip_kind(target: list[str], completion: list[str], at: int) -> str:
    """The kind of the first difference at target word ``at`` (the words before it agree)."""
    want = target[at]
    wrote = completion[at] if at < len(completion) else ""
    after = target[at + 1] if at + 1 < len(target) else None
    if wrote and want.startswith(wrote) and DIGIT.search(want[len(wrote) :]):
        return "digits cut"
    if after is not None and wrote == want + after:
        return "glued"
    if wrote and at + 1 < len(completion) and wrote + completion[at + 1] == want:
        return "split"
    if after is not None and wrote == after:
        following = completion[at + 1] if at + 1 < len(completion) else None
        return "order swapped" if following == want else "word dropped"
    if at > 0 and wrote and bare(wrote) == bare(target[at - 1]):
        return "word repeated"
    if wrote and bare(wrote) == bare(want) and bare(want):
        return "punctuation"
    if wrote and difflib.SequenceMatcher(None, wrote, want).ratio() >= 0.6:
        return "spelling"
    return "other"


def near_doubled(target: list[str], at: int) -> bool:
    """Whether target word ``at`` is a doubled word's second copy or comes right after one."""
    return (at > 0 and target[at] == target[at - 1]) or (at > 1 and target[at - 1] == target[at - 2])


def missed_answers(records: list[dict]):
    """The answers of ``records`` that are not exact, each with its completion text (a SystemExit naming the first
    without one: the evaluation ran without ``--completions``)."""
    for record in records:
        if record.get("exact") or record.get("score", 0) >= 1:
            continue
        if "completion" not in record:
            raise SystemExit(f"{record['id']}: no completion text; evaluate with --completions")
        yield record


def first_slips(records: list[dict], problems: dict[str, dict]) -> list[dict]:
    """One row per answer that is not exact: its problem id, the kind and the words at its first difference."""
    rows = []
    for record in missed_answers(records):
        target = problems[record["id"]]["target"].split()
        completion = record["completion"].split()
        at = first_difference(target, completion)
        if at >= len(target):  # every target word written: it runs on after them, or differs only in spacing
            rows.append({"id": record["id"], "kind": "other", "near_doubled": False, "want": None, "wrote": None})
            continue
        rows.append(
            {
                "id": record["id"],
                "kind": slip_kind(target, completion, at),
                "near_doubled": near_doubled(target, at),
                "want": target[at],
                "wrote": completion[at] if at < len(completion) else None,
            }
        )
    return rows


def folder_problems(folder: Path) -> dict[tuple[str, str], tuple[list[dict], dict[str, dict]]]:
    """(task, split) -> an evaluation's interleave answers and their problems, drawn again from their ids
    (``scripts/first_slip_words.py``'s ``slip_groups``; its labels together)."""
    groups: dict[tuple[str, str], tuple[list[dict], dict[str, dict]]] = {}
    for _, split, task, members, problems in slip_groups(read_jsonl(folder / "problems.jsonl")):  # or its .gz
        records, drawn = groups.setdefault((task, split), ([], {}))
        records.extend(members)
        drawn.update(problems)
    if not groups:
        raise SystemExit(f"{folder}: no interleave answers in problems.jsonl(.gz): is it an evaluation folder?")
    return groups


def folder_first_slips(folder: Path) -> list[dict]:
    """``first_slips`` of every interleave answer in an evaluation folder."""
    return [row for records, problems in folder_problems(folder).values() for row in first_slips(records, problems)]


def probe_table(folder: Path, probe: dict) -> str:
    """Per kind of first slip, the probe's samples and probabilities at those places (joined by problem index)."""
    import statistics

    kinds = {row["id"]: row["kind"] for row in folder_first_slips(folder)}
    records, _ = folder_problems(folder).get((probe["task"], probe["split"]), ([], {}))
    by_index = {r["index"]: r["id"] for r in records}
    places: dict[str, list[dict]] = {}
    for miss in probe["missed_problems"]:
        kind = kinds.get(by_index.get(miss["index"]))
        if kind is None:
            raise SystemExit(f"probe problem {miss['index']} is not a miss of {folder}: another adapter, split or n?")
        places.setdefault(kind, []).append(miss)
    lines = [
        f"At the first slips, {probe['k']} samples at temperature 1 a problem (`{probe.get('adapter')}`):",
        "",
        "| kind | places | with an exact sample | median p(reference token) |",
        "| --- | --- | --- | --- |",
    ]
    for kind in KINDS:
        if kind in places:
            misses = places[kind]
            exact = sum(m["exact_samples"] > 0 for m in misses)
            median = statistics.median(m["p_reference_token"] for m in misses)
            lines.append(f"| {kind} | {len(misses)} | {exact} | {median:.3f} |")
    return "\n".join(lines) + "\n"


THOUSANDS = re.compile(r"\d,\d{3}")


def thousands_table(folders: list[Path]) -> str:
    """Per folder, task and split: the score, answers not exact, and first slips on a number with a thousands comma,
    out of such numbers in the targets (no completions needed: the first slip's target index and the problems)."""
    lines = [
        "First slips on a number with a thousands comma (`1,000`, `$30,000`; the first slip's target word):",
        "",
        "| folder | task | split | NW | answers not exact | first slips on such a number | such numbers in targets |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for folder in folders:
        for (task, split), (members, problems) in sorted(folder_problems(folder).items()):
            on_number = numbers = 0
            for record in members:
                target = problems[record["id"]]["target"].split()
                numbers += sum(bool(THOUSANDS.search(word)) for word in target)
                slip = record.get("first_slip")
                on_number += slip is not None and slip < len(target) and bool(THOUSANDS.search(target[slip]))
            not_exact = sum(not r.get("exact") for r in members)
            score = sum(r["score"] for r in members) / len(members)
            lines.append(f"| `{folder}` | {task} | {split} | {score:.3f} | {not_exact} | {on_number} | {numbers} |")
    return "\n".join(lines) + "\n"


def table(folders: list[Path]) -> str:
    lines = [
        "First slips by kind (answers that are not exact; the kind at the first word that differs):",
        "",
        "| folder | answers not exact | " + " | ".join(KINDS) + " | after or on a doubled word |",
        "| --- | --- | " + " | ".join("---" for _ in KINDS) + " | --- |",
    ]
    examples = []
    for folder in folders:
        rows = folder_first_slips(folder)
        counts = Counter(row["kind"] for row in rows)
        doubled = sum(row["near_doubled"] for row in rows)
        lines.append(f"| `{folder}` | {len(rows)} | " + " | ".join(str(counts[k]) for k in KINDS) + f" | {doubled} |")
        for kind in KINDS:
            shown = [f"`{r['want']}` -> `{r['wrote']}`" for r in rows if r["kind"] == kind and r["want"]][:4]
            if shown:
                examples.append(f"- {folder.name}, {kind}: " + ", ".join(shown))
    return "\n".join(lines + ["", "Examples (target -> completion):", "", *examples]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="evaluation folders whose problems.jsonl has completions")
    parser.add_argument("--out", type=Path, help="also write the table here")
    parser.add_argument("--probe", type=Path, help="a slip_probe.py file of the one folder's adapter and problems")
    parser.add_argument(
        "--thousands",
        action="store_true",
        help="instead: first slips on a number with a thousands comma, in any evaluations (no completions needed)",
    )
    args = parser.parse_args(argv)
    if args.probe and len(args.folders) != 1:
        parser.error("--probe goes with one evaluation folder (its adapter's)")
    if args.thousands and args.probe:
        parser.error("--thousands reads no completions and takes no --probe")
    text = thousands_table(args.folders) if args.thousands else table(args.folders)
    if args.probe:
        text += "\n" + probe_table(args.folders[0], json.loads(args.probe.read_text()))
    emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
