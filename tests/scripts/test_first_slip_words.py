"""scripts/first_slip_words.py: which words first slips fall on, against their share of all target words."""

import json

from scripts.first_slip_words import group_first_slips, main, stream_word, word_features
from training.core.slip_diagnostics import is_symbolic


def test_symbolic_words_are_code_numbers_and_identifiers_not_prose():
    for word in ("django.utils.timezone", "errors='strict')", "8.5", "ModelAdmin", "deaths/1,000", "__init__", "()"):
        assert is_symbolic(word), word
    for word in ("hello,", "(word)", "Constitution.", '"quoted"', "I", "letter-writing?"):
        assert not is_symbolic(word), word


def problem(text_a: str, text_b: str) -> dict:
    a, b = text_a.split(), text_b.split()
    target = [w for pair in zip(a, b) for w in pair] + a[len(b) :] + b[len(a) :]
    return {"id": "p", "text_a": text_a, "text_b": text_b, "target": " ".join(target)}


def test_a_target_word_is_found_in_its_stream_and_its_place_judged():
    p = problem("the cat sat the cat ran", "x.y one two three")
    assert [stream_word(i, 6, 4) for i in (0, 1, 2, 7, 8, 9)] == [
        ("A", 0),
        ("B", 0),
        ("A", 1),
        ("B", 3),
        ("A", 4),
        ("A", 5),
    ]
    assert word_features(p)[1] == {"symbolic": True, "at_or_after_symbolic": True, "place_repeats": False}
    # A's words 2 ("sat") and 5 ("ran") follow "the cat", which occurs twice in A: the place to continue from is
    # ambiguous there; A's word 1 has one word before it
    assert word_features(p)[4]["place_repeats"] and word_features(p)[9]["place_repeats"]
    assert not word_features(p)[2]["place_repeats"]
    assert word_features(p)[3] == {"symbolic": False, "at_or_after_symbolic": True, "place_repeats": False}


def test_shares_at_first_slips_against_all_target_words():
    p = problem("a b c d", "e f.g h i")
    records = [{"id": "p", "first_slip": 3}, {"id": "p", "first_slip": None}, {"id": "p", "first_slip": 8}]
    row = group_first_slips(records, {"p": p})
    assert (row["answers"], row["first_slips"]) == (3, 1)  # one exact, one ran on past the target
    assert row["symbolic_at_first_slips"] == 1.0 and row["symbolic_of_target_words"] == 0.125


def test_an_eval_folder_gets_its_table(tmp_path, capsys):
    from dataset_builders import tasks

    drawn = list(tasks.get("stage-1").problems("test", 2))
    records = [
        {"label": "trained", "split": "test", "task": "stage-1", "index": i, "id": p["id"], "first_slip": s}
        for i, (p, s) in enumerate(zip(drawn, (4, None)))
    ]
    records.append({"label": "trained", "split": "test", "task": "arithmetic", "index": 0, "id": "x", "score": 1})
    (tmp_path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main([str(tmp_path)]) == 0
    (row,) = json.loads((tmp_path / "first_slips.json").read_text())["groups"]
    assert (row["task"], row["answers"], row["first_slips"]) == ("stage-1", 2, 1)
    expected = word_features(drawn[0])[4]
    assert row["symbolic_at_first_slips"] == float(expected["symbolic"])
    assert "| trained | test | stage-1 | 1 |" in capsys.readouterr().out


def test_records_that_carry_their_texts_need_no_redraw(tmp_path, capsys):
    """``make eval DATA=... --completions`` answers (split ``data``: nothing to draw again) carry their texts: the
    table and after_slip.py read the problems from them."""
    from scripts.analysis.after_slip import main as after_slip_main

    texts = [("a1 a2 a3 a4", "b1 b2 b3 b4"), ("c1 c2 c3", "d1 d2 d3")]
    completions = ["a1 b1 a2 b2 a4 b4 a3 b3", "c1 d1 c2 d2 c3 d3"]
    records = [
        {
            "label": "trained", "split": "data", "task": "stage-1", "index": i, "id": f"data-10w-{i:07d}",
            "first_slip": 4 if i == 0 else None, "first_difference": 4 if i == 0 else None, "exact": i == 1,
            "score": 0.75 if i == 0 else 1.0, "text_a": a, "text_b": b, "completion": completion,
        }
        for i, ((a, b), completion) in enumerate(zip(texts, completions, strict=True))
    ]  # fmt: skip
    (tmp_path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main([str(tmp_path)]) == 0
    (row,) = json.loads((tmp_path / "first_slips.json").read_text())["groups"]
    assert (row["split"], row["answers"], row["first_slips"]) == ("data", 2, 1)
    assert "| trained | data | stage-1 | 1 |" in capsys.readouterr().out
    assert after_slip_main([str(tmp_path)]) == 0
    assert "| data | 2 | 1 |" in capsys.readouterr().out
