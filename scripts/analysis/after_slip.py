"""What an answer does after its first slip, in evaluations that kept their completions (``make eval`` with
``--completions``). At 500 words out of register most of the score is lost by answers that derail (batch 34: 0.363
of the 0.486 lost), so the question is less where they slip than why they do not come back. The ``window``
completion words after the first word that differs (``first_difference``) are sorted into one kind:

- ``back in step``: most of them (``STEP_SHARE``) equal the target's words at the same place, shifted by at most
  ``MAX_SHIFT`` words (a word dropped or added, then on as before);
- ``a word twice``: many of them (``TWICE_SHARE``) repeat the word before, as when one text is lost and the other
  written into both slots (``All All characters characters are are``);
- ``one text alone``: most pairs of neighbours (``ALONE_SHARE``) are neighbours in text A or in text B: the answer
  copies one text on and leaves the other;
- ``one text skipped ahead`` / ``one text went back``: the answer still interleaves, each of its two slots copying
  one text on (``FOLLOW_SHARE`` of the slot's words in a row of that text), one of them in step and the other some
  words ahead of where the target is (or behind it): one text's place jumped, the other's held;
- ``lost its place``: most words come from the two texts (``SOURCE_SHARE``), but in no such order;
- ``own words``: otherwise, text of its own.

    .venv/bin/python scripts/analysis/after_slip.py EVAL_FOLDER [EVAL_FOLDER ...] [--window 40] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from scripts.analysis.emit import emit  # noqa: E402
from scripts.analysis.first_slip_kinds import folder_problems, missed_answers  # noqa: E402
from scripts.first_slip_words import first_difference  # noqa: E402
from training.core.slip_diagnostics import target_stream  # noqa: E402

KINDS = (
    "back in step",
    "a word twice",
    "one text alone",
    "one text skipped ahead",
    "one text went back",
    "lost its place",
    "own words",
)
MAX_SHIFT = 3
STEP_SHARE = 0.8
TWICE_SHARE = 0.3
ALONE_SHARE = 0.6
SOURCE_SHARE = 0.7
FOLLOW_SHARE = 0.6


def after_slip_kind(target: list[str], completion: list[str], text_a: list[str], text_b: list[str], window: int) -> str:
    """The kind of the ``window`` completion words after the first word where ``completion`` leaves ``target``."""
    at = first_difference(target, completion)
    seen = completion[at + 1 : at + 1 + window]
    if not seen:
        return "back in step"  # nothing after the slip: the answer ended there (or differs at its last word)
    in_step = max(
        sum(0 <= at + 1 + i + shift < len(target) and target[at + 1 + i + shift] == word for i, word in enumerate(seen))
        for shift in range(-MAX_SHIFT, MAX_SHIFT + 1)
    )
    if in_step >= STEP_SHARE * len(seen):
        return "back in step"
    pairs = list(zip(seen, seen[1:]))
    if pairs and sum(a == b for a, b in pairs) >= TWICE_SHARE * len(pairs):
        return "a word twice"
    neighbours = set(zip(text_a, text_a[1:])) | set(zip(text_b, text_b[1:]))
    if pairs and sum(pair in neighbours for pair in pairs) >= ALONE_SHARE * len(pairs):
        return "one text alone"
    jumped = slot_jump(target, seen, at + 1, text_a, text_b)
    if jumped:
        return "one text skipped ahead" if jumped > 0 else "one text went back"
    sources = set(text_a) | set(text_b)
    if sum(word in sources for word in seen) >= SOURCE_SHARE * len(seen):
        return "lost its place"
    return "own words"


def follows(slot: list[str], text: list[str]) -> tuple[int, int]:
    """(how many words of ``slot`` equal ``text`` from its best start on, that start): ``slot[k] == text[start+k]``."""
    starts = {j - k for k, word in enumerate(slot) for j, other in enumerate(text) if other == word}
    return max(
        ((sum(0 <= s + k < len(text) and text[s + k] == w for k, w in enumerate(slot)), s) for s in starts),
        default=(0, 0),
    )


def slot_jump(target: list[str], seen: list[str], start: int, text_a: list[str], text_b: list[str]) -> int:
    """How many words one text's place jumped (> 0 ahead, < 0 back; 0: no such jump): the completion words ``seen``
    (from completion position ``start`` on) split into their two slots, each slot copying one text in a row
    (``FOLLOW_SHARE`` of its words), one text each, one within a word of the place the target has for it at
    ``start`` and the other more than ``MAX_SHIFT`` words from it, or one exactly at its place and the other off it
    by any number of words. A text a word or two behind while the other holds (a word written twice, then that text
    one behind to the end: stage 2's derailments, ``results/grpo/stage2-after-slip.md``) is such a jump; "back in
    step" reads shifts of the interleaved target as a whole, which move both texts, so it does not catch it."""
    offsets = {}
    for parity in (0, 1):
        slot = seen[parity::2]
        (count_a, start_a), (count_b, start_b) = follows(slot, text_a), follows(slot, text_b)
        count, text, first = max((count_a, "A", start_a), (count_b, "B", start_b))
        if count < FOLLOW_SHARE * len(slot) or text in offsets:
            return 0
        # the index of the text's next word at this target position: its words in the target before it
        place = sum(target_stream(i, len(text_a), len(text_b)) == text for i in range(min(start + parity, len(target))))
        offsets[text] = first - place
    near, far = sorted(offsets.values(), key=abs)
    return far if abs(near) <= 1 and (abs(far) > MAX_SHIFT or (near == 0 and far != 0)) else 0


def after_slips(records: list[dict], problems: dict[str, dict], window: int) -> list[dict]:
    """One row per answer that is not exact: its problem id, score and kind after its first slip."""
    rows = []
    for record in missed_answers(records):
        problem = problems[record["id"]]
        kind = after_slip_kind(
            problem["target"].split(),
            record["completion"].split(),
            problem["text_a"].split(),
            problem["text_b"].split(),
            window,
        )
        rows.append({"id": record["id"], "score": record["score"], "kind": kind})
    return rows


def table(folders: list[Path], window: int) -> str:
    lines = [
        f"After the first slip (the {window} completion words after it), answers that are not exact, by kind; in"
        " brackets the score those answers lose (1 minus their score, summed, over all answers of the task):",
        "",
        "| folder | task | split | answers | not exact | " + " | ".join(KINDS) + " |",
        "| --- | --- | --- | --- | --- | " + " | ".join("---" for _ in KINDS) + " |",
    ]
    for folder in folders:
        for (task, split), (records, problems) in sorted(folder_problems(folder).items()):
            rows = after_slips(records, problems, window)
            counts = Counter(row["kind"] for row in rows)
            lost = Counter()
            for row in rows:
                lost[row["kind"]] += 1 - row["score"]
            cells = [f"{counts[k]} ({lost[k] / len(records):.3f})" for k in KINDS]
            lines.append(
                f"| `{folder}` | {task} | {split} | {len(records)} | {len(rows)} | " + " | ".join(cells) + " |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="evaluation folders whose problems.jsonl has completions")
    parser.add_argument("--window", type=int, default=40, help="completion words read after the first slip")
    parser.add_argument("--out", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    if args.window < 2:
        parser.error("--window must be 2 or more words")
    text = table(args.folders, args.window)
    emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
