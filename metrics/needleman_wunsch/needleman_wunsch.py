"""Needleman-Wunsch metric: normalized global word alignment of predictions against references."""

import datasets
import evaluate

# evaluate copies only the sibling modules this script imports at top level: import both.
from .nw_alignment import Scoring, nw_alignment, nw_scores, split_words
from .nw_kernels import available_backends

_DESCRIPTION = """
Normalized Needleman-Wunsch word alignment. Both texts are split on whitespace and aligned
globally with linear gaps (match +1, mismatch -1, gap -1 by default). The score of a pair is
max(0, S) / len(reference), S the optimal alignment score: 1.0 exactly when the prediction equals
the reference, 0.0 for an empty prediction; an empty reference scores 1.0 against an empty
prediction and 0.0 otherwise. Texts are compared in Unicode NFC. Unlike WER it rewards
order-preserving overlap and punishes missing and extra words alike, which makes it a good score
for word-by-word interleaving of two texts.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted texts (str), or of lists of words.
    references: list of reference texts (str), or of lists of words.
    lowercase: bool, default False. Lowercase every word before aligning.
    strip_punctuation: bool, default False. Delete Unicode punctuation (categories P*) from every
        word; words that become empty are dropped.
    match: score of an aligned pair of equal words, default 1, > 0 (scores are normalized by
        match * len(reference)).
    mismatch: score of an aligned pair of different words, default -1, at most match.
    gap: score of a word aligned to nothing, default -1, at most 0 (finite numbers all three, so
        that every score lies in [0, 1]).
    return_alignment: bool, default False. Also return, per example, the aligned pairs.
    backend: "auto" (default: the fastest installed of numba, rapidfuzz, numpy, python) or one
        of those names. Every backend gives the same result.
Returns:
    needleman_wunsch: mean score over the examples, in [0, 1].
    scores: the score of each example.
    alignments (with return_alignment=True): per example, a list of
        {"op", "prediction", "reference"} dicts; op is "match", "substitute", "insert" (a
        prediction word the reference lacks; reference None) or "delete" (a reference word the
        prediction misses; prediction None).
Examples:
    >>> nw = evaluate.load("needleman_wunsch")
    >>> nw.compute(predictions=["a X b Y"], references=["a X b Y"])
    {'needleman_wunsch': 1.0, 'scores': [1.0]}
    >>> nw.compute(predictions=["a b Y"], references=["a X b Y"])
    {'needleman_wunsch': 0.5, 'scores': [0.5]}
"""

_CITATION = """
@article{needleman1970general,
  title={A general method applicable to the search for similarities in the amino acid sequence of two proteins},
  author={Needleman, Saul B. and Wunsch, Christian D.},
  journal={Journal of Molecular Biology},
  volume={48},
  number={3},
  pages={443--453},
  year={1970}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NeedlemanWunsch(evaluate.Metric):
    """Normalized Needleman-Wunsch word alignment score."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {
                        "predictions": datasets.Value("string", id="sequence"),
                        "references": datasets.Value("string", id="sequence"),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(datasets.Value("string", id="token"), id="sequence"),
                        "references": datasets.Sequence(datasets.Value("string", id="token"), id="sequence"),
                    }
                ),
            ],
            reference_urls=["https://en.wikipedia.org/wiki/Needleman%E2%80%93Wunsch_algorithm"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score the predictions against the references (lists of texts); a clear error for bad inputs."""
        if predictions is None and references is None and self.writer is None:
            raise ValueError(
                "nothing to score: pass predictions= and references= (lists of texts of equal length), "
                "or add them first with add() / add_batch()"
            )
        return super().compute(predictions=predictions, references=references, **kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references, checked before evaluate casts them."""
        check_inputs(predictions, references)
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference, checked before evaluate casts them."""
        check_inputs([prediction], [reference])
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(
        self,
        predictions,
        references,
        lowercase=False,
        strip_punctuation=False,
        match=1,
        mismatch=-1,
        gap=-1,
        return_alignment=False,
        backend="auto",
    ):
        if backend != "auto" and backend not in available_backends("score") + available_backends("traceback"):
            raise ValueError(f"backend {backend!r} is not available; installed: {available_backends('score')}")
        options = dict(scoring=Scoring(match, mismatch, gap), lowercase=lowercase, strip_punctuation=strip_punctuation)
        scores = nw_scores(predictions, references, backend=backend, **options)
        result = {"needleman_wunsch": sum(scores) / len(scores) if scores else 0.0, "scores": scores}
        if return_alignment:
            alignment_backend = backend if backend in ("auto", *available_backends("traceback")) else "auto"
            result["alignments"] = [
                [pair._asdict() for pair in nw_alignment(p, r, backend=alignment_backend, **options).pairs]
                for p, r in zip(predictions, references)
            ]
        return result


def check_inputs(predictions, references) -> None:
    """A clear error, before evaluate casts them, unless both are non-empty lists of the same kind of text:
    all strings, or all lists of strings (evaluate would turn other values into strings silently)."""
    kinds = {}
    for name, texts in (("predictions", predictions), ("references", references)):
        if texts is None:
            raise ValueError(f"{name} is None: pass a list of texts (strings, or lists of words)")
        if isinstance(texts, (str, bytes)) or not hasattr(texts, "__len__"):
            raise TypeError(f"{name} must be a list of texts, got {type(texts).__name__} (wrap one text in a list)")
        if len(texts) == 0:
            raise ValueError(f"{name} is empty: nothing to score")
        for position, text in enumerate(texts):
            if not isinstance(text, str):
                try:
                    split_words(text)  # a TypeError naming the first word that is not a string
                except TypeError as error:
                    raise TypeError(f"{name}[{position}]: {error}") from None
            kinds.setdefault(isinstance(text, str), (name, position))
    if len(kinds) > 1:
        (first, at), (other, other_at) = kinds[True], kinds[False]
        raise TypeError(
            f"{first}[{at}] is a string but {other}[{other_at}] is a list of words: give every text as a "
            "string, or every text as a list of words"
        )
