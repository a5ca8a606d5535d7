"""scripts/derailment.py: derailed answers per group of an evaluation's problems.jsonl (or its gzipped copy), written
to derailment.json beside it; a folder without problem records is one clear error."""

import gzip
import json
import subprocess
import sys

from tests.conftest import REPO_ROOT


def record(task, score, slipped, words=100, split="test"):
    return {
        "label": "trained",
        "split": split,
        "task": task,
        "score": score,
        "slipped_words": slipped,
        "reference_words": words,
    }


def test_it_counts_derailed_answers_per_group_from_a_gzipped_problems_file(tmp_path):
    rows = [
        record("stage-4", 1.0, 0),
        record("stage-4", 0.4, 60),
        record("stage-4", 0.9, 3),
        record("stage-3", 0.5, 25, words=50),
        {
            "label": "trained",
            "split": "test",
            "task": "arithmetic",
            "score": 0.0,
            "slipped_words": None,
            "reference_words": 1,
        },
    ]
    (tmp_path / "problems.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    proc = subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "derailment.py"), str(tmp_path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    groups = json.loads((tmp_path / "derailment.json").read_text())["groups"]
    assert [(g["task"], g["answers"], g["problems"]) for g in groups] == [("stage-4", 3, 1), ("stage-3", 1, 1)]
    assert groups[0]["score_lost"] == 0.233333 and groups[0]["score_lost_by_derailed"] == 0.2
    assert f"| {tmp_path} | trained | test | stage-4 | 3 | 1 | 0.233 | 0.200 |" in proc.stdout

    empty = tmp_path / "empty"
    empty.mkdir()
    proc = subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "derailment.py"), str(empty)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "holds no problems.jsonl with slip fields" in proc.stderr
    assert "Traceback" not in proc.stderr
