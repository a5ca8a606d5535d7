"""A stage's own supervised help: the format start its recipe names (``format_start: sft-format-start``).

From a fresh adapter, GRPO gets no reward signal: the base model does not write the answer's form. A recipe may
therefore name a supervised recipe (``training/recipes/NAME.yaml``, run by ``training.cli.warm_start``) that trains
the fresh adapter first, bounded by its own steps and time guard. It runs in a child process into
``<output_dir>/format-start/``, is reported with the run (its time, steps and adapter in ``summary.json``), and a
rerun reuses its adapter. An explicit start (``--init_adapter``, ``base`` included) or a resumed run skips it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from training.core.arguments import RECIPES_DIR, RecipeError
from training.core.reporting import report

FOLDER = "format-start"


def format_start_recipe(name: str) -> Path:
    """The recipe file a ``format_start`` value names: a recipe name under training/recipes/, or a .yaml path."""
    path = Path(name) if name.endswith((".yaml", ".yml")) else RECIPES_DIR / f"{name}.yaml"
    if not path.is_file():
        raise RecipeError(f"format_start {name!r}: no recipe {path}")
    return path


def run_format_start(name: str, model: str, output_dir: Path, report_to: str) -> tuple[Path, dict]:
    """(the format start's adapter, its record): trained now, or the one an earlier attempt of this run left."""
    recipe = format_start_recipe(name)
    folder = output_dir / FOLDER
    final, summary_file = folder / "final", folder / "results" / "summary.json"
    if (final / "adapter_config.json").is_file() and summary_file.is_file():
        report(f"format start: reusing {final}/ (an earlier attempt of this run trained it)")
    else:
        if int(os.environ.get("WORLD_SIZE", "1")) > 1:
            raise RecipeError(
                f"the format start ({recipe}) runs in one process: train it first with `make warm-start "
                f"RECIPE={recipe.stem}`, then pass INIT_ADAPTER=runs/{recipe.stem}/final"
            )
        shown = recipe.relative_to(Path.cwd()) if recipe.is_relative_to(Path.cwd()) else recipe
        report(f"format start: a fresh adapter learns the answer's form first ({shown})")
        started = time.time()
        command = [sys.executable, "-m", "training.cli.warm_start", "--config", str(recipe), "--model", model]
        command += ["--output_dir", str(folder), "--results_dir", str(folder / "results"), "--report_to", report_to]
        code = subprocess.run(command).returncode
        if code != 0 or not (final / "adapter_config.json").is_file():
            raise RecipeError(f"the format start failed (exit code {code}): its output is above")
        report(f"format start done in {time.time() - started:.0f} s: GRPO starts from {final}/")
    summary = json.loads(summary_file.read_text())
    record = {
        "recipe": str(recipe),
        "adapter": str(final),
        "steps": summary.get("global_step"),
        "wall_seconds": summary.get("wall_seconds"),
        "device": summary.get("device"),
    }
    return final, record
