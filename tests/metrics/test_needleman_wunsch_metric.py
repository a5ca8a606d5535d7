import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

METRIC_DIR = REPO_ROOT / "metrics" / "needleman_wunsch"

# One fresh process (evaluate's import is the slow part): load the metric from the repo root, then
# from a standalone copy, then build the copy's Space widget without serving it. The project's
# packages are made unimportable there: the metric must not need them.
LOAD_AND_COMPUTE = """
import importlib.abc, json, runpy, sys
class BlockProject(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("metrics", "training", "dataset_builders", "tests"):
            raise ImportError(f"{name}: the metric must not import the project")
sys.meta_path.insert(0, BlockProject())
import evaluate

def run(m):
    return {
        "same": m.compute(predictions=["a X b Y"], references=["a X b Y"]),
        "mixed": m.compute(predictions=["a b Y", "", "x"], references=["a X b Y", "a", ""]),
        "lists": m.compute(predictions=[["a", "b", "Y"]], references=[["a", "X", "b", "Y"]], return_alignment=True),
        "options": m.compute(predictions=["The CAT, sat"], references=["the cat sat"], lowercase=True,
                             strip_punctuation=True, backend="numpy"),
        "module": type(m).__module__,
    }

out = {"repo": run(evaluate.load("metrics/needleman_wunsch")), "copy": run(evaluate.load(sys.argv[1]))}
import gradio as gr
built = []
gr.Interface.launch = lambda self, *a, **k: built.append(self)
runpy.run_path(sys.argv[2], run_name="__main__")
out["app"] = built[0].fn("a1 a2 b1 b2", "a1 b1 a2 b2", False, False)["scores"]
print(json.dumps(out))
"""


def _check(out: dict) -> None:
    assert out["same"] == {"needleman_wunsch": 1.0, "scores": [1.0]}
    assert out["mixed"] == {"needleman_wunsch": 0.5 / 3, "scores": [0.5, 0.0, 0.0]}
    assert out["lists"] == {
        "needleman_wunsch": 0.5,
        "scores": [0.5],
        "alignments": [
            [
                {"op": "match", "prediction": "a", "reference": "a"},
                {"op": "delete", "prediction": None, "reference": "X"},
                {"op": "match", "prediction": "b", "reference": "b"},
                {"op": "match", "prediction": "Y", "reference": "Y"},
            ]
        ],
    }
    assert out["options"]["scores"] == [1.0]
    assert out["module"].startswith("evaluate_modules.metrics.needleman_wunsch.")  # evaluate's copy, not ours


def test_evaluate_load_offline_from_the_repo_root_and_from_a_standalone_copy(tmp_path):
    copy = tmp_path / "space" / "needleman_wunsch"
    shutil.copytree(METRIC_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / "needleman_wunsch.py", "a") as f:
        f.write("# the copy\n")  # another content hash: evaluate must import the copy, not reuse the first load
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_MODULES_CACHE": str(tmp_path / "modules")}
    result = subprocess.run(
        [sys.executable, "-c", LOAD_AND_COMPUTE, str(copy), str(copy / "app.py")],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    _check(out["repo"])
    _check(out["copy"])
    assert out["repo"]["module"] != out["copy"]["module"]
    assert out["app"] == [0.25]  # a1 [b1] a2 (b1) b2: 3 matches, 2 gaps, over 4 words


def test_metric_card_has_the_evaluate_yaml_header():
    text = (METRIC_DIR / "README.md").read_text()
    header = text.split("---")[1]
    for key in ("title:", "tags:", "description:", "sdk: gradio", "app_file: app.py"):
        assert key in header, key
    for section in (
        "## Metric Description",
        "### Inputs",
        "### Output Values",
        "### Examples",
        "## Limitations and Bias",
    ):
        assert section in text, section
    assert "launch_gradio_widget" in (METRIC_DIR / "app.py").read_text()
    assert "evaluate" in (METRIC_DIR / "requirements.txt").read_text()


@pytest.fixture(scope="module")
def metric(tmp_path_factory):
    from metrics.needleman_wunsch.needleman_wunsch import NeedlemanWunsch

    return NeedlemanWunsch(cache_dir=str(tmp_path_factory.mktemp("metric-cache")))


@pytest.mark.parametrize(
    "inputs, error, message",
    [
        (dict(predictions=None, references=["a"]), ValueError, "predictions is None"),
        (dict(predictions=[], references=[]), ValueError, "predictions is empty: nothing to score"),
        (dict(), ValueError, "nothing to score: pass predictions= and references="),
        (dict(predictions="a b", references="a b"), TypeError, "predictions must be a list of texts, got str"),
        (
            dict(predictions=[["a", "b", None]], references=[["a", "b", "c"]]),
            TypeError,
            "predictions[0]: word 2 of a word list is None (NoneType), not a string",
        ),
        (dict(predictions=[["a", "b"]], references=[["a", 1]]), TypeError, "references[0]: word 1 of a word list is 1"),
        (
            dict(predictions=["a b", ["a", "b"]], references=["a b", "a b"]),
            TypeError,
            "predictions[0] is a string but predictions[1] is a list of words",
        ),
        (dict(predictions=["a"], references=[None]), TypeError, "references[0]: a text is a string or a list of words"),
        (dict(predictions=["a b"], references=["a b"], match=0), ValueError, "match must be > 0"),
        (dict(predictions=["a b"], references=["a c"], match=-1), ValueError, "match must be > 0"),
        (dict(predictions=["a b"], references=["a c"], gap=float("nan")), ValueError, "gap must be a finite number"),
    ],
)
def test_bad_inputs_get_one_clear_error(metric, inputs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        metric.compute(**inputs)


def test_word_lists_and_composed_accents_score_as_the_same_words(metric):
    assert metric.compute(predictions=[["a", "b", "c"]], references=[["a", "b", "c"]])["scores"] == [1.0]
    assert metric.compute(predictions=["caf\u00e9 au lait"], references=["cafe\u0301 au lait"])["scores"] == [1.0]
    metric.add(prediction="a b", reference="a b")
    metric.add_batch(predictions=["a"], references=["b"])
    assert metric.compute() == {"needleman_wunsch": 0.5, "scores": [1.0, 0.0]}
