"""The register mix on a small made-up corpus: exact shares per cycle, purity, no repeats, left-out cells."""

from collections import Counter
from pathlib import Path

import pytest

from dataset_builders.corpus import Corpus, Passage
from dataset_builders.interleave_curriculum import InterleaveProblems
from dataset_builders.interleave_curriculum.mix import REGISTER_WEIGHTS


def _corpus(works: dict[str, tuple[str, int]], split: str = "train") -> Corpus:
    """One passage per work of ``n`` three-word sentences (``Aword ends here.``), tagged with its register."""
    passages = []
    for work_id, (register, n) in works.items():
        text = " ".join(f"{work_id.capitalize()}{k} ends here." for k in range(n))
        passages.append(Passage(f"{work_id}/0000", work_id, "made-up", split, 3 * n, text, register))
    return Corpus(passages, {"sources": ["made-up"], "fingerprint": "made-up"}, Path("."))


WORKS = {
    "s1": ("speech", 40),
    "s2": ("speech", 30),
    "p1": ("play", 20),
    "p2": ("play", 25),
    "p3": ("play", 10),
    "f1": ("fact", 30),
}


def test_every_cycle_holds_each_register_pair_exactly_its_weight():
    problems = InterleaveProblems(_corpus(WORKS), "train", 3, register_weights={"speech": 2, "play": 1, "fact": 1})
    mix = problems.mix
    weights = {(c.register_a, c.register_b): c.weight for c in mix.cells}
    # fact has one work, so (fact, fact) has no cross-work pair and is left out; the rest keep w_a * w_b
    assert ("fact", "fact") not in weights and weights[("speech", "speech")] == 4 and weights[("speech", "play")] == 2
    assert mix.cycle == sum(weights.values()) == 15
    for cycle in range(3):
        rows = [problems[i] for i in range(cycle * mix.cycle, (cycle + 1) * mix.cycle)]
        assert Counter((r["register_a"], r["register_b"]) for r in rows) == weights
    shares = mix.shares()
    assert shares == pytest.approx({"speech": 8 / 15, "play": 4 / 15, "fact": 3 / 15}) and sum(shares.values()) == 1


def test_problems_are_a_pure_function_of_the_index_and_never_repeat_within_a_cell():
    corpus = _corpus(WORKS)
    first, again = InterleaveProblems(corpus, "train", 3, seed=5), InterleaveProblems(corpus, "train", 3, seed=5)
    assert [first[i] for i in (0, 17, 400, 3)] == [again[i] for i in (0, 17, 400, 3)]
    speech_play = next(k for k, c in enumerate(first.mix.cells) if (c.register_a, c.register_b) == ("speech", "play"))
    n_pairs = first.mix.cells[speech_play].pairs.n_pairs  # 70 speech slots x 55 play slots
    drawn = [first.pair_index(i) for i in range(first.mix.cycle * n_pairs // first.mix.cells[speech_play].weight)]
    in_cell = [pair for cell, pair in drawn if cell == speech_play]
    assert len(in_cell) == n_pairs and sorted(in_cell) == list(range(n_pairs))  # every pair once, then a new epoch
    for row in (first[i] for i in range(300)):
        assert row["source_a"].split("/")[0] != row["source_b"].split("/")[0]
        assert row["text_a"].split()[0][:2].lower() in {"s1", "s2", "p1", "p2", "p3", "f1"}


def test_a_zero_weight_leaves_a_register_out_and_default_weights_are_equal():
    problems = InterleaveProblems(_corpus(WORKS), "train", 3, register_weights={"fact": 0})
    assert {r["register_a"] for r in (problems[i] for i in range(200))} == {"speech", "play"}
    assert len(set(REGISTER_WEIGHTS.values())) == 1
    with pytest.raises(ValueError, match="integer >= 0"):
        InterleaveProblems(_corpus(WORKS), "train", 3, register_weights={"fact": -1})


def test_a_split_with_one_work_is_a_clear_error():
    with pytest.raises(ValueError, match="a pair needs two different works"):
        InterleaveProblems(_corpus({"s1": ("speech", 40)}), "train", 3)
    with pytest.raises(ValueError, match="unknown split"):
        InterleaveProblems(_corpus(WORKS), "heldout", 3)


def test_out_of_register_without_held_out_text_is_a_clear_error(tmp_path):
    from dataset_builders.interleave_curriculum import curriculum_dataset

    with pytest.raises(ValueError, match="the corpus has no out_of_register text"):
        curriculum_dataset("out_of_register", n_words=3, corpus=_corpus(WORKS), size=4)
    held_out = _corpus({k: v for k, v in WORKS.items() if v[0] == "play"}, split="out_of_register")
    rows = curriculum_dataset("out_of_register", n_words=3, corpus=held_out, size=6)
    assert rows.num_rows == 6 and set(rows["register_a"]) == {"play"}
