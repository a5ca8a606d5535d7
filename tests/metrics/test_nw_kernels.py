import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.needleman_wunsch import nw_kernels
from metrics.needleman_wunsch.nw_alignment import pairs_from_ops, rescore, to_ids
from metrics.needleman_wunsch.nw_kernels import (
    SCORE_BACKENDS,
    TRACEBACK_BACKENDS,
    Scoring,
    alignment_score,
    alignment_scores,
    alignment_traceback,
    available_backends,
)
from tests.metrics.reference_dp import reference_score

# Repeated words, unicode (composed and decomposed), punctuation-only and case variants.
VOCABULARY = ["a", "b", "the", "The", "the,", "é", "e\u0301", "日本", "—", "'", "x.y", "🙂", "Zürich"]
words = st.lists(st.sampled_from(VOCABULARY), max_size=40)
INTEGRAL_SCORINGS = [
    Scoring(),
    Scoring(2, -1, -2),
    Scoring(1, 0, 0),
    Scoring(3, -2, -1),
    Scoring(1, -3, -1),
    Scoring(5, 1, -2),
]
scorings = st.sampled_from(INTEGRAL_SCORINGS)
PROPERTY = settings(max_examples=150, deadline=None)


def test_numba_and_rapidfuzz_are_installed_here():
    # The dev environment has both; the property tests below must exercise every backend.
    assert available_backends("score") == list(SCORE_BACKENDS)
    assert available_backends("traceback") == list(TRACEBACK_BACKENDS)


def _score_backends_for(a, b, scoring):
    return [name for name in SCORE_BACKENDS if nw_kernels._applies(name, a, b, scoring)]


@PROPERTY
@given(words, words, scorings)
def test_every_score_backend_equals_the_textbook_dp(pred, ref, scoring):
    a, b = to_ids(pred, ref)
    expected = reference_score(pred, ref, *scoring.as_ints())
    backends = _score_backends_for(a, b, scoring)
    assert {"numba", "numpy", "python"} <= set(backends)
    for name in backends:
        assert alignment_score(a, b, scoring, backend=name) == expected, name


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(words, words), max_size=6), scorings, st.sampled_from([1, 2, -1]))
def test_batches_equal_the_textbook_dp_pair_by_pair(pairs, scoring, workers):
    id_pairs = [to_ids(p, r) for p, r in pairs]
    expected = [reference_score(p, r, *scoring.as_ints()) for p, r in pairs]
    for name in SCORE_BACKENDS:  # rapidfuzz with workers != 1 takes its threaded C++ batch (cpdist)
        assert alignment_scores(id_pairs, scoring, backend=name, workers=workers) == expected, name


@PROPERTY
@given(
    st.lists(st.sampled_from(VOCABULARY), max_size=3),
    st.lists(st.sampled_from(VOCABULARY), max_size=120),
    st.booleans(),
)
def test_very_unequal_lengths(short, long, flip):
    pred, ref = (long, short) if flip else (short, long)
    a, b = to_ids(pred, ref)
    expected = reference_score(pred, ref)
    for name in SCORE_BACKENDS:
        assert alignment_score(a, b, backend=name) == expected, name


@PROPERTY
@given(words, words, scorings)
def test_traceback_rescores_to_s_and_rebuilds_both_sequences(pred, ref, scoring):
    a, b = to_ids(pred, ref)
    expected = reference_score(pred, ref, *scoring.as_ints())
    op_sequences = []
    for name in TRACEBACK_BACKENDS:
        score, ops = alignment_traceback(a, b, scoring, backend=name)
        pairs = pairs_from_ops(ops, pred, ref)
        assert score == expected == rescore(pairs, scoring), name
        assert [p.prediction for p in pairs if p.prediction is not None] == pred
        assert [p.reference for p in pairs if p.reference is not None] == ref
        for p in pairs:
            if p.op == "match":
                assert p.prediction == p.reference
            elif p.op == "substitute":
                assert p.prediction != p.reference
        op_sequences.append(ops.tolist())
    assert all(ops == op_sequences[0] for ops in op_sequences), "backends break ties differently"


@settings(max_examples=40, deadline=None)
@given(words, words)
def test_fractional_scoring_on_numpy_and_python(pred, ref):
    scoring = Scoring(1.5, -0.25, -0.75)
    a, b = to_ids(pred, ref)
    expected = reference_score(pred, ref, 1.5, -0.25, -0.75)
    assert _score_backends_for(a, b, scoring) == ["numpy", "python"]
    for name in ("numpy", "python"):
        assert math.isclose(alignment_score(a, b, scoring, backend=name), expected, abs_tol=1e-9)
    score, ops = alignment_traceback(a, b, scoring)
    assert math.isclose(score, expected, abs_tol=1e-9)
    assert math.isclose(rescore(pairs_from_ops(ops, pred, ref), scoring), expected, abs_tol=1e-9)


def test_rapidfuzz_weights_map_nw_onto_weighted_levenshtein():
    assert nw_kernels.rapidfuzz_weights(Scoring()) == (3, 3, 4)
    assert nw_kernels.rapidfuzz_weights(Scoring(1, 0, 0)) == (1, 1, 2)  # LCS: rapidfuzz's bit-parallel Indel
    assert nw_kernels.rapidfuzz_weights(Scoring(1, 2, -1)) is None  # a mismatch worth more than a match
    assert nw_kernels.rapidfuzz_weights(Scoring(1, -1, -0.5)) is None


def test_large_random_pair_agrees_across_backends():
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 50, 700).tolist(), rng.integers(0, 50, 650).tolist()
    scores = {name: alignment_score(a, b, backend=name) for name in SCORE_BACKENDS}
    assert len(set(scores.values())) == 1, scores
    assert alignment_traceback(a, b)[0] == scores["python"]


def test_auto_picks_numba_then_falls_back(monkeypatch):
    calls = []
    for name in SCORE_BACKENDS:
        kernel = nw_kernels.SCORE_KERNELS[name]
        monkeypatch.setitem(
            nw_kernels.SCORE_KERNELS, name, lambda a, b, s, _k=kernel, _n=name: calls.append(_n) or _k(a, b, s)
        )
    alignment_score([1, 2], [1, 3])
    monkeypatch.setattr(nw_kernels, "_broken", {"numba"})
    alignment_score([1, 2], [1, 3])
    alignment_score([1, 2], [1, 3], Scoring(1, -0.5, -1))  # fractional: neither numba nor rapidfuzz applies
    assert calls == ["numba", "rapidfuzz", "numpy"]


def test_backend_choice_by_environment_and_errors(monkeypatch):
    assert nw_kernels._candidates("score", "auto", [1], [1], Scoring(1, 0, 0))[0] == "rapidfuzz"  # bit-parallel LCS
    monkeypatch.setenv(nw_kernels.BACKEND_ENV, "python")
    assert nw_kernels._candidates("score", "auto", [1], [1], Scoring()) == ["python"]
    with pytest.raises(ValueError, match="unknown score backend"):
        alignment_score([1], [1], backend="cuda")
    with pytest.raises(ValueError, match="cannot score"):
        alignment_score([1], [1], Scoring(1, -0.5, -1), backend="rapidfuzz")
    with pytest.raises(ValueError, match="unknown traceback backend"):
        alignment_traceback([1], [1], backend="rapidfuzz")
