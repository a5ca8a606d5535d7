"""Continuation problems: a train problem cut to a window of its target, for GRPO steps that cost little at any length.

At 500 words a GRPO step samples 128 answers of ~1,400 tokens (54 s on an H200, batch 26's s6-chain), where a step
of supervised help costs ~0.44 s. A continuation problem keeps the prompt and hands the model the first ``k`` words
of the correct interleave as the start of its own answer (an assistant turn it continues); the model writes on, and
the rewards score only its next ``words`` words against the target's words ``k .. k + words``. The sampled part is
``words`` long whatever the stage, and the cut ``k`` falls anywhere in the target, so the late positions where long
answers derail are trained as often as the early ones.

The cut is drawn from the problem's id and the run's seed, so a problem continues from the same place every time.
A target of ``words`` words or fewer stays whole: the problem is asked as it is, and the window is the whole answer.
"""

from __future__ import annotations

import random

WINDOW_COLUMN = "window_words"  # words of the completion the rewards score (0: all of it)


def continuation_row(row: dict, words: int, seed: int = 0) -> dict:
    """``row`` as a continuation problem of a ``words``-word window: the prompt followed by an assistant turn
    holding the target's first ``k`` words, the target cut to words ``k .. k + words``, and ``window_words`` set to
    ``words``."""
    if words < 1:
        raise ValueError(f"a continuation window needs at least 1 word, got {words}")
    target = row["target"].split()
    if len(target) <= words:
        return {**row, WINDOW_COLUMN: words}
    cut = random.Random(f"{seed}:{row['id']}").randint(0, len(target) - words)
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
