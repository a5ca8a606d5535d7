"""Slip diagnostics: which stream slips first, slipped words from the NW alignment, repeated phrases, the tallies."""

import pytest

from training.core.slip_diagnostics import (
    POSITION_BINS,
    SlipDiagnostics,
    SlipTally,
    WordTokens,
    aligned_target_words,
    repeated_phrase,
    slip_fields,
    target_stream,
)

TARGET = "a1 b1 a2 b2 a3 b3 a4 b4"  # Text A: a1 .. a4, Text B: b1 .. b4
LENGTHS = (4, 4)


def test_the_target_words_parity_names_the_stream_while_both_texts_last():
    assert [target_stream(i, 4, 4) for i in range(8)] == list("ABABABAB")
    assert [target_stream(i, 3, 1) for i in range(4)] == ["A", "B", "A", "A"]  # B ran out: A goes on alone
    assert [target_stream(i, 1, 3) for i in range(4)] == ["A", "B", "B", "B"]
    assert target_stream(8, 4, 4) is None  # past the end


@pytest.mark.parametrize(
    "completion, first, stream, slipped",
    [
        (TARGET, None, None, 0),
        ("a1 b1 a2 XX a3 b3 a4 b4", 3, "B", 1),  # a wrong word of text B
        ("a1 b1 a2 b2 b3 a4 b4", 4, "A", 1),  # a3 left out: text A slipped
        ("a1 b1 a2 b2 a3 a3 b3 a4 b4", 4, "A", 0),  # a3 written twice: every target word matched, text A slipped
        ("a1 b1 a2 b2 a3 XX b3 a4 b4", 5, "B", 0),  # an extra word where b3 was due
        ("a1 b1 a2 b2 a3 b3 a4 b4 and more", 8, None, 0),  # a correct target, then it runs on
        ("Sure! a1 b1 a2 b2 a3 b3 a4 b4", 0, "A", 0),  # a preamble comes before the first word
    ],
)
def test_the_first_slip_comes_from_the_nw_alignment(completion, first, stream, slipped):
    fields, matched, tokens = slip_fields(completion, TARGET, LENGTHS, ended=True)
    assert (fields["first_slip"], fields["first_slip_stream"], fields["slipped_words"]) == (first, stream, slipped)
    assert len(matched) == len(tokens) == 8 and matched.count(False) == slipped
    assert fields["hit_token_limit"] is False


def test_aligned_words_of_an_empty_completion_all_slip():
    assert aligned_target_words("", TARGET) == ([False] * 8, 0)


def test_repeated_phrases_are_those_the_target_does_not_repeat():
    target = "the cat sat on the mat and the dog sat on the rug".split()
    loop = "the cat sat on the mat and the cat sat on the mat and the cat sat on the mat".split()
    assert repeated_phrase(loop, target) == ("the cat sat on", 3)
    assert repeated_phrase(target, target) is None  # the target's own words repeat nothing
    twice = "x y z w x y z w".split()
    assert repeated_phrase(twice, twice) is None  # the target repeats it too: not the model's loop
    assert repeated_phrase(twice, "q".split()) == ("x y z w", 2)
    fields, _, _ = slip_fields(" ".join(loop), " ".join(target), (7, 6), ended=False)
    assert fields["repeated_phrase"] == "the cat sat on" and fields["repeats"] == 3 and fields["hit_token_limit"]


def test_a_task_without_streams_only_counts_the_token_limit():
    fields, matched, tokens = slip_fields("12345", "12345", None, ended=False)
    assert fields == {"hit_token_limit": True} and matched == tokens == []
    tally = SlipTally(streams=False)
    tally.add(fields)
    assert tally.summary() == {"problems": 1, "token_limit": {"runs": 1, "rate": 1.0}}


def test_word_tokens_count_each_word_after_a_space_with_the_tokenizer():
    from base_models.models import load_tokenizer

    tokenizer = load_tokenizer("smollm2-135m-instruct")
    count = WordTokens(tokenizer)
    words = ["the", "Needleman-Wunsch", "the", "1,234,567"]
    assert count(words) == [len(tokenizer(" " + w, add_special_tokens=False)["input_ids"]) for w in words]
    assert count(["the"])[0] == 1 and count(["Needleman-Wunsch"])[0] > 2


def test_tallies_bin_slips_by_position_and_tokens_and_count_first_slips_by_stream():
    diagnostics = SlipDiagnostics()
    tally = diagnostics.tally("trained", "test", "stage-1", 10, streams=True)
    target = " ".join(f"a{i} b{i}" for i in range(10))  # 20 words: two per tenth
    wrong_last_b = " ".join(target.split()[:-1] + ["zz"])
    for completion in (target, wrong_last_b, ""):
        fields, matched, _ = slip_fields(completion, target, (10, 10), ended=completion != "")
        tally.add(fields, matched, [1] * 10 + [3] * 10)  # the first ten words cost one token, the others three
    summary = diagnostics.to_dict()["groups"][0]
    assert (summary["label"], summary["split"], summary["task"], summary["words"]) == ("trained", "test", "stage-1", 10)
    assert summary["problems"] == 3 and summary["token_limit"] == {"runs": 1, "rate": pytest.approx(1 / 3, abs=1e-6)}
    first = summary["first_slip"]
    assert first["problems"] == 2 and first["stream"] == {"A": 1, "B": 1, "after the end": 0}
    assert first["by_position"] == [1] + [0] * (POSITION_BINS - 2) + [1]
    by_position = summary["slip_rate_by_position"]
    assert [b["words"] for b in by_position] == [6] * 10  # 3 problems x 2 words per tenth
    assert [b["slipped"] for b in by_position] == [2] * 9 + [3]
    by_tokens = {b["tokens"]: b for b in summary["slip_rate_by_tokens"]}
    assert (by_tokens["1"]["words"], by_tokens["1"]["slipped"]) == (30, 10)
    assert (by_tokens["3"]["words"], by_tokens["3"]["slipped"]) == (30, 11) and by_tokens["2"]["rate"] is None


def test_an_answer_derails_when_a_quarter_of_its_target_slips_and_the_score_it_loses_is_counted():
    from training.core.slip_diagnostics import derailment

    # (score, slipped target words, target words): one exact, one slip of 1 in 8, one of 2 in 8 (derailed), one of 6
    outcomes = [(1.0, 0, 8), (0.9, 1, 8), (0.7, 2, 8), (0.2, 6, 8)]
    assert derailment(outcomes) == {"problems": 2, "rate": 0.5, "score_lost": 0.3, "score_lost_by_derailed": 0.275}
    assert derailment([]) == {"problems": 0, "rate": None, "score_lost": None, "score_lost_by_derailed": None}

    tally = SlipTally(streams=True)
    for completion, score in ((TARGET, 1.0), ("a1 b2 a3 b3 a4 b4", 0.6)):  # the second drops 2 of 8 words: derailed
        fields, matched, tokens = slip_fields(completion, TARGET, LENGTHS, ended=True)
        tally.add(fields, matched, tokens, score)
    assert tally.summary()["derailed"] == {"problems": 1, "rate": 0.5, "score_lost": 0.2, "score_lost_by_derailed": 0.2}
    assert "derailed" not in SlipTally(streams=True).summary()  # no scores given: not reported


def test_a_first_slip_on_a_code_like_word_is_counted_against_their_share_of_the_target():
    target = "one uno x.y() dos three tres four cuatro"  # A's second word is code-like: 1 of 8 target words
    tally = SlipTally(streams=True)
    for completion in (target, "one uno dos three tres four cuatro", "one uno x.y() dos three zz four cuatro"):
        fields, matched, tokens = slip_fields(completion, target, LENGTHS, ended=True)
        assert fields["target_symbolic_words"] == 1
        tally.add(fields, matched, tokens)
        if completion != target:
            assert fields["first_slip_word"] in ("x.y()", "tres")  # left out; replaced
    first = tally.summary()["first_slip"]
    assert (first["problems"], first["on_symbolic_words"], first["symbolic_share_of_target_words"]) == (2, 1, 0.125)
