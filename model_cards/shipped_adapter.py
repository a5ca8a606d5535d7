"""The adapter shipped with the project, ``adapters/shipped/``: where it is, what its ``provenance.json`` says, and
when the commands use it (nothing asked for, and no ``runs/stage-N/final`` here).

The folder is laid out as its Hub repo is (``python -m publishing.ship_adapter`` writes it)::

    adapters/shipped/
      README.md                   the model card (model_cards/stage_card.py)
      adapter_config.json         base_model_name_or_path: the base model's Hub id
      adapter_model.safetensors   bfloat16
      provenance.json             how it was made: stage, task, commit, recipe, commands, conversion, weights
      results/summary.json        the training run's summary
      results/eval.json           its greedy scores (model_cards/eval_results.py)
      plots/*.png                 the training run's plots

``make eval``, ``make publish-model`` and ``make space`` (whose Space reads ``provenance.json`` itself: it imports
nothing of the project's beyond what it vendors) use it by default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from dataset_builders import tasks
from model_cards.eval_results import EvalResults

REPO_ROOT = Path(__file__).resolve().parents[1]
SHIPPED_ADAPTER_PATH = "adapters/shipped"  # the documented path, in the checkout
SHIPPED_ADAPTER = REPO_ROOT / SHIPPED_ADAPTER_PATH  # found from the code, whatever the working folder
PROVENANCE_FILE = "provenance.json"
SUMMARY_FILE = "results/summary.json"
EVAL_FILE = "results/eval.json"
PLOTS_FOLDER = "plots"
WEIGHTS_FILE = "adapter_model.safetensors"
SIZE_LIMIT_BYTES = 25_000_000  # the whole folder, so that it travels with a clone
STAGE_RUN = "stage-{n}/final"  # under a runs folder: what `make train-stage N=...` writes
PROVENANCE_FIELDS = {
    "stage": int,
    "task": str,
    "base_model": str,
    "git_commit": str,
    "recipe": str,
    "commands": list,
    "conversion": dict,
    "weights": dict,
}


class ShippedAdapterError(ValueError):
    """A shipped adapter folder that is incomplete or whose provenance does not hold; the message names the file."""


@dataclass(frozen=True)
class ShippedAdapter:
    """The shipped adapter folder and its provenance."""

    folder: Path
    provenance: dict

    @property
    def stage(self) -> int:
        return self.provenance["stage"]

    @property
    def task(self) -> str:
        return self.provenance["task"]

    @property
    def base_model(self) -> str:
        """The Hub id of the base model it was trained on."""
        return self.provenance["base_model"]

    def summary(self) -> dict:
        return _read_json(self.folder / SUMMARY_FILE)

    def eval_results(self) -> EvalResults:
        return EvalResults.load(self.folder / EVAL_FILE)

    def plots(self) -> list[str]:
        """The plots, as paths inside the folder (``plots/reward.png``)."""
        return [f"{PLOTS_FOLDER}/{p.name}" for p in sorted((self.folder / PLOTS_FOLDER).glob("*.png"))]

    def describe(self) -> str:
        return f"the adapter shipped with the project, {shown_path(self.folder)}/ (curriculum stage {self.stage})"

    def fits(self, model: str) -> bool:
        """Whether ``model`` (a preset name, folder or Hub id) is the base model the adapter was trained on."""
        from base_models.models import EMBEDDED_MODEL, EMBEDDED_MODEL_HUB_ID

        model = str(model).rstrip("/")
        if model == self.base_model:
            return True
        return self.base_model == EMBEDDED_MODEL_HUB_ID and Path(model).name == EMBEDDED_MODEL


def shown_path(path: Path) -> str:
    """``path`` relative to the checkout when inside it (``adapters/shipped``), else as it is."""
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ShippedAdapterError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ShippedAdapterError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ShippedAdapterError(f"{path} must hold a JSON object")
    return data


def check_provenance(provenance: dict, source: str = PROVENANCE_FILE) -> dict:
    """``provenance`` if it has every field with its type and a curriculum stage task matching its stage."""
    problems = [
        f"{name} must be a {kind.__name__}"
        for name, kind in PROVENANCE_FIELDS.items()
        if not isinstance(provenance.get(name), kind) or isinstance(provenance.get(name), bool)
    ]
    if not problems:
        try:
            task = tasks.get(provenance["task"])
        except tasks.UnknownTask as exc:
            problems.append(str(exc))
        else:
            if task.curriculum_stage != provenance["stage"]:
                problems.append(f"task {provenance['task']!r} is not curriculum stage {provenance['stage']}")
    if problems:
        raise ShippedAdapterError(f"{source}: {'; '.join(problems)}")
    return provenance


def load_shipped(folder: str | Path = SHIPPED_ADAPTER) -> ShippedAdapter:
    """The shipped adapter in ``folder``; a ShippedAdapterError naming what is missing or wrong."""
    folder = Path(folder)
    missing = [
        name
        for name in ("adapter_config.json", WEIGHTS_FILE, PROVENANCE_FILE, SUMMARY_FILE, EVAL_FILE)
        if not (folder / name).is_file()
    ]
    if missing:
        raise ShippedAdapterError(
            f"{folder} is not a shipped adapter folder: it lacks {', '.join(missing)} "
            "(python -m publishing.ship_adapter writes one)"
        )
    return ShippedAdapter(folder, check_provenance(_read_json(folder / PROVENANCE_FILE), str(folder / PROVENANCE_FILE)))


def is_shipped_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds a provenance file (a shipped adapter, complete or not)."""
    return (Path(folder) / PROVENANCE_FILE).is_file()


def trained_stages(runs_dir: str | Path) -> list[int]:
    """The stages whose final adapter ``runs_dir/stage-N/final`` exists."""
    return sorted(
        int(p.parent.parent.name.split("-")[1]) for p in Path(runs_dir).glob("stage-[1-6]/final/adapter_config.json")
    )


def shipped_default(runs_dir: str | Path = "runs", folder: str | Path = SHIPPED_ADAPTER) -> ShippedAdapter | None:
    """The shipped adapter when a command is given no adapter: only where ``runs_dir`` holds no stage's final
    adapter (a user's own runs come first) and the folder is there; None otherwise."""
    if trained_stages(runs_dir) or not (Path(folder) / "adapter_config.json").is_file():
        return None
    return load_shipped(folder)
