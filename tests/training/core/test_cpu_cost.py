"""What a CPU run will cost, said before it starts: the measured reference step and the report scaled from it."""

import json
from dataclasses import replace

import pytest

from tests.conftest import REPO_ROOT
from training.core.cpu_cost import CPU_REFERENCE, LONG_RUN_SECONDS, CpuStep, cpu_cost_report, estimated_step_seconds

SUMMARY = REPO_ROOT / "results" / "pipeline-cpu" / "stage-1-summary.json"
STAGE_1_BUDGET = 64  # tokens: the stage-1 completion budget of the register mix


def test_the_reference_step_is_the_recorded_cpu_run():
    summary = json.loads(SUMMARY.read_text())
    step = CPU_REFERENCE.step
    assert CPU_REFERENCE.seconds == pytest.approx(summary["step_time_mean"], abs=0.05)
    assert step.completions == summary["grpo"]["per_device_train_batch_size"]  # one process: its generation batch
    assert step.completion_tokens == summary["grpo"]["max_completion_length"]
    assert (REPO_ROOT / CPU_REFERENCE.source / "README.md").is_file() and "2 cores" in (
        REPO_ROOT / CPU_REFERENCE.source / "README.md"
    ).read_text()
    assert step.threads == 2


@pytest.mark.filterwarnings("ignore::FutureWarning")  # peft asks transformers a deprecated name
def test_the_reference_parameters_are_the_embedded_model_with_the_recorded_adapter():
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoConfig, AutoModelForCausalLM

    from base_models.models import embedded_model_dir

    lora = json.loads(SUMMARY.read_text())["lora"]
    with torch.device("meta"):  # shapes only: no weights are read
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(embedded_model_dir()))
    model = get_peft_model(
        model, LoraConfig(r=lora["lora_r"], lora_alpha=lora["lora_alpha"], target_modules=lora["lora_target_modules"])
    )
    assert CPU_REFERENCE.step.parameters == pytest.approx(sum(p.numel() for p in model.parameters()), rel=1e-3)


def test_the_reference_prompt_length_is_a_stage_1_prompt_and_the_readme_has_today_s_budget(tiny_model_dir):
    from transformers import AutoTokenizer

    from dataset_builders import tasks

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)  # the SmolLM2 tokenizer
    task = tasks.get("stage-1")
    lengths = [
        len(
            tokenizer.apply_chat_template(
                task.problem("train", i)["prompt"], add_generation_prompt=True, tokenize=True, return_dict=False
            )
        )
        for i in range(16)
    ]
    assert sum(lengths) / len(lengths) == pytest.approx(CPU_REFERENCE.step.prompt_tokens, rel=0.1)
    assert task.completion_budget(tokenizer) == STAGE_1_BUDGET  # the README's estimate is for this budget


def test_the_default_stage_1_run_on_two_cores_is_said_to_take_about_a_day_with_what_to_do_instead():
    step = replace(CPU_REFERENCE.step, completion_tokens=STAGE_1_BUDGET)
    lines = cpu_cost_report(200, step)
    assert lines[0].startswith(
        "no GPU: this run trains on the CPU (2 threads): 200 steps x 64 completions of up to "
        f"{STAGE_1_BUDGET} tokens, on a model of 144M parameters. Estimated time: 7.4 min a "
        "step, 24.6 h in all"
    )
    assert len(lines) == 2 and "`make smoke`" in lines[1] and "--max_steps 2" in lines[1]


def test_the_estimate_scales_with_the_work_of_a_step_and_a_short_run_needs_no_advice():
    small = CpuStep(completions=8, prompt_tokens=174, completion_tokens=48, parameters=144.28e6 / 10, threads=4)
    assert estimated_step_seconds(small) == pytest.approx(CPU_REFERENCE.seconds * (8 / 64) / 10 / 2)
    seconds = estimated_step_seconds(small)
    assert seconds * 10 < LONG_RUN_SECONDS and len(cpu_cost_report(10, small)) == 1
