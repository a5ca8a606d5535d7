"""The demo in the checkout offers the adapter shipped with the project (adapters/shipped/, as the stage its
provenance.json names) when no adapter source is given and no runs/stage-N/final exists; a given source, another base
model, or the Space run from its own folder (as on the Hub) get no shipped adapter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from model_sources import (
    SHIPPED_ADAPTER,
    AdapterSource,
    shipped_adapter,
    shipped_adapter_for,
)

from metrics.needleman_wunsch.nw_alignment import nw_score
from publishing.space_folder import stage_space_folder
from tests.conftest import REPO_ROOT

from .conftest import SPACE_DIR, make_adapter

TEXT_A = "It is a truth universally acknowledged, that a single man"
TEXT_B = "Fellow-Citizens of the Senate and House of Representatives: I embrace"


@pytest.fixture(scope="module")
def app():
    import app

    return app


def write_shipped(checkout: Path, stage: int, base_model: str, adapter_from: Path | None = None) -> Path:
    """``checkout/adapters/shipped`` with a provenance naming ``stage`` and ``base_model``."""
    folder = checkout / SHIPPED_ADAPTER
    if adapter_from is None:
        folder.mkdir(parents=True)
        (folder / "adapter_config.json").write_text("{}")
    else:
        make_adapter(adapter_from, folder, seed=7)
    (folder / "provenance.json").write_text(json.dumps({"stage": stage, "base_model": base_model}))
    return folder


def test_the_shipped_adapter_is_its_provenances_stage(tmp_path, caplog):
    folder = write_shipped(tmp_path, 3, "HuggingFaceTB/SmolLM2-135M-Instruct")
    adapter = shipped_adapter(str(folder))
    assert (adapter.stage, adapter.key, adapter.location, adapter.shipped) == (3, "stage-3", str(folder), True)
    assert adapter.label == "stage 3 adapter shipped with the project (adapters/shipped)"
    (folder / "provenance.json").write_text(json.dumps({"stage": "three"}))
    assert shipped_adapter(str(folder)) is None and "names no stage ('three')" in caplog.text
    (folder / "provenance.json").unlink()
    assert shipped_adapter(str(folder)) is None and "has no readable provenance.json" in caplog.text
    assert shipped_adapter(str(tmp_path / "nothing")) is None


def test_the_committed_shipped_adapter_fits_the_embedded_model_only(tmp_path):
    shipped = str(REPO_ROOT / SHIPPED_ADAPTER)
    assert shipped_adapter_for(REPO_ROOT, "HuggingFaceTB/SmolLM2-135M-Instruct") == shipped
    assert shipped_adapter_for(REPO_ROOT, "/any/cache/models/smollm2-135m-instruct") == shipped
    assert shipped_adapter_for(REPO_ROOT, "/any/cache/models/tiny-random-llama") == ""
    assert shipped_adapter_for(tmp_path, "HuggingFaceTB/SmolLM2-135M-Instruct") == ""  # a checkout without one
    stage = json.loads((REPO_ROOT / SHIPPED_ADAPTER / "provenance.json").read_text())["stage"]
    assert shipped_adapter(shipped).stage == stage  # the same reading as model_cards/shipped_adapter.py's


def test_trained_stages_come_first(tmp_path):
    folder = write_shipped(tmp_path, 1, "x/y")
    source = AdapterSource("local", str(tmp_path / "runs" / "stage-{n}" / "final"), str(folder))
    assert [(a.stage, a.shipped) for a in source.find()] == [(1, True)]
    (tmp_path / "runs" / "stage-2" / "final").mkdir(parents=True)
    (tmp_path / "runs" / "stage-2" / "final" / "adapter_config.json").write_text("{}")
    assert [(a.stage, a.shipped) for a in source.find()] == [(2, False)]


def test_only_the_default_source_of_a_checkout_offers_it(app, tmp_path, monkeypatch):
    write_shipped(tmp_path, 1, "HuggingFaceTB/SmolLM2-135M-Instruct")
    monkeypatch.delenv("INTERLEAVE_DEMO_ADAPTERS", raising=False)
    monkeypatch.setattr(app, "_adapter_base_dir", lambda: tmp_path)
    base = "HuggingFaceTB/SmolLM2-135M-Instruct"
    source = app.adapter_source(None, base)
    assert source.kind == "local" and source.spec == str(tmp_path / "runs" / "stage-{n}" / "final")
    assert source.shipped == str(tmp_path / SHIPPED_ADAPTER)
    assert app.adapter_source("none", base).shipped == ""  # the flag
    assert app.adapter_source(None, "/models/tiny-random-llama").shipped == ""  # another base model
    monkeypatch.setenv("INTERLEAVE_DEMO_ADAPTERS", "someone/adapters")
    assert app.adapter_source(None, base) == AdapterSource("hub", "someone/adapters")  # the variable
    monkeypatch.delenv("INTERLEAVE_DEMO_ADAPTERS")
    monkeypatch.setattr(app, "_adapter_base_dir", lambda: None)  # run from its own folder
    assert app.adapter_source(None, base).shipped == ""


def test_the_space_run_from_its_own_folder_finds_no_adapter(tmp_path):
    """As on the Hub without its variables: the checkout's shipped adapter is not there, nor looked for."""
    folder = stage_space_folder(SPACE_DIR, tmp_path / "space")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INTERLEAVE_DEMO_", "PYTHONPATH"))}
    script = "import app; s = app.settings_from(app.parse_args([])); print(repr(s.adapters), s.adapters.find())"
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == (
        "AdapterSource(kind='local', spec='runs/stage-{n}/final', shipped='') []"
    )


def test_the_demo_offers_and_runs_the_shipped_adapter_until_a_stage_is_trained(
    app, tmp_path, monkeypatch, tiny_model_dir
):
    write_shipped(tmp_path, 1, str(tiny_model_dir), adapter_from=tiny_model_dir)
    monkeypatch.delenv("INTERLEAVE_DEMO_ADAPTERS", raising=False)
    monkeypatch.setattr(app, "_adapter_base_dir", lambda: tmp_path)
    demo = app.Demo(app.settings_from(app.parse_args(["--base_model", str(tiny_model_dir), "--device", "cpu"])))
    status = demo.status()
    assert "offering the **adapter shipped with the project** (`adapters/shipped`)" in status
    assert "trained on curriculum stage 1 only" in status and "No trained adapter found" not in status
    assert [value for _, value in demo.model_choices()] == ["base", "stage-1"] and demo.default_choice() == "stage-1"
    outputs = {choice: list(demo.interleave(TEXT_A, TEXT_B, choice))[-1][0] for choice in ("base", "stage-1")}
    assert outputs["base"] != outputs["stage-1"]  # the adapter is applied

    make_adapter(tiny_model_dir, tmp_path / "runs" / "stage-2" / "final", seed=2)
    demo.refresh()
    assert [value for _, value in demo.model_choices()] == ["base", "stage-2"]
    assert "Stage adapters found in local folders" in demo.status()


@pytest.mark.slow
def test_a_later_shipped_stage_says_it_continues_the_stages_before_it(app, tmp_path, monkeypatch, tiny_model_dir):
    write_shipped(tmp_path, 2, str(tiny_model_dir), adapter_from=tiny_model_dir)
    monkeypatch.delenv("INTERLEAVE_DEMO_ADAPTERS", raising=False)
    monkeypatch.setattr(app, "_adapter_base_dir", lambda: tmp_path)
    demo = app.Demo(app.settings_from(app.parse_args(["--base_model", str(tiny_model_dir), "--device", "cpu"])))
    assert "trained on curriculum stages 1-2." in demo.status() and demo.default_choice() == "stage-2"


def test_the_real_shipped_adapter_interleaves_in_the_demo(app, tmp_path, monkeypatch):
    """The embedded model with the committed adapter, as `make space` in a fresh clone shows it."""
    (tmp_path / "adapters").mkdir()
    (tmp_path / SHIPPED_ADAPTER).symlink_to(REPO_ROOT / SHIPPED_ADAPTER)
    monkeypatch.delenv("INTERLEAVE_DEMO_ADAPTERS", raising=False)
    monkeypatch.delenv("INTERLEAVE_DEMO_BASE_MODEL", raising=False)
    monkeypatch.setattr(app, "_adapter_base_dir", lambda: tmp_path)
    demo = app.Demo(app.settings_from(app.parse_args(["--device", "cpu"])))
    stage = f"stage-{json.loads((REPO_ROOT / SHIPPED_ADAPTER / 'provenance.json').read_text())['stage']}"
    assert "adapter shipped with the project" in demo.status() and demo.default_choice() == stage
    output, target, score, *_ = list(demo.interleave(TEXT_A, TEXT_B, stage))[-1]
    assert nw_score(output, target) >= 0.8, output  # the base model writes no interleave (0.000); and it stops
    assert "NW score:" in score
