"""Acceptance: publish datasets, metric, a stage-1 adapter, its base model and the Space with the make targets
(HUB=local), serve them with olah on a loopback port, and use them as a user does, by repo id over HF_ENDPOINT.
A fake token in the environment must appear in no output, staged file or git object."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from huggingface_hub import DatasetCard, ModelCard, SpaceCard

from dataset_builders.arithmetic import ArithmeticProblems
from dataset_builders.interleave_curriculum import InterleaveProblems
from metrics.needleman_wunsch.nw_alignment import nw_score
from publishing.olah_server import LocalHubServer
from tests.conftest import REPO_ROOT, run_cli
from tests.publishing.stage_run import make_stage_run, write_eval

OWNER = "alice"
FAKE_TOKEN = "hf_FakeTokenNeverToBeSeen0123456789abcd"
SIZES = ["--train-size", "16", "--validation-size", "8", "--test-size", "8"]
SPACE_FOLDER = REPO_ROOT / "spaces" / "interleave_demo"


def make(target: str, env: dict, **variables: str) -> subprocess.CompletedProcess:
    args = ["make", "--no-print-directory", target, *(f"{k}={v}" for k, v in variables.items())]
    return run_cli(*args, env=env)


def space_fixture(root: Path) -> Path:
    """A minimal Gradio Space that vendors the NW core (stands in until spaces/interleave_demo/ exists)."""
    folder = root / "interleave_demo"
    folder.mkdir()
    (folder / "README.md").write_text("---\ntitle: Interleave demo\nemoji: 🔀\nsdk: gradio\nsdk_version: 6.31.0\n"
                                      "app_file: app.py\nlicense: apache-2.0\n---\n\n# Interleave demo\n")
    (folder / "app.py").write_text("import gradio as gr\nfrom nw_alignment import nw_score\n\n"
                                   "gr.Interface(lambda p, r: nw_score(p, r), ['text', 'text'], 'number').launch()\n")
    (folder / "requirements.txt").write_text("gradio\nnumpy\n")
    (folder / "vendor.txt").write_text("metrics/needleman_wunsch/nw_alignment.py -> nw_alignment.py\n"
                                       "metrics/needleman_wunsch/nw_kernels.py -> nw_kernels.py\n")
    return folder


@pytest.fixture(scope="module")
def published(tmp_path_factory, tiny_model_dir):
    root = tmp_path_factory.mktemp("hub")
    make_stage_run(root, tiny_model_dir, stage=1)
    write_eval(root / "results" / "eval" / "gpu-run" / "eval.json", "/gpu/pipeline/runs/stage-1/final",
               "2026-11-22T10:00:00+00:00")
    space = SPACE_FOLDER if SPACE_FOLDER.is_dir() else space_fixture(root)
    env = {"HUB": "local", "HUB_DIR": str(root / "hub"), "HUB_USER": OWNER, "HF_TOKEN": FAKE_TOKEN}
    common = f"--staging {root / 'staging'} --quiet"
    runs = [
        make("publish-datasets", env, PUBLISH_ARGS=f"{common} {' '.join(SIZES)} --curriculum-configs stage-1 "
                                                    "--arithmetic-configs 3x2"),
        make("publish-metric", env, PUBLISH_ARGS=common),
        make("publish-base-model", env, MODEL="tiny-random-llama", PUBLISH_ARGS=common),
        make("publish-model", env, STAGE="1", BASE_MODEL=f"{OWNER}/tiny-random-llama",
             PUBLISH_ARGS=f"{common} --runs-dir {root / 'runs'} --results-dir {root / 'results'} "
                          f"--eval-root {root / 'results' / 'eval'}"),
        make("publish-space", env, PUBLISH_ARGS=f"{common} --space-folder {space}"),
    ]
    for proc in runs:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return root, runs


@pytest.fixture(scope="module")
def user_view(published, tmp_path_factory):
    root, _ = published
    out = tmp_path_factory.mktemp("user") / "seen.json"
    with LocalHubServer(root / "hub") as server:
        proc = run_cli(sys.executable, "tests/publishing/hub_user.py", server.endpoint, OWNER, str(out),
                       env={"HF_HOME": str(out.parent / "hf-home")})
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text())


def test_datasets_load_by_repo_id_with_the_builders_problems(user_view, corpus):
    assert user_view["configs"] == ["stage-1"]
    problems = InterleaveProblems(corpus, "test", 10)
    assert user_view["stage_1_test"] == [{"id": problems[i]["id"], "target": problems[i]["target"]} for i in range(8)]
    arithmetic = ArithmeticProblems()
    expected = [arithmetic.problem("test", i) for i in range(8)]
    assert user_view["arithmetic_test"] == [{k: p[k] for k in ("id", "a", "b", "answer")} for p in expected]


def test_the_metric_loads_from_its_space_and_scores_like_the_core(user_view):
    target = user_view["stage_1_test"][0]["target"]
    half = " ".join(target.split()[: len(target.split()) // 2])
    scores = [nw_score(target, target), nw_score(half, target)]
    assert user_view["metric"] == {"needleman_wunsch": sum(scores) / 2, "scores": scores}


def test_base_model_and_stage_adapter_load_by_repo_id_and_generate_as_the_local_adapter(user_view, published,
                                                                                         tiny_model_dir, corpus):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    root, _ = published
    assert set(user_view["branches"]) == {"main", "stage-1"}
    assert user_view["adapter_base_model"] == f"{OWNER}/tiny-random-llama"
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_model_dir), root / "runs/stage-1/final")
    inputs = tokenizer.apply_chat_template(InterleaveProblems(corpus, "test", 10)[0]["prompt"],
                                           add_generation_prompt=True, return_tensors="pt", return_dict=True)
    with torch.no_grad():
        local = model.generate(**inputs, max_new_tokens=8, do_sample=False)[0, inputs["input_ids"].shape[1]:].tolist()
    assert user_view["adapter_tokens"] == local
    assert user_view["adapter_tokens"] != user_view["base_tokens"]  # the adapter is really applied


def test_every_card_read_over_the_endpoint_is_the_published_one_and_valid(user_view, published):
    root, _ = published
    staging = root / "staging"
    cards = user_view["cards"]
    assert cards["interleave-curriculum"] == (staging / "datasets/interleave-curriculum/README.md").read_text()
    assert cards["model@stage-1"] == cards["model@main"]
    curriculum = DatasetCard(cards["interleave-curriculum"]).data
    assert [c["config_name"] for c in curriculum.configs] == ["stage-1"]
    assert DatasetCard(cards["arithmetic"]).data.configs[0]["config_name"] == "3x2"
    assert SpaceCard(cards["needleman_wunsch"]).data.sdk == "gradio"
    assert SpaceCard(cards["interleave-demo"]).data.sdk == "gradio"
    model = ModelCard(cards["model@stage-1"]).data
    assert model.base_model == f"{OWNER}/tiny-random-llama" and model.library_name == "peft"
    assert model.datasets == [f"{OWNER}/interleave-curriculum"]
    evaluation = json.loads((root / "results/eval/gpu-run/eval.json").read_text())
    stage_1 = next(r for r in evaluation["rows"] if r["task"] == "stage-1" and r["label"] == "trained")
    values = {(e.dataset_config, e.metric_type): e.metric_value for e in model.eval_results}
    assert values[("stage-1", "needleman_wunsch")] == stage_1["nw_score"]
    assert values[("stage-1", "exact_match")] == stage_1["exact_match"]
    assert ModelCard(cards["tiny-random-llama"]).data.license == "apache-2.0"


def test_the_token_appears_in_no_output_staged_file_or_git_object(published):
    root, runs = published
    for proc in runs:
        assert FAKE_TOKEN not in proc.stdout + proc.stderr
    for path in (root / "staging").rglob("*"):
        if path.is_file():
            assert FAKE_TOKEN.encode() not in path.read_bytes(), path
    repos = [p.parent for p in (root / "hub").glob("*/*/*/HEAD")]
    assert len(repos) == 6
    for repo in repos:
        objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo,
                                 capture_output=True, check=True).stdout
        assert objects and FAKE_TOKEN.encode() not in objects, repo


def test_pushing_to_an_unreachable_hub_fails_in_one_line_without_the_token(tmp_path):
    env = {"HUB": "hf", "HUB_USER": OWNER, "HF_TOKEN": FAKE_TOKEN, "HF_ENDPOINT": "http://127.0.0.1:9",
           "HF_HUB_OFFLINE": "0", "HF_HUB_ETAG_TIMEOUT": "2", "HF_HUB_DOWNLOAD_TIMEOUT": "2"}
    proc = make("publish-metric", env, PUBLISH_ARGS=f"--staging {tmp_path}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: could not create space repo alice/needleman_wunsch")
    assert FAKE_TOKEN not in proc.stdout + proc.stderr
    missing = make("publish-metric", {"HUB": "hf", "HUB_USER": "", "HF_TOKEN": "", "HF_HOME": str(tmp_path / "hf")})
    assert missing.returncode == 2 and "needs HUB_USER" in missing.stderr and "HF_TOKEN" in missing.stderr
