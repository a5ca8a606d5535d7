"""The eval file schema: round trip, validation with messages that name the field, finding a run's eval."""

import json

import pytest

from model_cards.eval_results import EvalResults, EvalResultsError, EvalRow, find_run_eval
from tests.publishing.stage_run import write_eval


def test_round_trip_keeps_every_field(tmp_path):
    written = write_eval(tmp_path / "eval.json", "/gpu/runs/stage-1/final", "2026-11-22T10:00:00+00:00")
    data = json.loads((tmp_path / "eval.json").read_text())
    assert set(data) == {"model", "adapter", "generated_at", "device", "decoding", "rows"}
    assert data["decoding"] == "greedy" and data["rows"][0] == {
        "task": "stage-1",
        "words": 10,
        "split": "test",
        "n": 256,
        "nw_score": 0.8312,
        "exact_match": 0.6875,
        "label": "trained",
        "partial_credit": None,
    }
    loaded = EvalResults.load(tmp_path / "eval.json")
    assert loaded == written
    assert [r.task for r in loaded.rows_for("trained")] == ["stage-1", "arithmetic"]
    assert [r.nw_score for r in loaded.rows_for("baseline")] == [0.1234]


@pytest.mark.parametrize(
    "row, message",
    [
        ({"task": "stage-7"}, "no task 'stage-7': tasks are stage-1"),
        ({"label": "finetuned"}, "label 'finetuned'"),
        ({"nw_score": 1.5}, "nw_score must be a number in [0, 1]"),
        ({"exact_match": "0.5"}, "exact_match must be a number"),
        ({"n": 0}, "n must be a positive integer"),
        ({"split": "dev"}, "split 'dev'"),
        ({"words": -1}, "words must be"),
        ({"nw_score": None}, "nw_score is needed for stage-1"),
        ({"partial_credit": 2.0}, "partial_credit must be a number in [0, 1]"),
    ],
)
def test_bad_rows_are_named(row, message, tmp_path):
    good = {
        "task": "stage-1",
        "words": 10,
        "split": "test",
        "n": 8,
        "nw_score": 0.5,
        "exact_match": 0.5,
        "label": "trained",
    }
    path = tmp_path / "eval.json"
    path.write_text(
        json.dumps(
            {"model": "m", "adapter": None, "generated_at": "t", "device": "cpu", "rows": [good, {**good, **row}]}
        )
    )
    with pytest.raises(EvalResultsError) as failure:
        EvalResults.load(path)
    assert f"{path}, rows[1]" in str(failure.value) and message in str(failure.value)


def test_missing_fields_and_bad_json_are_explained(tmp_path):
    with pytest.raises(EvalResultsError, match="lacks device, rows"):
        EvalResults.from_json('{"model": "m", "adapter": null, "generated_at": "t"}')
    with pytest.raises(EvalResultsError, match="not JSON"):
        EvalResults.from_json("{")
    with pytest.raises(EvalResultsError, match="unexpected keyword"):
        EvalResults.from_json(
            json.dumps(
                {
                    "model": "m",
                    "adapter": None,
                    "generated_at": "t",
                    "device": "cpu",
                    "rows": [{"task": "stage-1", "score": 1}],
                }
            )
        )


def test_find_run_eval_takes_the_newest_eval_of_the_runs_final_adapter(tmp_path):
    root = tmp_path / "eval"
    write_eval(root / "old" / "eval.json", "/gpu/pipeline/runs/stage-1/final", "2026-11-20T10:00:00+00:00")
    write_eval(root / "new" / "eval.json", "runs/stage-1/final", "2026-11-21T10:00:00+00:00")
    write_eval(root / "other-stage" / "eval.json", "runs/stage-2/final", "2026-11-23T10:00:00+00:00", stage=2)
    write_eval(root / "baseline" / "eval.json", None, "2026-11-24T10:00:00+00:00")
    assert find_run_eval(root, "stage-1") == root / "new" / "eval.json"
    assert find_run_eval(root, "stage-2") == root / "other-stage" / "eval.json"
    assert find_run_eval(root, "stage-3") is None
    exact = tmp_path / "elsewhere" / "final"
    write_eval(root / "exact" / "eval.json", str(exact), "2026-11-25T10:00:00+00:00", stage=3)
    assert find_run_eval(root, "stage-3", final_adapter=str(exact)) == root / "exact" / "eval.json"
    assert EvalRow("arithmetic", None, "test", 1, 0.0, 0.0, "baseline").words is None


def test_out_of_register_and_data_rows_load_and_older_files_still_do(tmp_path):
    old = {
        "model": "m",
        "adapter": "runs/stage-1/final",
        "generated_at": "t",
        "device": "cpu",  # before both
        "rows": [
            {
                "task": "stage-1",
                "words": 10,
                "split": "test",
                "n": 8,
                "nw_score": 0.5,
                "exact_match": 0.5,
                "label": "trained",
            }
        ],
    }
    loaded = EvalResults.from_json(json.dumps(old))
    assert loaded.data is None and loaded.splits == ["test"] and "data" not in json.loads(loaded.to_json())
    held_out = {**old["rows"][0], "split": "out_of_register", "nw_score": 0.25}
    loaded = EvalResults.from_json(json.dumps({**old, "rows": [held_out, old["rows"][0]]}))
    assert loaded.splits == ["test", "out_of_register"]
    assert [r.nw_score for r in loaded.rows_for("trained", "out_of_register")] == [0.25]
    data = {"source": "texts/", "kind": "folder", "texts": 3, "seed": 0}
    mine = EvalResults.from_json(json.dumps({**old, "rows": [{**old["rows"][0], "split": "data"}], "data": data}))
    assert mine.data == data and mine.splits == ["data"]
    assert EvalResults.from_json(mine.to_json()) == mine
    with pytest.raises(EvalResultsError, match="data must be an object"):
        EvalResults.from_json(json.dumps({**old, "data": "texts/"}))
    root = tmp_path / "eval"  # an eval of the user's texts is never taken for the run's card
    mine.save(root / "mine" / "eval.json")
    assert find_run_eval(root, "stage-1") is None
