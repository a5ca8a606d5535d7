"""Normalized Needleman-Wunsch word alignment: words, ids, the score S, its normalization, aligned pairs.

The one implementation behind the `needleman_wunsch` evaluate metric and the GRPO rewards.
Imports nothing outside this folder (it is copied alone into evaluate's module cache).
Texts are compared in Unicode NFC: a precomposed ``é`` and ``e`` + combining accent are the same word
(canonical equivalence only; compatibility forms such as ligatures or full-width letters stay distinct).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Iterable, Sequence
from typing import NamedTuple

from .nw_kernels import DEFAULT_SCORING, OP_NAMES, Scoring, alignment_score, alignment_scores, alignment_traceback

Text = str | Sequence[str]


class AlignedPair(NamedTuple):
    """One column of an alignment; ``prediction`` is None for a delete, ``reference`` for an insert."""

    op: str  # "match", "substitute", "insert" (extra prediction word) or "delete" (missed reference word)
    prediction: str | None
    reference: str | None


class Alignment(NamedTuple):
    """The optimal alignment of a prediction against a reference, with its raw score S."""

    score: float
    pairs: list[AlignedPair]


class _PunctuationDeleter(dict):
    """str.translate table deleting Unicode punctuation (categories P*), filled as characters appear."""

    def __missing__(self, code: int):
        value = None if unicodedata.category(chr(code)).startswith("P") else code
        self[code] = value
        return value


_PUNCTUATION = _PunctuationDeleter()


def _nfc(word: str) -> str:
    return word if word.isascii() else unicodedata.normalize("NFC", word)


def split_words(text: Text, *, lowercase: bool = False, strip_punctuation: bool = False) -> list[str]:
    """Whitespace words of ``text`` (or a list of words) in Unicode NFC, optionally lowercased and without
    punctuation; a TypeError for anything but a string or a list of strings."""
    if isinstance(text, str):
        words = _nfc(text).split()
    else:
        try:
            words = list(text)
        except TypeError:
            raise TypeError(f"a text is a string or a list of words (strings), got {type(text).__name__}") from None
        try:
            joined = "".join(words)  # fails on the first word that is not a string, at C speed
        except TypeError:
            position, word = next((i, w) for i, w in enumerate(words) if not isinstance(w, str))
            raise TypeError(
                f"word {position} of a word list is {word!r} ({type(word).__name__}), not a string"
            ) from None
        if not joined.isascii():
            words = [_nfc(w) for w in words]
    if lowercase:
        words = [w.lower() for w in words]
    if strip_punctuation:
        words = [w for w in (w.translate(_PUNCTUATION) for w in words) if w]
    return words


def to_ids(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[list[int], list[int]]:
    """Map the items of both sequences to shared integer ids (equal items, equal ids)."""
    vocab: dict = {}
    ids_a = [vocab.setdefault(x, len(vocab)) for x in a]
    ids_b = [vocab.setdefault(x, len(vocab)) for x in b]
    return ids_a, ids_b


def sequence_score(
    a: Sequence[Hashable], b: Sequence[Hashable], scoring: Scoring = DEFAULT_SCORING, backend: str = "auto"
):
    """Optimal global alignment score S of two sequences of hashable items (words, word pairs...)."""
    return alignment_score(*to_ids(a, b), scoring, backend)


def sequence_scores(
    pairs: Iterable[tuple[Sequence[Hashable], Sequence[Hashable]]],
    scoring: Scoring = DEFAULT_SCORING,
    backend: str = "auto",
    workers: int = 1,
) -> list:
    """S of each (a, b) pair of sequences; ``workers`` threads share a batch on rapidfuzz (-1: every core)."""
    return alignment_scores([to_ids(a, b) for a, b in pairs], scoring, backend, workers)


def check_normalizable(scoring: Scoring) -> None:
    """A ValueError unless normalized scores of ``scoring`` stay in [0, 1] (match > 0, mismatch <= match, gap <= 0)."""
    if not scoring.match > 0:
        raise ValueError(f"match must be > 0 (scores are normalized by match x len(reference)), got {scoring.match}")
    if scoring.mismatch > scoring.match:
        raise ValueError(
            f"mismatch ({scoring.mismatch}) must not exceed match ({scoring.match}): a wrong word would "
            "score above a right one, and scores above 1"
        )
    if scoring.gap > 0:
        raise ValueError(
            f"gap must be <= 0, got {scoring.gap}: a positive gap pays for missing and extra words, "
            "and scores go above 1"
        )


def normalize(score, reference_length: int, prediction_length: int, scoring: Scoring = DEFAULT_SCORING) -> float:
    """max(0, S) / (match * len(reference)); an empty reference scores 1.0 only against an empty prediction."""
    check_normalizable(scoring)
    if reference_length == 0:
        return 1.0 if prediction_length == 0 else 0.0
    return max(0, score) / (scoring.match * reference_length)


def nw_score(
    prediction: Text,
    reference: Text,
    *,
    scoring: Scoring = DEFAULT_SCORING,
    lowercase: bool = False,
    strip_punctuation: bool = False,
    backend: str = "auto",
) -> float:
    """Normalized NW word alignment score in [0, 1]: 1.0 exactly when the words are equal."""
    check_normalizable(scoring)
    pred = split_words(prediction, lowercase=lowercase, strip_punctuation=strip_punctuation)
    ref = split_words(reference, lowercase=lowercase, strip_punctuation=strip_punctuation)
    return normalize(sequence_score(pred, ref, scoring, backend), len(ref), len(pred), scoring)


def nw_scores(
    predictions: Iterable[Text],
    references: Iterable[Text],
    *,
    scoring: Scoring = DEFAULT_SCORING,
    lowercase: bool = False,
    strip_punctuation: bool = False,
    backend: str = "auto",
    workers: int = 1,
) -> list[float]:
    """``nw_score`` of each (prediction, reference) pair, as one batch (see ``sequence_scores``)."""
    check_normalizable(scoring)
    words = [
        (
            split_words(p, lowercase=lowercase, strip_punctuation=strip_punctuation),
            split_words(r, lowercase=lowercase, strip_punctuation=strip_punctuation),
        )
        for p, r in zip(predictions, references, strict=True)
    ]
    scores = sequence_scores(words, scoring, backend, workers)
    return [normalize(s, len(r), len(p), scoring) for s, (p, r) in zip(scores, words)]


def nw_alignment(
    prediction: Text,
    reference: Text,
    *,
    scoring: Scoring = DEFAULT_SCORING,
    lowercase: bool = False,
    strip_punctuation: bool = False,
    backend: str = "auto",
) -> Alignment:
    """The optimal word alignment (ties: substitute before insert before delete) and its raw score S."""
    pred = split_words(prediction, lowercase=lowercase, strip_punctuation=strip_punctuation)
    ref = split_words(reference, lowercase=lowercase, strip_punctuation=strip_punctuation)
    score, ops = alignment_traceback(*to_ids(pred, ref), scoring, backend)
    return Alignment(score, pairs_from_ops(ops, pred, ref))


def pairs_from_ops(ops: Iterable[int], prediction: Sequence[str], reference: Sequence[str]) -> list[AlignedPair]:
    """Aligned word pairs from op codes (match, substitute, insert, delete), walking both word lists."""
    pairs, i, j = [], 0, 0
    for code in ops:
        op = OP_NAMES[code]
        if op in ("match", "substitute"):
            pairs.append(AlignedPair(op, prediction[i], reference[j]))
            i, j = i + 1, j + 1
        elif op == "insert":
            pairs.append(AlignedPair(op, prediction[i], None))
            i += 1
        else:
            pairs.append(AlignedPair(op, None, reference[j]))
            j += 1
    return pairs


def rescore(pairs: Iterable[AlignedPair], scoring: Scoring = DEFAULT_SCORING):
    """The score of an alignment, column by column (a check on a traceback)."""
    per_op = {"match": scoring.match, "substitute": scoring.mismatch, "insert": scoring.gap, "delete": scoring.gap}
    return sum(per_op[p.op] for p in pairs)
