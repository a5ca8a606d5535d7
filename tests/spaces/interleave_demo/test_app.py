"""The demo as a client sees it: the copy publishing stages, launched on loopback (tiny model, two stage adapters),
over gradio_client."""

from __future__ import annotations

import os
import re
import sys
import threading
import time
import urllib.request

import pytest

from dataset_builders.prompts import interleave_prompt, interleave_target
from metrics.needleman_wunsch.nw_alignment import nw_score
from publishing.space_folder import stage_space_folder

from .conftest import SPACE_DIR
from .launched_app import free_port, launch

TEXT_A = "It is a truth universally acknowledged, that a single man in possession of a good fortune"
TEXT_B = "Fellow-Citizens of the Senate and House of Representatives: I embrace with great satisfaction the"
MAX_WORDS = 40
LONG_A, LONG_B = " ".join([TEXT_A] * 2), " ".join([TEXT_B] * 2)  # 32 and 30 words


@pytest.fixture(scope="module")
def standalone_app(tmp_path_factory, tiny_model_dir, tiny_stage_adapters):
    """The Space as `make publish-space` stages it, run from its own folder (not the checkout) with the tiny model."""
    folder = stage_space_folder(SPACE_DIR, tmp_path_factory.mktemp("space") / "interleave_demo")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INTERLEAVE_DEMO_", "PYTHONPATH"))}
    app = launch(
        [
            sys.executable,
            "app.py",
            "--port",
            str(free_port()),
            "--base-model",
            str(tiny_model_dir),
            "--adapters",
            tiny_stage_adapters,
            "--max-words",
            str(MAX_WORDS),
            "--device",
            "cpu",
        ],
        cwd=folder,
        env=env,
    )
    app.folder = folder
    yield app
    app.stop()


@pytest.fixture(scope="module")
def client(standalone_app):
    from gradio_client import Client

    return Client(standalone_app.url, verbose=False)


def test_standalone_copy_runs_on_its_own_shared_modules(standalone_app):
    folder = standalone_app.folder
    assert (
        f"shared code from {folder}: {folder}/dataset_builders/prompts.py, "
        f"{folder}/metrics/needleman_wunsch/nw_alignment.py"
    ) in standalone_app.log
    assert "Stage adapters found in local folders" in standalone_app.log
    with urllib.request.urlopen(standalone_app.url + "/", timeout=30) as page:
        assert page.status == 200 and "Interleave two texts" in page.read().decode()


def reference_generation(model_dir, adapter_dir, text_a, text_b, max_new_tokens) -> str:
    """The same greedy generation without the app, its streamer or its threads."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(model_dir), adapter_dir).eval()
    inputs = tokenizer.apply_chat_template(
        interleave_prompt(text_a, text_b),
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
        return_tensors="pt",
    )
    with torch.inference_mode():
        out = model.generate(
            **inputs,
            max_new_tokens=max_new_tokens,
            do_sample=False,
            temperature=None,
            top_p=None,
            top_k=None,
            pad_token_id=tokenizer.eos_token_id,
        )
    return tokenizer.decode(out[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)


def test_streaming_grows_and_ends_with_the_result(client, tiny_model_dir, tiny_stage_adapters):
    job = client.submit(TEXT_A, TEXT_B, "stage-1", api_name="/interleave")
    result = job.result(timeout=120)
    updates = job.outputs()
    texts = [update[0] for update in updates]
    assert len(set(texts)) >= 5, texts  # it streamed, not one final value
    for shorter, longer in zip(texts, texts[1:]):
        assert longer.startswith(shorter)
    assert texts[-1] == result[0] and len(result[0].split()) > 3

    output, target, score, alignment, note = result
    assert target == interleave_target(TEXT_A, TEXT_B)
    max_new_tokens = int(re.search(r"up to (\d+) tokens", note).group(1))
    assert output == reference_generation(
        tiny_model_dir, tiny_stage_adapters.format(n=1), TEXT_A, TEXT_B, max_new_tokens
    )
    assert f"NW score: {nw_score(output, target):.3f}" in score
    assert 'class="nw-view"' in alignment and f"{len(target.split())} target words:" in score
    assert all(update[1] == target for update in updates)


@pytest.mark.parametrize(
    ("text_a", "text_b", "choice", "message"),
    [
        ("", TEXT_B, "base", "Text A is empty: paste a text (or pick an example)."),
        (TEXT_A, " \n\t  ", "base", "Text B holds only whitespace: paste some words."),
        (
            "word " * 41,
            TEXT_B,
            "base",
            f"Text A has 41 words; this demo takes at most {MAX_WORDS} words per text. Shorten it by 1 word.",
        ),
        (TEXT_A, TEXT_B, "stage-9", "stage-9 is not available (any more): pick a model from the list."),
    ],
)
def test_bad_inputs_get_the_message_not_a_traceback(client, standalone_app, text_a, text_b, choice, message):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError) as error:
        client.predict(text_a, text_b, choice, api_name="/interleave")
    assert str(error.value) == message
    assert "Traceback" not in standalone_app.log


def test_invalid_unicode_and_non_text_get_the_message_not_a_traceback(client, standalone_app):
    """A lone surrogate (valid JSON, not a character) over the raw API, and values that are not text."""
    import json

    from gradio_client.exceptions import AppError

    request = urllib.request.Request(
        standalone_app.url + "/gradio_api/call/interleave",
        headers={"Content-Type": "application/json"},
        data=json.dumps({"data": ["one \ud800 two", TEXT_B, "base"]}).encode(),
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        event = json.loads(response.read())["event_id"]
    with urllib.request.urlopen(f"{standalone_app.url}/gradio_api/call/interleave/{event}", timeout=60) as response:
        stream = response.read().decode()
    assert (
        "event: error" in stream
        and ("Text A holds an invalid character at position 4 (a lone UTF-16 surrogate, U+D800)") in stream
    )
    for value, kind in ((123, "int"), (["a", "b"], "list")):
        with pytest.raises(AppError) as error:
            client.predict(TEXT_A, value, "base", api_name="/interleave")
        assert str(error.value) == f"Text B must be a string of text, not {kind}."
    assert "Traceback" not in standalone_app.log


def test_adapters_switch_on_one_base_model(client):
    outputs = [
        client.predict(TEXT_A, TEXT_B, choice, api_name="/interleave")[0]
        for choice in ("base", "stage-1", "stage-2", "base", "stage-1")
    ]
    assert outputs[0] == outputs[3] and outputs[1] == outputs[4]  # switching back gives the same model
    assert len({outputs[0], outputs[1], outputs[2]}) == 3  # each adapter changes the output


def test_unequal_lengths_are_explained(client):
    *_, note = client.predict("one two three four five", "uno dos", "base", api_name="/interleave")
    assert note.startswith(
        "Text A has 5 words, Text B 2: they alternate for 2 pairs, then the last 3 words of "
        "Text A follow on their own (7 words in all)."
    )


def test_one_generation_at_a_time(standalone_app):
    """Two visitors pressing Interleave together: the second request starts once the first has finished."""
    from gradio_client import Client

    clients = [Client(standalone_app.url, verbose=False) for _ in range(2)]
    together = threading.Barrier(2)
    runs, errors = [], []  # (first update, last update, submitted) per visitor
    before = standalone_app.log.count("interleave request ")

    def visitor(client, choice):
        together.wait()
        submitted = time.monotonic()
        try:
            times = [time.monotonic() for _ in client.submit(LONG_A, LONG_B, choice, api_name="/interleave")]
        except Exception as exc:  # noqa: BLE001 - shown by the assertion below
            errors.append(repr(exc))
            return
        if times:
            runs.append((times[0], times[-1], submitted))

    threads = [threading.Thread(target=visitor, args=pair) for pair in zip(clients, ("stage-1", "stage-2"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and len(runs) == 2, (errors, standalone_app.log[-2000:])
    (_, first_end, _), _ = sorted(runs)
    assert max(submitted for *_, submitted in runs) < first_end  # a real race: both asked before the first was done
    # The app logs when a request's handler starts and finishes (before it takes the model's lock): with one
    # request at a time they alternate; two handlers at once would log started, started.
    events = [
        line.split("interleave request ")[1].split(":")[0]
        for line in standalone_app.log.splitlines()
        if "interleave request " in line
    ][before:]
    assert events == ["started", "finished", "started", "finished"]
