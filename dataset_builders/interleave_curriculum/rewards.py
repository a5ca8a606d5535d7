"""Interleave rewards in TRL's reward signature, on the Needleman-Wunsch core of `metrics/needleman_wunsch`.

``reward(prompts, completions, target, **kwargs) -> list[float]``: ``completions`` are strings or
conversational message lists; the dataset's ``target`` column (the reference interleave) arrives
by keyword, as do its other columns (``text_a``, ``text_b``), which these rewards do not need, and
``window_words`` on continuation problems (``continuation.py``): there a completion is scored on
its first ``window_words`` words, the window its target holds.

- ``interleave_strict_reward``: the metric itself, max(0, S) / len(target). Zero until more than
  half of an equal-length interleave is right, so sparse early in training.
- ``interleave_trigram_reward``: the dense one. It credits the target's word trigrams kept in order
  (an LCS over trigrams, on the same NW core with match 1, mismatch 0, gap 0; both sides padded
  with start and end markers), as a Dice score 2 * kept / (trigrams of completion + of target).
  Each pair an interleave gets right adds trigrams, while a copy of one text, or of both one after
  the other, forms trigrams the target never has (a1 a2 a3, not a1 b1 a2): copying earns ~0, where
  a dense mapping of S paid 0.6 for it. Trigrams rather than bigrams: in real prose, frequent pairs
  such as "of the" turn up across the two texts, and bigrams paid copies ~0.02 by coincidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from dataset_builders.interleave_curriculum.continuation import WINDOW_COLUMN, windowed
from dataset_builders.prompts import completion_text
from metrics.needleman_wunsch.nw_alignment import Scoring, nw_score, nw_scores, sequence_scores, split_words

LCS_SCORING = Scoring(match=1, mismatch=0, gap=0)
# Threads per batch on the rapidfuzz backend (the one a machine without numba uses); -1: every core.
REWARD_WORKERS = -1


START, END = object(), object()  # boundary markers: equal only to themselves, never to a word


def word_ngrams(words: Sequence[str], n: int) -> list[tuple]:
    """The n-grams of ``words`` padded with a start and an end marker: len(words) + 3 - n of them."""
    padded = [START, *words, END]
    return list(zip(*(padded[i:] for i in range(n))))


def ngram_dices(predictions: Sequence[str], targets: Sequence[str], n: int = 3, workers: int = 1) -> list[float]:
    """2 * (target n-grams kept in order) / (n-grams of prediction + of target); 1.0 iff the words are equal."""
    words = [(split_words(p), split_words(t)) for p, t in zip(predictions, targets, strict=True)]
    grams = [(word_ngrams(p, n), word_ngrams(t, n)) for p, t in words if p and t]
    kept = iter(sequence_scores(grams, LCS_SCORING, workers=workers))
    # An empty side has no n-grams to compare: the strict score decides (1.0 only when both are empty).
    return [
        2 * next(kept) / (len(word_ngrams(p, n)) + len(word_ngrams(t, n))) if p and t else nw_score(p, t)
        for p, t in words
    ]


def ngram_dice(prediction: str, target: str, n: int = 3) -> float:
    """``ngram_dices`` of one pair."""
    return ngram_dices([prediction], [target], n)[0]


def scored_texts(completions, kwargs: dict) -> list[str]:
    """The completions' texts as the rewards score them: a continuation problem's (``continuation.py``) cut to its
    window of words, which its target is."""
    return windowed([completion_text(c) for c in completions], kwargs.get(WINDOW_COLUMN))


def interleave_strict_reward(prompts, completions, target, **kwargs) -> list[float]:
    """The needleman_wunsch metric of each completion against its target interleave."""
    return nw_scores(scored_texts(completions, kwargs), target, workers=REWARD_WORKERS)


def interleave_trigram_reward(prompts, completions, target, **kwargs) -> list[float]:
    """Dense: the Dice score of target word trigrams kept in order; copying one or both texts scores ~0."""
    return ngram_dices(scored_texts(completions, kwargs), target, 3, workers=REWARD_WORKERS)


# The pair for GRPOConfig(reward_weights=...): the dense reward leads, the metric keeps the goal in view.
INTERLEAVE_REWARDS = (interleave_trigram_reward, interleave_strict_reward)
INTERLEAVE_REWARD_WEIGHTS = (0.5, 0.5)
