"""eval.md: a table per split, test beside out_of_register with the difference, the user's data, the slips."""

from model_cards.eval_results import EvalResults, EvalRow
from training.core.eval_report import render_markdown


def _results(**kwargs) -> EvalResults:
    rows = [
        EvalRow("stage-1", 10, "test", 8, 0.9, 0.5, "baseline"),
        EvalRow("stage-1", 10, "test", 8, 0.95, 0.75, "trained"),
        EvalRow("stage-1", 10, "out_of_register", 8, 0.7, 0.25, "baseline"),
        EvalRow("stage-1", 10, "out_of_register", 8, 0.875, 0.5, "trained"),
        EvalRow("arithmetic", None, "test", 8, None, 0.125, "trained", partial_credit=0.5),
    ]
    return EvalResults(model="m", adapter="runs/stage-1/final", generated_at="t", device="cpu", rows=rows, **kwargs)


def test_each_split_has_its_table_and_the_registers_are_compared():
    text = render_markdown(_results(), notes=["CPU defaults: 16 problems per task and split"])
    test, held_out = text.index("## test split"), text.index("## out_of_register split")
    assert test < held_out < text.index("## In register vs out of register")
    assert "| stage-1 | 10 | 8 | 0.900 | 50.0% | 0.950 | 75.0% |" in text[test:held_out]
    assert "| arithmetic | - | 8 |  |  | 0.500 | 12.5% |" in text[test:held_out]
    assert "| stage-1 | 10 | 8 | 0.700 | 25.0% | 0.875 | 50.0% |" in text[held_out:]
    assert "| stage-1 | 10 | 0.900 | 0.700 | -0.200 | 0.950 | 0.875 | -0.075 |" in text
    assert "| arithmetic" not in text[text.index("## In register vs out of register") :]  # no held-out split
    assert "- CPU defaults: 16 problems per task and split" in text


def test_user_data_and_slips_are_described():
    data = {"source": "texts/", "kind": "folder", "texts": 3, "seed": 7}
    rows = [EvalRow("stage-1", 10, "data", 4, 0.5, 0.25, "trained")]
    results = EvalResults(model="m", adapter=None, generated_at="t", device="cpu", rows=rows, data=data)
    group = {
        "label": "trained",
        "split": "data",
        "task": "stage-1",
        "words": 10,
        "problems": 4,
        "token_limit": {"runs": 1, "rate": 0.25},
        "repeated_phrase": {"runs": 2, "rate": 0.5},
        "first_slip": {
            "problems": 3,
            "rate": 0.75,
            "stream": {"A": 2, "B": 1, "after the end": 0},
            "median_position": 0.4,
            "by_position": [0] * 10,
            "on_symbolic_words": 2,
            "symbolic_share_of_target_words": 0.05,
        },
    }
    text = render_markdown(results, {"repeat_ngram": 4, "groups": [group]})
    assert "Data: `texts/` (folder, 3 texts, paired across texts (seed 7))." in text
    assert "## the user's texts (DATA)" in text and "In register vs out of register" not in text
    assert "| trained | data | stage-1 | 4 | 3 | 2 / 1 | 0.40 | 2 (5.0%) | 1 | 2 |" in text
    del group["first_slip"]["symbolic_share_of_target_words"]  # a diagnostics.json from before session 22
    assert "| 0.40 | - | 1 | 2 |" in render_markdown(results, {"repeat_ngram": 4, "groups": [group]})
