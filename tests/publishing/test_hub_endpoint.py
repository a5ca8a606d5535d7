"""Acceptance: publish datasets, metric, a stage-1 adapter, its base model and the demo Space (spaces/interleave_demo/)
with the make targets (HUB=local), serve them with olah on a loopback port, and use them as a user does, by repo id
over HF_ENDPOINT; run the Space from a download of its repo. A fake token in the environment must appear in no output,
staged file, Space variable or git object."""

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
from dataset_builders.prompts import interleave_target
from metrics.needleman_wunsch.nw_alignment import nw_score
from publishing.local_hub import LocalHub
from publishing.olah_server import LocalHubServer
from publishing.space_folder import VENDOR_MANIFEST, read_vendor_manifest
from tests.conftest import REPO_ROOT, run_cli
from tests.publishing.stage_run import make_stage_run, write_eval
from tests.spaces.interleave_demo.launched_app import free_port, launch

OWNER = "alice"
FAKE_TOKEN = "hf_FakeTokenNeverToBeSeen0123456789abcd"
SIZES = ["--train-size", "16", "--validation-size", "8", "--test-size", "8"]
SPACE_FOLDER = REPO_ROOT / "spaces" / "interleave_demo"
ADAPTER_REPO = f"{OWNER}/interleave-grpo-tiny-random-llama"


def make(target: str, env: dict, **variables: str) -> subprocess.CompletedProcess:
    args = ["make", "--no-print-directory", target, *(f"{k}={v}" for k, v in variables.items())]
    return run_cli(*args, env=env)


@pytest.fixture(scope="module")
def published(tmp_path_factory, tiny_model_dir):
    root = tmp_path_factory.mktemp("hub")
    make_stage_run(root, tiny_model_dir, stage=1)
    write_eval(
        root / "results" / "eval" / "gpu-run" / "eval.json",
        "/gpu/pipeline/runs/stage-1/final",
        "2026-11-22T10:00:00+00:00",
    )
    env = {"HUB": "local", "HUB_DIR": str(root / "hub"), "HUB_USER": OWNER, "HF_TOKEN": FAKE_TOKEN}
    common = f"--staging {root / 'staging'} --quiet"
    runs = [
        make(
            "publish-datasets",
            env,
            PUBLISH_ARGS=f"{common} {' '.join(SIZES)} --curriculum-configs stage-1 --arithmetic-configs 3x2",
        ),
        make("publish-metric", env, PUBLISH_ARGS=common),
        make("publish-base-model", env, MODEL="tiny-random-llama", PUBLISH_ARGS=common),
        make(
            "publish-model",
            env,
            STAGE="1",
            BASE_MODEL=f"{OWNER}/tiny-random-llama",
            PUBLISH_ARGS=f"{common} --runs-dir {root / 'runs'} --results-dir {root / 'results'} "
            f"--eval-root {root / 'results' / 'eval'}",
        ),
        make(
            "publish-space",
            env,
            BASE_MODEL=f"{OWNER}/tiny-random-llama",
            PUBLISH_ARGS=f"{common} --adapter-repo {ADAPTER_REPO}",
        ),
    ]
    for proc in runs:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return root, runs


@pytest.fixture(scope="module")
def user_view(published, tmp_path_factory):
    """What a user saw through the endpoint (hub_user.py); "hf_home" is the Hub cache it filled."""
    root, _ = published
    out = tmp_path_factory.mktemp("user") / "seen.json"
    with LocalHubServer(root / "hub") as server:
        proc = run_cli(
            sys.executable,
            "tests/publishing/hub_user.py",
            server.endpoint,
            OWNER,
            str(out),
            env={"HF_HOME": str(out.parent / "hf-home")},
        )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return {**json.loads(out.read_text()), "hf_home": str(out.parent / "hf-home")}


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


def test_base_model_and_stage_adapter_load_by_repo_id_and_generate_as_the_local_adapter(
    user_view, published, tiny_model_dir, corpus
):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    root, _ = published
    assert set(user_view["branches"]) == {"main", "stage-1"}
    assert user_view["adapter_base_model"] == f"{OWNER}/tiny-random-llama"
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(tiny_model_dir), root / "runs/stage-1/final")
    inputs = tokenizer.apply_chat_template(
        InterleaveProblems(corpus, "test", 10)[0]["prompt"],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    with torch.no_grad():
        local = model.generate(**inputs, max_new_tokens=8, do_sample=False)[0, inputs["input_ids"].shape[1] :].tolist()
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
    demo = SpaceCard(cards["interleave-demo"]).data
    assert (demo.sdk, demo.app_file) == ("gradio", "app.py")
    assert demo.models == [f"{OWNER}/tiny-random-llama", ADAPTER_REPO]
    assert demo.datasets == [f"{OWNER}/interleave-curriculum"]
    model = ModelCard(cards["model@stage-1"]).data
    assert model.base_model == f"{OWNER}/tiny-random-llama" and model.library_name == "peft"
    assert model.datasets == [f"{OWNER}/interleave-curriculum"]
    evaluation = json.loads((root / "results/eval/gpu-run/eval.json").read_text())
    stage_1 = next(r for r in evaluation["rows"] if r["task"] == "stage-1" and r["label"] == "trained")
    values = {(e.dataset_config, e.metric_type): e.metric_value for e in model.eval_results}
    assert values[("stage-1", "needleman_wunsch")] == stage_1["nw_score"]
    assert values[("stage-1", "exact_match")] == stage_1["exact_match"]
    assert ModelCard(cards["tiny-random-llama"]).data.license == "apache-2.0"


def test_the_space_repo_holds_the_app_and_the_vendored_modules(user_view):
    vendored = [dest for _, dest in read_vendor_manifest(SPACE_FOLDER / VENDOR_MANIFEST)]
    own = [p.name for p in SPACE_FOLDER.iterdir() if p.is_file() and p.suffix != ".pyc" and p.name != VENDOR_MANIFEST]
    assert user_view["space_files"] == sorted(own + vendored)
    assert {"app.py", "dataset_builders/prompts.py", "metrics/needleman_wunsch/nw_kernels.py"} <= set(vendored + own)


def test_the_published_space_runs_from_its_repo_with_its_variables(published, user_view):
    """The downloaded Space, started as the Hub starts it (its variables as environment, from its own folder),
    offline on the Hub cache the user filled through the endpoint: it finds the stage-1 branch and interleaves."""
    from gradio_client import Client

    root, _ = published
    variables = LocalHub(root / "hub").space_variables(f"{OWNER}/interleave-demo")
    assert variables == {
        "INTERLEAVE_DEMO_BASE_MODEL": f"{OWNER}/tiny-random-llama",
        "INTERLEAVE_DEMO_ADAPTERS": ADAPTER_REPO,
    }
    folder = user_view["space_dir"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INTERLEAVE_", "PYTHONPATH", "HF_"))}
    env.update(
        variables, HF_HOME=user_view["hf_home"], HF_HUB_OFFLINE="1", NEEDLEMAN_WUNSCH_BACKEND="numpy"
    )  # as on the Hub: the Space's requirements.txt has no numba
    app = launch([sys.executable, "app.py", "--port", str(free_port()), "--device", "cpu"], cwd=Path(folder), env=env)
    try:
        assert f"shared code from {folder}: {folder}/dataset_builders/prompts.py" in app.log
        assert (
            f"Base model **{OWNER}/tiny-random-llama** on cpu" in app.log
            and f"Stage adapters found in the `stage-N` branches of the Hub model repo `{ADAPTER_REPO}`: stage 1."
            in app.log
        ), app.log
        text_a, text_b = "one two three four", "uno dos tres cuatro"
        output, target, score, _, note = Client(app.url, verbose=False).predict(
            text_a, text_b, "stage-1", api_name="/interleave"
        )
    finally:
        app.stop()
    assert target == interleave_target(text_a, text_b) and output.strip()
    assert f"Generating greedily with stage 1 adapter ({ADAPTER_REPO}@stage-1)" in note
    assert f"NW score: {nw_score(output, target):.3f}" in score


def test_the_token_appears_in_no_output_staged_file_space_variable_or_git_object(published):
    root, runs = published
    for proc in runs:
        assert FAKE_TOKEN not in proc.stdout + proc.stderr
    assert list((root / "hub" / "space-variables").rglob("*.json"))
    for path in [*(root / "staging").rglob("*"), *(root / "hub" / "space-variables").rglob("*")]:
        if path.is_file():
            assert FAKE_TOKEN.encode() not in path.read_bytes(), path
    repos = [p.parent for p in (root / "hub").glob("*/*/*/HEAD")]
    assert len(repos) == 6
    for repo in repos:
        objects = subprocess.run(
            ["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo, capture_output=True, check=True
        ).stdout
        assert objects and FAKE_TOKEN.encode() not in objects, repo


def test_pushing_to_an_unreachable_hub_fails_in_one_line_without_the_token(tmp_path):
    env = {
        "HUB": "hf",
        "HUB_USER": OWNER,
        "HF_TOKEN": FAKE_TOKEN,
        "HF_ENDPOINT": "http://127.0.0.1:9",
        "HF_HUB_OFFLINE": "0",
        "HF_HUB_ETAG_TIMEOUT": "2",
        "HF_HUB_DOWNLOAD_TIMEOUT": "2",
    }
    proc = make("publish-metric", env, PUBLISH_ARGS=f"--staging {tmp_path}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: could not create space repo alice/needleman_wunsch")
    assert FAKE_TOKEN not in proc.stdout + proc.stderr
    missing = make("publish-metric", {"HUB": "hf", "HUB_USER": "", "HF_TOKEN": "", "HF_HOME": str(tmp_path / "hf")})
    assert missing.returncode == 2 and "needs HUB_USER" in missing.stderr and "HF_TOKEN" in missing.stderr
