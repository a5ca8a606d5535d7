"""scripts/analysis/repeat_stress.py: the same held-out problems as drawn and with a repeated phrase, as two JSONL
files that `make eval DATA=...` reads into problems of the same ids."""

import json

import pytest

from dataset_builders.interleave_curriculum.user_texts import read_user_texts
from scripts.analysis.repeat_stress import main, stress_pairs
from tests.dataset_builders.test_repeated_fraction import occurrences


def test_the_pairs_are_the_held_out_problems_and_the_same_with_a_phrase_repeated(corpus):
    from dataset_builders import tasks

    plain, repeated, where = stress_pairs("validation", 25, 12)
    assert len(plain) == len(repeated) == len(where) == 12
    for index, (a, b, place) in enumerate(zip(plain, repeated, where, strict=True)):
        row = tasks.get("stage-2").problem("validation", index)
        assert (a["text_a"], a["text_b"], a["id"]) == (row["text_a"], row["text_b"], row["id"])
        assert b["id"] == a["id"] and place["id"] == a["id"]
        for column in ("text_a", "text_b"):
            assert len(b[column].split()) == len(a[column].split()) == 25
        source = a["text_a"] if place["source"] == "a" else a["text_b"]
        phrase = source.split()[place["start"] : place["start"] + place["length"]]
        assert occurrences(phrase, (b["text_a"], b["text_b"])) >= 2
        changed = sum(x != y for c in ("text_a", "text_b") for x, y in zip(a[c].split(), b[c].split(), strict=True))
        copies = len(place["copies"]["a"]) + len(place["copies"]["b"])
        assert 0 < changed <= copies * place["length"]  # only the copies' words differ
    assert stress_pairs("validation", 25, 12)[1] == repeated  # keyed: the same every time


def test_the_files_read_back_as_problems_of_the_same_ids(tmp_path, capsys):
    assert main(["--words", "10", "--n", "6", "--out", str(tmp_path)]) == 0
    assert "wrote 6 pairs of 10 words (validation)" in capsys.readouterr().out
    plain = read_user_texts(str(tmp_path / "plain.jsonl")).problems(10, 6)
    repeated = read_user_texts(str(tmp_path / "repeated.jsonl")).problems(10, 6)
    assert [p["id"] for p in plain] == [p["id"] for p in repeated] and len(plain) == 6
    assert [p["text_a"] for p in plain] != [p["text_a"] for p in repeated] or [p["text_b"] for p in plain] != [
        p["text_b"] for p in repeated
    ]
    where = json.loads((tmp_path / "stress.json").read_text())
    assert [w["id"] for w in where] == [f"10w-validation-seed0-{i:07d}" for i in range(6)]


def test_the_train_split_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        main(["--words", "10", "--split", "train", "--out", str(tmp_path)])
