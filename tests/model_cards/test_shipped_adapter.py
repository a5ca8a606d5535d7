"""The adapter shipped with the project (adapters/shipped/): its files hold what its provenance says, its scores are
the committed eval files' rows, its card is the one publishing renders; and when the commands take it by default."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess

import pytest

from model_cards.eval_results import EvalResults
from model_cards.shipped_adapter import (
    PROVENANCE_FILE,
    SHIPPED_ADAPTER,
    SIZE_LIMIT_BYTES,
    ShippedAdapterError,
    load_shipped,
    shipped_default,
    trained_stages,
)
from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def shipped():
    return load_shipped()


def test_the_shipped_folder_is_at_its_documented_path_and_small_enough(shipped):
    assert shipped.folder == REPO_ROOT / "adapters" / "shipped"
    assert sum(p.stat().st_size for p in shipped.folder.rglob("*") if p.is_file()) <= SIZE_LIMIT_BYTES == 25_000_000


def test_the_weights_are_bfloat16_and_those_the_provenance_names(shipped):
    from safetensors import safe_open

    weights = shipped.folder / shipped.provenance["weights"]["file"]
    assert hashlib.sha256(weights.read_bytes()).hexdigest() == shipped.provenance["weights"]["sha256"]
    assert weights.stat().st_size == shipped.provenance["weights"]["bytes"]
    with safe_open(str(weights), "pt") as handle:
        dtypes = {str(handle.get_slice(key).get_dtype()) for key in handle.keys()}
    assert dtypes == {"BF16"} and shipped.provenance["conversion"]["to"] == "bfloat16"
    config = json.loads((shipped.folder / "adapter_config.json").read_text())
    assert config["base_model_name_or_path"] == shipped.base_model == "HuggingFaceTB/SmolLM2-135M-Instruct"


def test_its_scores_and_summary_are_the_committed_results_files(shipped):
    """No number is typed: eval.json holds exactly the rows of the eval files the provenance names, and the summary
    and plots are the run's curated copies."""
    merged = shipped.eval_results()
    sources = [EvalResults.load(REPO_ROOT / path) for path in shipped.provenance["eval_sources"]]
    assert sorted(map(repr, merged.rows)) == sorted(repr(row) for source in sources for row in source.rows)
    assert {(r.split, r.label, r.task) for r in merged.rows} >= {
        ("test", "trained", shipped.task),
        ("out_of_register", "trained", shipped.task),
    }
    results = REPO_ROOT / shipped.provenance["results_source"]
    assert shipped.summary() == json.loads((results / "summary.json").read_text())
    assert shipped.summary()["task"] == shipped.task
    plots = sorted(results.glob("*.png"))
    help_only = shipped.summary().get("max_steps") == 0  # a stage of its supervised help alone has no GRPO plots
    assert shipped.plots() == [f"plots/{p.name}" for p in plots] and (plots or help_only)
    assert all((shipped.folder / "plots" / p.name).read_bytes() == p.read_bytes() for p in plots)


def test_how_it_was_made_names_a_commit_recipe_and_scripts_of_this_repository(shipped):
    provenance = shipped.provenance

    def git(*args):
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True)

    commit = provenance["git_commit"]
    assert re.fullmatch(r"[0-9a-f]{40}", commit) and git("cat-file", "-e", f"{commit}^{{commit}}").returncode == 0
    assert git("cat-file", "-e", f"{commit}:{provenance['recipe']}").returncode == 0
    scripts = [word for command in provenance["commands"] for word in command.split() if word.endswith(".sh")]
    assert scripts and all(git("cat-file", "-e", f"{commit}:{script}").returncode == 0 for script in scripts)
    assert provenance["conversion"]["from"] == "float32" and provenance["training_minutes"] > 0


def test_the_committed_card_is_the_card_publishing_renders(shipped):
    """Rendered from the folder's files by model_cards/stage_card.py; `make ship-adapter SHIP_ARGS=--card_only`
    renders it again after the template changed."""
    from publishing.ship_adapter import render_card

    committed = (shipped.folder / "README.md").read_text(encoding="utf-8")
    assert render_card(shipped.folder).content == committed
    from model_cards.stage_card import curriculum_span

    assert curriculum_span(shipped.stage) in committed and "## How it was made" in committed
    rows = json.loads((shipped.folder / "results" / "eval.json").read_text())["rows"]
    assert {row["split"] for row in rows} >= {"test", "out_of_register"}
    for row in rows:  # each split's NW score, from eval.json
        assert f"{row['nw_score']:.3f}" in committed, row


def fake_shipped(folder, stage: int = 2, **provenance):
    """A shipped folder copied from the committed one, its provenance changed by ``provenance``."""
    shutil.copytree(SHIPPED_ADAPTER, folder, ignore=shutil.ignore_patterns("*.safetensors", "plots"))
    (folder / "adapter_model.safetensors").write_bytes(b"")
    record = json.loads((folder / PROVENANCE_FILE).read_text())
    record.update({"stage": stage, "task": f"stage-{stage}", **provenance})
    (folder / PROVENANCE_FILE).write_text(json.dumps(record))
    return folder


def test_the_default_is_the_shipped_adapter_only_where_no_stage_was_trained(tmp_path):
    folder = fake_shipped(tmp_path / "shipped", stage=2)
    runs = tmp_path / "runs"
    assert shipped_default(runs, folder).stage == 2  # no runs folder at all
    (runs / "stage-3" / "final").mkdir(parents=True)  # unfinished: no adapter_config.json
    (runs / "smoke" / "final").mkdir(parents=True)
    (runs / "smoke" / "final" / "adapter_config.json").write_text("{}")  # not a stage
    assert trained_stages(runs) == [] and shipped_default(runs, folder).stage == 2
    (runs / "stage-3" / "final" / "adapter_config.json").write_text("{}")
    assert trained_stages(runs) == [3] and shipped_default(runs, folder) is None
    assert shipped_default(tmp_path / "none", tmp_path / "no-shipped-folder") is None


def test_a_broken_shipped_folder_is_named_not_taken(tmp_path):
    folder = fake_shipped(tmp_path / "shipped", stage=2, task="stage-4")
    with pytest.raises(ShippedAdapterError, match=r"provenance.json: task 'stage-4' is not curriculum stage 2"):
        shipped_default(tmp_path / "runs", folder)
    (folder / PROVENANCE_FILE).write_text("{not json")
    with pytest.raises(ShippedAdapterError, match="provenance.json is not JSON"):
        load_shipped(folder)
    (folder / "results" / "eval.json").unlink()
    with pytest.raises(ShippedAdapterError, match=r"lacks results/eval.json \(python -m publishing.ship_adapter"):
        load_shipped(folder)


@pytest.mark.parametrize(
    ("model", "fits"),
    [
        ("smollm2-135m-instruct", True),
        ("HuggingFaceTB/SmolLM2-135M-Instruct", True),
        ("/some/cache/models/smollm2-135m-instruct/", True),
        ("tiny-random-llama", False),
        ("meta-llama/Llama-3.2-3B-Instruct", False),
    ],
)
def test_it_fits_only_its_base_model(shipped, model, fits):
    assert shipped.fits(model) is fits
