"""make smoke's pieces (not the whole smoke, which takes minutes): its chain, its commands, its folder, its failures."""

import json
import sys

import pytest

from publishing.__main__ import parser as publishing_parser
from tests.training.cli.test_curriculum import _parse
from training.cli import smoke
from training.cli.smoke import MARKER, fresh_runs_folder, smoke_commands
from training.core.arguments import RecipeError


def test_the_smoke_is_a_small_warm_start_then_a_few_grpo_steps_from_it_then_eval_then_the_card(tmp_path):
    commands = smoke_commands(tmp_path, python="python")
    assert [part for part, _ in commands] == ["warm-start", "stage-1", "eval", "card"]
    (_, sft), (_, grpo), (_, evaluate), (_, card) = commands
    sft_args, sft_train, model = _parse(sft)
    assert model.model_name_or_path == "tiny-random-llama" and sft_train.max_steps <= 5
    run_args, grpo_args, model = _parse(grpo)
    assert model.model_name_or_path == "tiny-random-llama" and 2 <= grpo_args.max_steps <= 5
    assert run_args.init_adapter == str(tmp_path / "warm-start" / "final")  # GRPO from the warm start
    assert grpo_args.save_steps <= grpo_args.max_steps and run_args.promotion_every <= grpo_args.max_steps
    assert evaluate[2:5] == ["training.cli.evaluate", "--adapter", str(tmp_path / "stage-1" / "final")]
    assert evaluate[evaluate.index("--n") + 1] == "4" and evaluate[evaluate.index("--baseline") + 1] == "true"
    assert evaluate[-2:] == ["--out", str(tmp_path / "eval")]
    args = publishing_parser().parse_args(card[3:])
    assert (args.command, args.run, args.hub) == ("model", tmp_path / "stage-1", "local")
    assert args.eval_file == tmp_path / "eval" / "eval.json" and args.staging == tmp_path / "publish"
    assert args.hub_dir == tmp_path / "hub"  # everything the smoke writes stays in its folder


def test_a_smoke_replaces_its_own_folder_and_refuses_any_other(tmp_path):
    runs = tmp_path / "smoke"
    fresh_runs_folder(runs)
    (runs / "stage-1").mkdir()
    fresh_runs_folder(runs)  # an earlier smoke's folder: replaced
    assert sorted(p.name for p in runs.iterdir()) == [MARKER]
    other = tmp_path / "mine"
    (other / "stage-1").mkdir(parents=True)
    with pytest.raises(RecipeError, match="no smoke made it"):
        fresh_runs_folder(other)
    assert (other / "stage-1").is_dir()


def test_the_smoke_stops_at_a_failing_part_and_says_which(tmp_path, monkeypatch, capsys):
    parts = [
        ("first", [sys.executable, "-c", "pass"]),
        ("second", [sys.executable, "-c", "raise SystemExit(3)"]),
        ("third", [sys.executable, "-c", "open('ran', 'w')"]),
    ]
    monkeypatch.setattr(smoke, "smoke_commands", lambda runs_dir: parts)
    monkeypatch.chdir(tmp_path)
    assert smoke.main(["--runs_dir", str(tmp_path / "smoke")]) == 3
    err = capsys.readouterr().err
    assert "the smoke's second step exited with 3 (after first " in err and not (tmp_path / "ran").exists()
    (tmp_path / "mine").mkdir()
    assert smoke.main(["--runs_dir", str(tmp_path / "mine")]) == 2
    assert "no smoke made it" in capsys.readouterr().err


def test_a_passing_smoke_records_each_part_s_time_and_the_machine_s_load(tmp_path, monkeypatch, capsys):
    parts = [("warm-start", [sys.executable, "-c", "pass"]), ("card", [sys.executable, "-c", "pass"])]
    monkeypatch.setattr(smoke, "smoke_commands", lambda runs_dir: parts)
    assert smoke.main(["--runs_dir", str(tmp_path / "smoke")]) == 0
    record = json.loads((tmp_path / "smoke" / smoke.SMOKE_RECORD).read_text())
    assert list(record["parts"]) == ["warm-start", "card"]
    assert record["seconds"] >= sum(record["parts"].values()) - 0.1  # each rounded to 0.1 s
    assert record["cpu_count"] >= 1 and len(record["load_average_before"]) == 3 and record["omp_num_threads"]
    assert "[smoke] passed in " in capsys.readouterr().out
