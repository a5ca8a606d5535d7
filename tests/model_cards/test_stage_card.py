"""Stage checkpoint folders and cards: every number from summary.json / eval.json, a card the Hub's card classes
parse, "not evaluated yet" without an eval, the adapter pointing at a Hub base model."""

import json

import pytest
from huggingface_hub import ModelCard

from publishing.hub import HubError
from publishing.model_folders import StageRun, base_model_id, stage_checkpoint_folder
from tests.publishing.stage_run import make_stage_run, write_eval

REPOS = dict(
    repo_id="alice/interleave-grpo-tiny",
    base_model="alice/tiny-random-llama",
    datasets_repo="alice/interleave-curriculum",
    arithmetic_repo="alice/arithmetic",
    metric_repo="alice/needleman_wunsch",
)


@pytest.fixture(scope="module")
def stage_root(tiny_model_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("stage-run")
    make_stage_run(root, tiny_model_dir, stage=1)
    return root


def test_evaluated_card_carries_the_eval_files_numbers_and_the_runs_recipe(stage_root, tmp_path):
    run = StageRun.find(1, stage_root / "runs", stage_root / "results")
    eval_file = tmp_path / "eval" / "gpu" / "eval.json"
    evaluation = write_eval(eval_file, "/somewhere/runs/stage-1/final", "2026-11-22T10:00:00+00:00")
    folder = stage_checkpoint_folder(run, tmp_path / "staged", eval_root=tmp_path / "eval", license=None, **REPOS)

    card = ModelCard.load(folder / "README.md")
    data = card.data
    assert data.base_model == "alice/tiny-random-llama" and data.library_name == "peft"
    assert {"trl", "grpo", "interleaving"} <= set(data.tags)
    assert data.datasets == ["alice/interleave-curriculum"] and data.license == "apache-2.0"
    trained = {
        (r.task, key): getattr(r, key)
        for r in evaluation.rows_for("trained")
        for key in ("nw_score", "exact_match", "partial_credit")
        if getattr(r, key) is not None
    }
    card_values = {
        (
            e.dataset_config or "arithmetic",
            "nw_score" if e.metric_type == "needleman_wunsch" else e.metric_type,
        ): e.metric_value
        for e in data.eval_results
    }
    assert card_values == {k: round(v, 4) for k, v in trained.items()}
    assert all(e.dataset_split == "test" for e in data.eval_results)
    assert "model-index" in (folder / "README.md").read_text()

    summary = run.summary
    text = card.text
    assert f"| learning rate | {summary['grpo']['learning_rate']} |" in text
    assert f"| group size (generations per prompt) | {summary['grpo']['num_generations']} |" in text
    assert f"{summary['wall_seconds'] / 60:.1f} GPU minutes on one {summary['device']}" in text
    assert f"r {summary['lora']['lora_r']}, alpha {summary['lora']['lora_alpha']}" in text
    assert f"| stage-1 | 10 | 256 | {0.8312:.3f} | {0.6875:.3f} | {0.1234:.3f} | 0.000 |" in text
    assert "Not evaluated yet" not in text and "![Reward per step](plots/reward.png)" in text
    assert 'PeftModel.from_pretrained(base, "alice/interleave-grpo-tiny", revision="stage-1")' in text

    assert {p.name for p in (folder / "plots").iterdir()} == {p.name for p in run.results_dir.glob("*.png")}
    assert json.loads((folder / "results" / "eval.json").read_text()) == json.loads(eval_file.read_text())
    assert json.loads((folder / "results" / "summary.json").read_text()) == summary
    adapter_config = json.loads((folder / "adapter_config.json").read_text())
    assert adapter_config["base_model_name_or_path"] == "alice/tiny-random-llama"
    assert (folder / "tokenizer.json").is_file() and not (folder / "training_args.bin").exists()


def test_without_an_eval_the_card_says_not_evaluated_and_has_no_model_index(stage_root, tmp_path):
    run = StageRun.find(1, stage_root / "runs", stage_root / "results")
    folder = stage_checkpoint_folder(run, tmp_path / "staged", eval_root=tmp_path / "no-evals", **REPOS)
    text = (folder / "README.md").read_text()
    card = ModelCard.load(folder / "README.md")
    assert "Not evaluated yet" in text and "model-index" not in text and card.data.eval_results is None
    assert not (folder / "results" / "eval.json").exists()


def test_base_model_ids_come_from_the_run_or_the_user(stage_root, tmp_path):
    assert base_model_id({"model": "smollm2-135m-instruct"}) == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert base_model_id({"model": "/tmp/gpu/smollm2-135m-instruct"}) == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert base_model_id({"model": "meta-llama/Llama-3.2-3B-Instruct"}) == "meta-llama/Llama-3.2-3B-Instruct"
    assert base_model_id({"model": "/x/tiny-random-llama"}, "me/tiny") == "me/tiny"
    with pytest.raises(HubError, match="--base_model"):
        base_model_id({"model": str(stage_root)})
    with pytest.raises(HubError, match="make train-stage N=4"):
        StageRun.find(4, stage_root / "runs", stage_root / "results")


def test_the_card_shows_the_out_of_register_split_beside_the_test_split(stage_root, tmp_path):
    run = StageRun.find(1, stage_root / "runs", stage_root / "results")
    write_eval(
        tmp_path / "eval" / "gpu" / "eval.json",
        "/somewhere/runs/stage-1/final",
        "2026-11-22T10:00:00+00:00",
        out_of_register=(0.7021, 0.5),
    )
    folder = stage_checkpoint_folder(run, tmp_path / "staged", eval_root=tmp_path / "eval", license=None, **REPOS)
    card = ModelCard.load(folder / "README.md")
    entries = {(e.dataset_config, e.dataset_split, e.metric_type): e.metric_value for e in card.data.eval_results}
    assert entries[("stage-1", "test", "needleman_wunsch")] == 0.8312
    assert entries[("stage-1", "out_of_register", "needleman_wunsch")] == 0.7021
    assert entries[("stage-1", "out_of_register", "exact_match")] == 0.5
    assert {split for _, split, _ in entries} == {"test", "out_of_register"}
    text = card.text
    assert "out-of-register NW" in text and "`out_of_register` split" in text
    assert f"| stage-1 | 10 | 256 | {0.8312:.3f} | {0.6875:.3f} | 128 | 0.702 | 0.500 | 0.123 | 0.000 |" in text
    assert "| arithmetic | - | 512 | 0.050 (partial credit) | 0.010 | - | - | - | - | - |" in text


def test_a_later_stage_says_it_was_trained_through_the_stages_before_it():
    """Stage N continues stage N-1's adapter (make train-stage N), so its card and the demo say "stages 1-N"."""
    from model_cards.stage_card import curriculum_span

    assert curriculum_span(1) == "curriculum stage 1 only"
    assert curriculum_span(3) == "curriculum stages 1-3"


def test_a_stage_of_its_supervised_help_alone_says_so_and_shows_no_grpo_settings():
    """A stage recipe of ``max_steps: 0`` (stages 3-4 since batch 25) trains its supervised help alone: the card says
    so, names the help's recipe and time, and shows no GRPO settings or rewards it never had."""
    from pathlib import Path

    from model_cards.stage_card import render_stage_card
    from training.cli.train import help_only_summary

    record = {
        "recipe": "/x/training/recipes/sft-stage-4-help-7m.yaml",
        "adapter": "/r/stage-4/supervised-help/final",
        "from": "/r/stage-3/final",
        "steps": 1841,
        "wall_seconds": 426.0,
        "device": "NVIDIA H200",
    }
    summary = help_only_summary("stage-4", "stage-4", "tiny-random-llama", record, Path("/r/stage-4/final"), {})
    text = render_stage_card(summary, license="apache-2.0", **REPOS).text
    assert "by supervised fine-tuning alone: its recipe runs no GRPO step" in text and "with GRPO" not in text
    assert "| supervised help | `training/recipes/sft-stage-4-help-7m.yaml`, 1841 steps |" in text
    assert "| training time | 7.1 GPU minutes on one NVIDIA H200 (wall clock) |" in text
    assert "| started from | stage 3's final adapter (`stage-3/final`) |" in text
    assert "learning rate" not in text and "reward (first" not in text


def test_a_help_of_several_parts_names_each_part_and_its_minutes(stage_root):
    """A help of two parts (``supervised_help: a,b``): the card names each part's recipe, steps and minutes, alone
    (max_steps 0: still "supervised fine-tuning alone", the parts' total as the training time) or before GRPO."""
    from pathlib import Path

    from model_cards.stage_card import render_stage_card
    from training.cli.train import help_only_summary
    from training.core.format_start import combined_help_record

    parts = [
        {
            "recipe": f"/x/training/recipes/{name}.yaml",
            "adapter": f"/r/stage-6/{folder}/final",
            "from": start,
            "steps": steps,
            "wall_seconds": seconds,
            "device": "NVIDIA H100 80GB HBM3",
        }
        for name, folder, start, steps, seconds in (
            ("sft-stage-6-help-long-texts", "supervised-help", "/r/stage-5/final", 1500, 786.0),
            ("sft-stage-6-help-identifiers", "supervised-help-2", "/r/stage-6/supervised-help/final", 613, 430.0),
        )
    ]
    record = combined_help_record(parts)
    row = (
        "2 parts, each continuing the one before: `training/recipes/sft-stage-6-help-long-texts.yaml`, 1500 steps, "
        "13.1 minutes; then `training/recipes/sft-stage-6-help-identifiers.yaml`, 613 steps, 7.2 minutes |"
    )
    summary = help_only_summary("stage-6", "stage-6", "tiny-random-llama", record, Path("/r/stage-6/final"), {})
    text = render_stage_card(summary, license="apache-2.0", **REPOS).text
    assert "by supervised fine-tuning alone: its recipe runs no GRPO step" in text and "with GRPO" not in text
    assert f"| supervised help | {row}" in text
    assert "| training time | 20.3 GPU minutes on one NVIDIA H100 80GB HBM3 (wall clock) |" in text
    assert "| started from | stage 5's final adapter (`stage-5/final`) |" in text

    grpo = StageRun.find(1, stage_root / "runs", stage_root / "results").summary
    text = render_stage_card({**grpo, "task": "stage-6", "supervised_help": record}, license="apache-2.0", **REPOS).text
    assert f"| supervised help before GRPO | {row}" in text and "| learning rate |" in text
    assert "| started from | stage 5's final adapter (`stage-5/final`) |" in text  # not the help's, GRPO's start
    text = render_stage_card({**grpo, "supervised_help": parts[0]}, license="apache-2.0", **REPOS).text
    single = "`training/recipes/sft-stage-6-help-long-texts.yaml`, 1500 steps, 13.1 minutes |"
    assert f"| supervised help before GRPO | {single}" in text
    assert "supervised help" not in render_stage_card(grpo, license="apache-2.0", **REPOS).text


def test_a_help_whose_parts_ran_on_two_cards_names_both_in_turn():
    """Parts that ran on different GPUs (the shipped stage 6: an H100, then an H200): the training time names each,
    in order, not "one NVIDIA H100 80GB HBM3, NVIDIA H200"."""
    from pathlib import Path

    from model_cards.stage_card import render_stage_card
    from training.cli.train import help_only_summary
    from training.core.format_start import combined_help_record

    parts = [
        {"recipe": "/x/a.yaml", "adapter": "/r/a", "from": None, "steps": 10, "wall_seconds": 60.0, "device": card}
        for card in ("NVIDIA H100 80GB HBM3", "NVIDIA H200")
    ]
    summary = help_only_summary("s6", "stage-6", "tiny", combined_help_record(parts), Path("/r/final"), {})
    text = render_stage_card(summary, license="apache-2.0", **REPOS).text
    assert "| training time | 2.0 GPU minutes on one NVIDIA H100 80GB HBM3, then one NVIDIA H200 (wall clock) |" in text
