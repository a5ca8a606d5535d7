"""Continuation problems: a train problem cut to a window of its target, for GRPO steps that cost little at any length.

At 500 words a GRPO step samples 128 answers of ~1,400 tokens (54 s on an H200, batch 26's s6-chain), where a step
of supervised help costs ~0.44 s. A continuation problem keeps the prompt and hands the model the first ``k`` words
of the correct interleave as the start of its own answer (an assistant turn it continues); the model writes on, and
the rewards score only its next ``words`` words against the target's words ``k .. k + words``. The sampled part is
``words`` long whatever the stage, and the cut ``k`` falls anywhere in the target, so the late positions where long
answers derail are trained as often as the early ones.

The cut is drawn from the problem's id and the run's seed, so a problem continues from the same place every time.
A target of ``words`` words or fewer stays whole: the problem is asked as it is, and the window is the whole answer.

**Cuts at the adapter's own slips** (``slip_cuts``, ``--continuation_cuts``). From a strong adapter most random
windows are already right: batch 27's c6w-lt had 80% of its groups with no reward variance, while what the adapter
loses at 500 words is answers that lose their place. A greedy evaluation of the start adapter on the train problems
(``python -m training.cli.evaluate --splits train``) records each answer's first slip, the first target word it got
wrong; everything before it was the adapter's own greedy answer. A problem listed there continues from
``SLIP_LEAD_WORDS`` words before that slip, so its window holds the place where the adapter went wrong and what
follows. Problems with no slip, or not listed, keep the random cut.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

WINDOW_COLUMN = "window_words"  # words of the completion the rewards score (0: all of it)
SLIP_LEAD_WORDS = 4  # a cut at a slip hands over the answer up to this many words before it


def continuation_row(row: dict, words: int, seed: int = 0, cut: int | None = None) -> dict:
    """``row`` as a continuation problem of a ``words``-word window: the prompt followed by an assistant turn
    holding the target's first ``k`` words, the target cut to words ``k .. k + words``, and ``window_words`` set to
    ``words``. ``k`` is ``cut`` where given (kept within the target), else drawn from the problem's id and ``seed``."""
    if words < 1:
        raise ValueError(f"a continuation window needs at least 1 word, got {words}")
    target = row["target"].split()
    if len(target) <= words:
        return {**row, WINDOW_COLUMN: words}
    if cut is None:
        cut = random.Random(f"{seed}:{row['id']}").randint(0, len(target) - words)
    cut = min(max(cut, 0), len(target) - words)
    prompt = list(row["prompt"])
    if cut:
        prompt.append({"role": "assistant", "content": " ".join(target[:cut])})
    return {**row, "prompt": prompt, "target": " ".join(target[cut : cut + words]), WINDOW_COLUMN: words}


def windowed(texts: list[str], windows: list[int] | None) -> list[str]:
    """Each completion text cut to its first ``window`` words where the problem has a window (``window_words``
    column; 0 or no column: the whole text). Words are whitespace-separated, as the NW metric splits them."""
    if not windows:
        return texts
    return [" ".join(text.split()[:window]) if window else text for text, window in zip(texts, windows, strict=True)]


def slip_cuts(path: str | Path, task: str, lead: int = SLIP_LEAD_WORDS) -> dict[str, int]:
    """{train problem id: cut} from an evaluation's ``problems.jsonl`` (or ``problems.jsonl.gz``) of the train
    split: each answer of ``task`` with a first slip at target word ``s`` is cut at ``s - lead`` (at least 0).
    Answers with no slip are left out (their problems keep the random cut). A ValueError, which says how to make
    the file, where it cannot be read or holds no train answer of ``task``."""
    path = Path(path)
    make = (
        f"make it with `python -m training.cli.evaluate --adapter START --splits train --stages "
        f"{task.removeprefix('stage-')} --n 256 --baseline false --arithmetic false` (START: the adapter the run "
        "starts from; the file is problems.jsonl in its output folder)"
    )
    if path.is_dir():
        path = next((p for p in (path / "problems.jsonl", path / "problems.jsonl.gz") if p.is_file()), path)
    try:
        with gzip.open(path, "rt") if path.suffix == ".gz" else path.open() as lines:
            records = [json.loads(line) for line in lines if line.strip()]
    except (OSError, ValueError) as exc:
        raise ValueError(f"continuation cuts: cannot read {path} ({exc}); {make}") from None
    answers = [r for r in records if r.get("split") == "train" and r.get("task") == task]
    labels = {r.get("label") for r in answers}
    if "trained" in labels:
        answers = [r for r in answers if r.get("label") == "trained"]  # the adapter's, not the base model's
    if not answers:
        raise ValueError(f"continuation cuts: {path} holds no answer to a train problem of {task}; {make}")
    return {r["id"]: max(r["first_slip"] - lead, 0) for r in answers if r.get("first_slip") is not None}
