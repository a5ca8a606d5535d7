import json
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.needleman_wunsch.nw_alignment import (
    Scoring,
    nw_alignment,
    nw_score,
    nw_scores,
    sequence_score,
    split_words,
)
from tests.conftest import run_cli
from tests.metrics.reference_dp import reference_score

texts = st.lists(st.sampled_from(["a", "b", "c", "A", "b.", "«b»", "—", "naïve", "日本"]), max_size=30).map(" ".join)


def test_definition_edge_cases():
    assert nw_score("a X b Y", "a X b Y") == 1.0
    assert nw_score("", "a X b Y") == 0.0
    assert nw_score("", "") == 1.0
    assert nw_score("a", "") == 0.0
    assert nw_score("a b Y", "a X b Y") == 0.5  # S = 3 matches - 1 gap = 2, over 4 words
    assert nw_score("Y b X a", "a X b Y") == 0.0  # S < 0 clips at 0
    assert nw_score("  a\tX\nb  Y ", "a X b Y") == 1.0  # any whitespace splits


@settings(max_examples=100, deadline=None)
@given(texts, texts)
def test_score_is_the_normalized_textbook_dp(pred, ref):
    p, r = pred.split(), ref.split()
    expected = 1.0 if not r and not p else (max(0, reference_score(p, r)) / len(r) if r else 0.0)
    assert nw_score(pred, ref) == pytest.approx(expected)
    assert 0.0 <= nw_score(pred, ref) <= 1.0
    assert (nw_score(pred, ref) == 1.0) == (p == r)


def test_lowercase_and_strip_punctuation():
    assert nw_score("The CAT, sat", "the cat sat") == 0.0  # S = 1 - 2 mismatches
    assert nw_score("The CAT, sat", "the cat sat", lowercase=True) == pytest.approx(1 / 3)
    assert nw_score("The CAT, sat", "the cat sat", lowercase=True, strip_punctuation=True) == 1.0
    # unicode punctuation goes, words that were only punctuation are dropped, symbols stay
    assert split_words("«Bonjour» — dit-il… $5 3+4", strip_punctuation=True) == ["Bonjour", "ditil", "$5", "3+4"]


def test_lists_of_words_and_scoring_parameters():
    assert nw_score(["a", "b", "Y"], ["a", "X", "b", "Y"]) == 0.5
    assert nw_scores(["a b", "b a"], ["a b", "a b"]) == [1.0, 0.0]
    assert nw_score("a b", "a b", scoring=Scoring(2, -1, -1)) == 1.0  # normalized by match * len(reference)
    assert sequence_score([("a", "b"), ("b", "c")], [("a", "b")], Scoring(1, 0, 0)) == 1  # any hashable items


def test_alignment_pairs_and_ops():
    alignment = nw_alignment("a b Y Z", "a X b Y")
    assert alignment.score == 1
    assert [tuple(p) for p in alignment.pairs] == [
        ("match", "a", "a"),
        ("delete", None, "X"),
        ("match", "b", "b"),
        ("match", "Y", "Y"),
        ("insert", "Z", None),
    ]
    assert [p.op for p in nw_alignment("a c", "a b").pairs] == ["match", "substitute"]


NO_ACCELERATORS = """
import importlib.abc, json, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numba", "rapidfuzz", "llvmlite"):
            raise ImportError(f"{name} blocked: a machine without it")
sys.meta_path.insert(0, Block())
from metrics.needleman_wunsch import nw_alignment, nw_kernels
pairs = [("a b c d e", "a c x d e"), ("x y", "y x y"), ("", "a"), ("a a a", "a")]
print(json.dumps({
    "score": nw_kernels.available_backends("score"),
    "traceback": nw_kernels.available_backends("traceback"),
    "S": [nw_alignment.sequence_score(p.split(), r.split()) for p, r in pairs],
    "traceback_S": [nw_alignment.nw_alignment(p, r).score for p, r in pairs],
    "numba_imported": "numba" in sys.modules,
}))
"""


def test_works_exactly_without_numba_and_rapidfuzz():
    result = run_cli("-c", NO_ACCELERATORS, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    expected = [
        reference_score(p.split(), r.split())
        for p, r in [("a b c d e", "a c x d e"), ("x y", "y x y"), ("", "a"), ("a a a", "a")]
    ]
    assert out == {
        "score": ["numpy", "python"],
        "traceback": ["numpy", "python"],
        "S": expected,
        "traceback_S": expected,
        "numba_imported": False,
    }


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_core_imports_nothing_from_the_project():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "metrics" / "needleman_wunsch"
    for path in folder.glob("*.py"):
        text = path.read_text()
        for banned in ("from metrics", "import metrics", "from training", "from dataset_builders", "from tests"):
            assert banned not in text, f"{path.name} imports the project ({banned})"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["café", "naïve", "Ångström", "e\u0301", "ñ", "ﬁne", "a"]), max_size=12).map(" ".join))
def test_texts_compare_in_nfc(text):
    import unicodedata

    decomposed = unicodedata.normalize("NFD", text)
    assert nw_score(decomposed, text) == 1.0 and nw_score([*decomposed.split()], text.split()) == 1.0
    assert split_words(decomposed) == unicodedata.normalize("NFC", text).split()
    assert nw_alignment(decomposed, text).score == len(text.split())


def test_nfc_keeps_compatibility_forms_apart():
    assert nw_score("caf\u00e9", "cafe\u0301") == 1.0  # canonical equivalents: one word
    assert nw_score("\ufb01ne", "fine") == 0.0  # a ligature is not folded (that would be NFKC)


@pytest.mark.parametrize(
    "scoring, message",
    [
        (dict(match=0), "match must be > 0"),
        (dict(match=-1), "match must be > 0"),
        (dict(mismatch=2), r"mismatch \(2\) must not exceed match"),
        (dict(gap=1), "gap must be <= 0"),
        (dict(gap=float("nan")), "gap must be a finite number, got nan"),
        (dict(match=float("inf")), "match must be a finite number"),
        (dict(mismatch="-1"), "mismatch must be a finite number"),
    ],
)
def test_scorings_whose_scores_would_leave_0_1_are_refused(scoring, message):
    with pytest.raises(ValueError, match=message):
        nw_scores(["a b"], ["a c"], scoring=Scoring(**scoring))


@settings(max_examples=60, deadline=None)
@given(texts, texts, st.integers(1, 4), st.integers(-4, 4), st.integers(-4, 0))
def test_every_accepted_scoring_scores_in_0_1(pred, ref, match, mismatch, gap):
    if mismatch > match:
        return
    assert 0.0 <= nw_score(pred, ref, scoring=Scoring(match, mismatch, gap)) <= 1.0


@pytest.mark.parametrize(
    "prediction, message",
    [
        (["a", 1], "word 1 of a word list is 1 (int), not a string"),
        (["a", None, "b"], "word 1 of a word list is None (NoneType)"),
        (None, "a text is a string or a list of words (strings), got NoneType"),
        (3.5, "got float"),
    ],
)
def test_texts_that_are_not_strings_or_word_lists_are_refused(prediction, message):
    with pytest.raises(TypeError, match=re.escape(message)):
        nw_score(prediction, "a b")
