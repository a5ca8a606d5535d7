"""The weight average a run ships with --weight_average_decay (training.callbacks.weight_average)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import torch
from safetensors.torch import load_file

from tests.training.tiny_run import STAGE_1, TINY_GRPO, TINY_RUN
from training.callbacks.weight_average import EMA_FILE, WeightAverage, adapter_key


def toy_model():
    """Two trained tensors and one frozen one, as a peft model has."""
    model = torch.nn.Module()
    model.a = torch.nn.Parameter(torch.zeros(2))
    model.b = torch.nn.Parameter(torch.zeros(1, 3))
    model.frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    return model


def set_weights(model, value):
    with torch.no_grad():
        model.a.fill_(value)
        model.b.fill_(-value)


def test_the_average_follows_the_weights_with_its_decay():
    model = toy_model()
    average = WeightAverage(0.5)
    average.start(model)  # at the weights: 0
    for value in (4.0, 8.0):  # two optimizer steps
        set_weights(model, value)
        average.update(model)
    # 0.5 * (0.5 * 0 + 0.5 * 4) + 0.5 * 8 = 5
    assert average.shadow["a"].tolist() == [5.0, 5.0] and average.shadow["b"].tolist() == [[-5.0, -5.0, -5.0]]
    assert set(average.shadow) == {"a", "b"}  # frozen weights are not averaged
    assert average.updates == 2


def test_swapped_in_puts_the_average_in_and_the_trained_weights_back():
    model = toy_model()
    average = WeightAverage(0.9)
    average.start(model)
    set_weights(model, 10.0)
    with average.swapped_in(model):
        assert model.a.tolist() == [0.0, 0.0] and model.b.tolist() == [[0.0, 0.0, 0.0]]
    assert model.a.tolist() == [10.0, 10.0] and model.b.tolist() == [[-10.0, -10.0, -10.0]]
    with pytest.raises(RuntimeError, match="inside"), average.swapped_in(model):
        raise RuntimeError("inside")  # an error in the block still restores the trained weights
    assert model.a.tolist() == [10.0, 10.0]


def test_a_checkpoint_keeps_the_average_and_a_resumed_run_reads_it_back(tmp_path):
    model = toy_model()
    average = WeightAverage(0.5)
    average.start(model)
    set_weights(model, 2.0)
    average.update(model)
    folder = tmp_path / "checkpoint-1"
    folder.mkdir()
    average.on_save(
        SimpleNamespace(output_dir=str(tmp_path)), SimpleNamespace(global_step=1, is_world_process_zero=True), None
    )
    assert (folder / EMA_FILE).is_file()

    resumed = WeightAverage(0.5, resume_from=folder)
    resumed.on_train_begin(None, None, None, model=model)  # the model holds 2.0; the saved average is 1.0
    assert resumed.shadow["a"].tolist() == [1.0, 1.0]

    lines = []
    (tmp_path / "checkpoint-0").mkdir()
    fresh = WeightAverage(0.5, resume_from=tmp_path / "checkpoint-0", report=lines.append)
    fresh.start(model)
    assert fresh.shadow["a"].tolist() == [2.0, 2.0] and "starts again at its weights" in lines[0]

    other = torch.nn.Module()
    other.c = torch.nn.Parameter(torch.zeros(2))
    with pytest.raises(ValueError, match="does not hold this model's trained weights"):
        WeightAverage(0.5, resume_from=folder).start(other)


@pytest.mark.parametrize("decay", [0.0, 1.0, 1.5])
def test_a_decay_outside_0_1_is_refused(decay):
    with pytest.raises(ValueError, match="between 0 and 1"):
        WeightAverage(decay)


def test_the_cli_refuses_a_decay_of_1_before_the_model_loads(tmp_path, in_process, no_model_load):
    proc = in_process(
        "-m", "training.cli.train", *STAGE_1, *TINY_GRPO, "--weight_average_decay", "1",
        "--output_dir", str(tmp_path / "run"),
    )  # fmt: skip
    assert proc.returncode == 2 and "--weight_average_decay 1.0" in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "Loading weights" not in proc.stderr


def peft_names(tensors: dict) -> dict:
    """A saved average's tensors under the keys peft saves the adapter with (it drops the adapter's name)."""
    return {adapter_key(name): t for name, t in tensors.items()}


def test_a_run_ships_the_average_as_final_and_the_last_weights_as_final_raw(tiny_model_dir, tmp_path, in_process):
    proc = in_process(
        "-m", "training.cli.train", *TINY_RUN, "--max_steps", "4", "--save_steps", "2",
        "--weight_average_decay", "0.5", "--weight_average_start", "0",
        "--output_dir", str(tmp_path / "run"), "--results_dir", str(tmp_path / "res"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = tmp_path / "run"
    final = load_file(run / "final" / "adapter_model.safetensors")
    raw = load_file(run / "final-raw" / "adapter_model.safetensors")
    assert final.keys() == raw.keys()
    lora_b = [k for k in final if "lora_B" in k]
    assert any(raw[k].abs().sum() > 0 for k in lora_b)  # it trained
    assert any(not torch.equal(final[k], raw[k]) for k in lora_b)  # and final is not the last weights
    # the last raw weights are the step-4 checkpoint's; the shipped average is the one it saved beside them
    torch.testing.assert_close(raw, load_file(run / "checkpoint-4" / "adapter_model.safetensors"), rtol=0, atol=0)
    saved = peft_names(load_file(run / "checkpoint-4" / EMA_FILE))
    assert saved.keys() == final.keys()
    for key in final:
        torch.testing.assert_close(final[key], saved[key].to(final[key].dtype), rtol=0, atol=0, msg=key)
    assert (run / "checkpoint-2" / EMA_FILE).is_file()
    assert "final adapter: the average of the trained weights (decay 0.5)" in proc.stdout
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["final_raw_adapter"].endswith("final-raw") and summary["recipe"]["weight_average_decay"] == 0.5


def test_promotion_checks_score_the_average(monkeypatch, tmp_path):
    """The bar is checked on the adapter the run would ship, and training goes on with its own weights. The checks
    score validation problems from 512 on, past the 256 that make eval scores, the same ones at every check."""
    from dataset_builders import tasks
    from training.cli import train
    from training.core.arguments import RECIPES_DIR, parse_run_arguments
    from training.trainer import greedy_eval

    seen, problems = [], []

    def fake_eval(model, tokenizer, sets, *args, **kwargs):
        seen.append(model.a.tolist())
        problems.append([row["id"] for problem_set in sets for row in problem_set.rows])
        return [SimpleNamespace(score=0.5)]

    monkeypatch.setattr(greedy_eval, "evaluate_sets", fake_eval)
    run_args, _, _ = parse_run_arguments(["--config", str(RECIPES_DIR / "stage-1.yaml")])
    model = toy_model()
    average = WeightAverage(0.5)
    average.start(model)
    set_weights(model, 4.0)
    average.update(model)  # the average: 2
    promotion = train.stage_limits(run_args, tasks.get("stage-1"), tmp_path, average)[0]
    assert promotion.score(model, None, None, 3).score == 0.5
    assert seen == [[2.0, 2.0]] and model.a.tolist() == [4.0, 4.0]
    assert problems == [[f"10w-validation-seed0-{i:07d}" for i in (512, 513, 514)]] and promotion.first_problem == 512
    promotion.score(model, None, None, 3)
    assert problems[1] == problems[0]


def test_before_its_start_step_the_average_is_the_weights():
    model = toy_model()
    average = WeightAverage(0.5, start=2)
    average.start(model)
    for step, value in ((1, 4.0), (2, 8.0), (3, 12.0)):
        set_weights(model, value)
        average.update(model, step)
        if step == 2:
            assert average.shadow["a"].tolist() == [8.0, 8.0]  # steps 1-2: the weights themselves
    assert average.shadow["a"].tolist() == [10.0, 10.0]  # step 3: 0.5 * 8 + 0.5 * 12
    with pytest.raises(ValueError, match="first step"):
        WeightAverage(0.5, start=-1)


def test_a_start_step_without_an_average_is_refused():
    from dataset_builders import tasks
    from training.core.arguments import RECIPES_DIR, RecipeError, parse_run_arguments
    from training.core.run_flags import settle_grpo_flags

    run, grpo, _ = parse_run_arguments(
        ["--config", str(RECIPES_DIR / "stage-1.yaml"), "--weight_average_start", "5", "--weight_average_decay", "0"]
    )
    with pytest.raises(RecipeError, match="only with --weight_average_decay"):
        settle_grpo_flags(run, grpo, tasks.get(run.task))


def test_a_checkpoints_average_is_written_over_its_adapter_under_peft_keys(tmp_path):
    from safetensors.torch import save_file

    from training.callbacks.weight_average import average_into_adapter

    adapter = {"m.q_proj.lora_A.weight": torch.zeros(2, dtype=torch.bfloat16), "m.q_proj.lora_B.weight": torch.zeros(2)}
    save_file(adapter, str(tmp_path / "adapter_model.safetensors"))
    assert not average_into_adapter(tmp_path)  # no average saved: nothing changes
    save_file({"m.q_proj.lora_A.default.weight": torch.ones(2)}, str(tmp_path / EMA_FILE))
    assert not average_into_adapter(tmp_path)  # not every tensor of the adapter: nothing changes
    assert load_file(tmp_path / "adapter_model.safetensors")["m.q_proj.lora_A.weight"].tolist() == [0.0, 0.0]
    average = {"m.q_proj.lora_A.default.weight": torch.ones(2), "m.q_proj.lora_B.default.weight": torch.full((2,), 3.0)}
    save_file(average, str(tmp_path / EMA_FILE))
    assert average_into_adapter(tmp_path)
    written = load_file(tmp_path / "adapter_model.safetensors")
    assert written["m.q_proj.lora_A.weight"].dtype == torch.bfloat16  # the adapter's dtypes are kept
    assert written["m.q_proj.lora_A.weight"].tolist() == [1.0, 1.0] and written["m.q_proj.lora_B.weight"].tolist() == [
        3.0,
        3.0,
    ]


def test_after_a_collapse_final_is_the_average_saved_before_it(tmp_path):
    from safetensors.torch import save_file

    from training.cli.train import write_final_adapter

    for step in (20, 40, 60):
        folder = tmp_path / f"checkpoint-{step}"
        folder.mkdir()
        save_file({"m.lora_A.weight": torch.full((2,), float(step))}, str(folder / "adapter_model.safetensors"))
        save_file({"m.lora_A.default.weight": torch.full((2,), step / 2)}, str(folder / EMA_FILE))
        (folder / "checkpoint_complete.json").write_text(json.dumps({"step": step, "reward": 0.5}))
    guard = SimpleNamespace(stopped_at=64, collapsed_steps=20)  # the collapse began at step 45
    final = write_final_adapter(None, tmp_path, guard, average=WeightAverage(0.5))
    assert load_file(final / "adapter_model.safetensors")["m.lora_A.weight"].tolist() == [
        20.0,
        20.0,
    ]  # step 40's average
    assert load_file(tmp_path / "final-raw" / "adapter_model.safetensors")["m.lora_A.weight"].tolist() == [40.0, 40.0]
