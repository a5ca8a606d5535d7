"""The kinds of first slips, on the places batch 32's stage-1 adapter slipped on test (session 27)."""

import gzip
import json

import pytest

from scripts.analysis.first_slip_kinds import THOUSANDS, first_slips, main, near_doubled, slip_kind


@pytest.mark.parametrize(
    "target, completion, kind",
    [
        ("over strongly 300,000 as working-age", "over strongly 300,0 as working-age", "digits cut"),
        ("GDP OTHELLO: (official", "GDPOTHELLO: (official Well,", "glued"),
        ("Four action. months!--Have Ultimately,", "Four action. months!-- Have Ultimately,", "split"),
        ("is is earnestly a to", "is is a earnestly to", "order swapped"),
        ("the in Chinese 1014, economy", "the in 1014, economy", "word dropped"),
        ("teach Mowbray, you; now Whate'er", "teach Mowbray, you; you Whate'er", "word repeated"),
        ("total subscriptions: 0-14", "total subscriptions 0-14", "punctuation"),
        ("Broadcast ARCHBISHOP media:", "Broadcast ARBISHOP media:", "spelling"),
        ("a fine day", "a dog barked", "other"),
    ],
)
def test_each_kind_of_first_difference(target, completion, kind):
    target, completion = target.split(), completion.split()
    at = next(i for i, (t, c) in enumerate(zip(target, completion)) if t != c)
    assert slip_kind(target, completion, at) == kind


def test_a_digit_word_written_whole_is_not_cut_and_a_plain_prefix_is_not_digits():
    assert slip_kind(["in", "1,000", "x"], ["in", "1,0001", "x"], 1) != "digits cut"
    assert slip_kind(["in", "hundred", "x"], ["in", "hund", "x"], 1) == "spelling"
    assert slip_kind(["in", "2013.", "x"], ["in", "2013", "x"], 1) == "punctuation"  # no digit left out
    assert slip_kind(["the", "5th", "x"], ["the", "5", "x"], 1) != "digits cut"


def test_places_on_or_after_a_doubled_word():
    words = "of the the principle Balize".split()
    assert near_doubled(words, 2) and near_doubled(words, 3) and not near_doubled(words, 1)
    assert not near_doubled(words, 4)


def test_rows_skip_exact_answers_and_need_completions():
    problems = {"p1": {"target": "a b c d"}, "p2": {"target": "e f"}}
    records = [
        {"id": "p1", "exact": False, "score": 0.75, "completion": "a b d c"},
        {"id": "p2", "exact": True, "score": 1.0, "completion": "e f"},
    ]
    rows = first_slips(records, problems)
    assert [(r["id"], r["kind"], r["want"], r["wrote"]) for r in rows] == [("p1", "order swapped", "c", "d")]
    with pytest.raises(SystemExit, match="p1: no completion text; evaluate with --completions"):
        first_slips([{"id": "p1", "exact": False, "score": 0.5}], problems)


def test_the_table_of_a_real_evaluation_folder(tmp_path, capsys):
    """Problems drawn from the corpus by id, as make eval wrote them; one answer cut, one exact."""
    from dataset_builders import tasks

    problems = tasks.get("stage-1").problems("validation", 2)
    first, second = problems
    words = first["target"].split()
    cut = words[:3] + words[4:]  # the fourth word left out
    records = [
        {
            "task": "stage-1",
            "split": "validation",
            "index": 0,
            "id": first["id"],
            "first_slip": 3,
            "exact": False,
            "score": 0.9,
            "completion": " ".join(cut),
        },
        {
            "task": "stage-1",
            "split": "validation",
            "index": 1,
            "id": second["id"],
            "first_slip": None,
            "exact": True,
            "score": 1.0,
            "completion": second["target"],
        },
    ]
    # gzipped, as scripts/compress_results.py leaves a committed evaluation
    (tmp_path / "problems.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    out = tmp_path / "kinds.md"
    assert main([str(tmp_path), "--out", str(out)]) == 0
    row = next(line for line in out.read_text().splitlines() if line.startswith(f"| `{tmp_path}`"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert words[3] != words[4] != words[5]  # so the fourth word's place reads as dropped, nothing else
    kinds = ["digits cut", "glued", "split", "order swapped", "word dropped", "word repeated", "punctuation"]
    assert cells[1] == "1" and cells[2 + kinds.index("word dropped")] == "1"
    assert capsys.readouterr().out == out.read_text()

    # a slip probe of the same problems: per kind, samples and the reference token's probability at the slips
    probe = {
        "adapter": "a",
        "task": "stage-1",
        "split": "validation",
        "k": 8,
        "missed_problems": [{"index": 0, "exact_samples": 0, "p_reference_token": 0.0012}],
    }
    (tmp_path / "probe.json").write_text(json.dumps(probe))
    assert main([str(tmp_path), "--probe", str(tmp_path / "probe.json"), "--out", str(out)]) == 0
    assert "| word dropped | 1 | 0 | 0.001 |" in out.read_text()
    probe["missed_problems"][0]["index"] = 1  # the exact answer: not a miss of this folder
    (tmp_path / "probe.json").write_text(json.dumps(probe))
    with pytest.raises(SystemExit, match="probe problem 1 is not a miss of"):
        main([str(tmp_path), "--probe", str(tmp_path / "probe.json")])


def test_a_folder_without_answers_is_one_clear_error(tmp_path):
    with pytest.raises(SystemExit, match="no interleave answers in problems.jsonl"):
        main([str(tmp_path)])


def test_thousands_counts_first_slips_on_comma_numbers_without_completions(tmp_path):
    """Two validation answers: one whose first slip is put on a number with a thousands comma, one on the first word
    of a target without such numbers. The table counts the first slip on the number, and the numbers of both targets."""
    from dataset_builders import tasks

    problems = tasks.get("stage-1").problems("validation", 256)
    with_number = next(i for i, p in enumerate(problems) if THOUSANDS.search(p["target"]))
    words = problems[with_number]["target"].split()
    at = next(i for i, w in enumerate(words) if THOUSANDS.search(w))
    plain = next(i for i, p in enumerate(problems) if not THOUSANDS.search(p["target"]))
    records = [
        {
            "task": "stage-1",
            "split": "validation",
            "index": i,
            "id": problems[i]["id"],
            "first_slip": slip,
            "exact": False,
            "score": 0.9,
        }
        for i, slip in ((with_number, at), (plain, 0))
    ]
    (tmp_path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "t.md"
    assert main([str(tmp_path), "--thousands", "--out", str(out)]) == 0
    numbers = sum(bool(THOUSANDS.search(w)) for w in words)
    assert f"| `{tmp_path}` | stage-1 | validation | 0.900 | 2 | 1 | {numbers} |" in out.read_text()
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--thousands", "--probe", str(out)])
