"""scripts/analysis/after_slip.py: what an answer does after its first slip, each kind made from two texts as the
target interleaves them, and the table of a real evaluation folder."""

import gzip
import json
import random

import pytest

from scripts.analysis.after_slip import KINDS, after_slip_kind, after_slips, main

TEXT_A = [f"a{i}" for i in range(80)]
TEXT_B = [f"b{i}" for i in range(80)]
TARGET = [word for pair in zip(TEXT_A, TEXT_B) for word in pair]
HEAD = TARGET[:20]  # in step up to A10, where each completion below leaves the target


def interleave(a_from: int, b_from: int, n: int = 30) -> list[str]:
    return [word for k in range(n) for word in (TEXT_A[a_from + k], TEXT_B[b_from + k])]


WORDS = sorted(set(TEXT_A) | set(TEXT_B))
SHUFFLED = random.Random(0).sample(WORDS, 60)


@pytest.mark.parametrize(
    ("completion", "kind"),
    [
        (HEAD + TARGET[21:], "back in step"),  # A10 dropped, then on as before
        (HEAD + [w for k in range(10, 40) for w in (TEXT_B[k], TEXT_B[k])], "a word twice"),  # B in both slots
        (HEAD + TEXT_A[10:60], "one text alone"),  # A copied on, B left
        (HEAD + interleave(18, 10), "one text skipped ahead"),  # A jumped 8 words ahead, B held
        (HEAD + interleave(10, 2), "one text went back"),  # B went 8 words back, A held
        (HEAD + interleave(10, 9), "one text went back"),  # B a word behind to the end, A held (stage 2's derailments)
        (HEAD + interleave(12, 10), "one text skipped ahead"),  # A two words ahead, B held
        (HEAD + SHUFFLED, "lost its place"),  # the texts' words in no order
        (HEAD + [f"x{i}" for i in range(60)], "own words"),
        (HEAD + ["zz"], "back in step"),  # differs at its last word: nothing after the slip to read
    ],
)
def test_each_kind_after_the_first_slip(completion, kind):
    assert after_slip_kind(TARGET, completion, TEXT_A, TEXT_B, window=40) == kind


def test_rows_skip_exact_answers_and_need_completions():
    problems = {"p1": {"target": " ".join(TARGET), "text_a": " ".join(TEXT_A), "text_b": " ".join(TEXT_B)}}
    records = [
        {"id": "p1", "exact": False, "score": 0.4, "completion": " ".join(HEAD + interleave(18, 10))},
        {"id": "p1", "exact": True, "score": 1.0, "completion": " ".join(TARGET)},
    ]
    assert after_slips(records, problems, 40) == [{"id": "p1", "score": 0.4, "kind": "one text skipped ahead"}]
    with pytest.raises(SystemExit, match="p1: no completion text; evaluate with --completions"):
        after_slips([{"id": "p1", "exact": False, "score": 0.5}], problems, 40)


def test_the_table_of_a_real_evaluation_folder(tmp_path, capsys):
    """Problems drawn from the corpus by id, as make eval wrote them: one answer whose text B jumps ahead, one exact."""
    from dataset_builders import tasks

    first, second = tasks.get("stage-3").problems("validation", 2)
    a, b = first["text_a"].split(), first["text_b"].split()
    jumped = [w for k in range(len(a)) for w in (a[k], b[min(k + 10, len(b) - 1)])]
    completion = [w for k in range(5) for w in (a[k], b[k])] + jumped[10:]
    records = [
        {"task": "stage-3", "split": "validation", "index": 0, "id": first["id"], "first_slip": 11, "exact": False,
         "score": 0.5, "completion": " ".join(completion)},
        {"task": "stage-3", "split": "validation", "index": 1, "id": second["id"], "first_slip": None, "exact": True,
         "score": 1.0, "completion": second["target"]},
    ]  # fmt: skip
    (tmp_path / "problems.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    out = tmp_path / "after.md"
    assert main([str(tmp_path), "--out", str(out)]) == 0
    row = next(line for line in out.read_text().splitlines() if line.startswith(f"| `{tmp_path}`"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:5] == ["stage-3", "validation", "2", "1"]
    assert cells[5 + KINDS.index("one text skipped ahead")] == "1 (0.250)"  # 0.5 lost, over 2 answers
    assert capsys.readouterr().out == out.read_text()
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--window", "1"])
