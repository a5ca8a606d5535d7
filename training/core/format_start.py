"""A stage's own supervised help: the format start its recipe names (``format_start: sft-format-start``).

From a fresh adapter, GRPO gets no reward signal: the base model does not write the answer's form. A recipe may
therefore name a supervised recipe (``training/recipes/NAME.yaml``, run by ``training.cli.warm_start``) that trains
the fresh adapter first, bounded by its own steps and time guard. It runs in a child process into
``<output_dir>/format-start/``, is reported with the run (its time, steps and adapter in ``summary.json``), and a
rerun reuses its adapter (one trained from the same start, by the same recipe where ``recipe.txt`` beside it names
one). An explicit start (``--init_adapter``, ``base`` included) or a resumed run skips it.

A later stage's help is ``supervised_help``: a supervised recipe bounded in time that continues the stage's start
adapter (the previous stage's final one, or ``--init_adapter``) into ``<output_dir>/supervised-help/`` before GRPO,
reported and reused the same way; only a resumed run skips it. It may list several recipes, comma-separated
(``supervised_help: a,b``): part k continues part k-1's final adapter in ``<output_dir>/supervised-help-k/`` (part 1
keeps ``supervised-help/``), each bounded in time; a name may repeat (that part trains its recipe again, on from the
part before).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from training.core.arguments import RECIPES_DIR, RecipeError, read_recipe
from training.core.reporting import report
from training.core.runs import RUN_SUMMARY, run_summary
from training.core.stop_signals import StopRequested, run_child_until_stopped

FOLDER = "format-start"
HELP_FOLDER = "supervised-help"
RECIPE_FILE = "recipe.txt"  # beside final/: the recipe file that trained it, checked before a rerun reuses it


def names_recipe(value: str | None) -> bool:
    """Whether a ``format_start`` or ``supervised_help`` value names a recipe: unset, empty and ``none`` (what turns a
    recipe's own off from the command line) do not."""
    return value not in (None, "", "none")


def format_start_recipe(name: str, key: str = "format_start") -> Path:
    """The recipe file a ``format_start`` (or ``supervised_help``) value names: a recipe name under
    training/recipes/, or a .yaml path."""
    path = Path(name) if name.endswith((".yaml", ".yml")) else RECIPES_DIR / f"{name}.yaml"
    if not path.is_file():
        raise RecipeError(f"{key} {name!r}: no recipe {path}")
    return path


def run_format_start(name: str, model: str, output_dir: Path, report_to: str) -> tuple[Path, dict]:
    """(the format start's adapter, its record): trained now from a fresh adapter, or the one an earlier attempt of
    this run left."""
    return _run_supervised(
        format_start_recipe(name),
        model,
        output_dir / FOLDER,
        report_to,
        None,
        "format start",
        "a fresh adapter learns the answer's form first",
    )


def help_parts(value: str) -> list[tuple[str, Path]]:
    """The (name, recipe file) of each part a ``supervised_help`` value lists, in order (comma-separated, spaces around
    commas ignored), every one checked before anything trains: it exists and bounds itself in time
    (``max_train_minutes``). An empty part ("a,,b") is an error; a repeated name is a part like any other."""
    names = [name.strip() for name in value.split(",")]
    if not all(names):
        raise RecipeError(f"supervised_help {value!r}: an empty part; list recipe names separated by commas (a,b)")
    parts = []
    for number, name in enumerate(names, 1):
        key = "supervised_help" if len(names) == 1 else f"supervised_help part {number} of {len(names)}"
        recipe = format_start_recipe(name, key=key)
        if read_recipe(recipe).get("max_train_minutes") in (None, "", 0):
            raise RecipeError(
                f"{key} {name!r}: its recipe ({recipe}) sets no max_train_minutes; a stage's supervised help "
                "is bounded in time (issue 17), so that the stage reports what GRPO adds on top of a known budget"
            )
        parts.append((name, recipe))
    return parts


def help_folder(number: int) -> str:
    """The folder under the run's output_dir of the help's part ``number`` (from 1): supervised-help/,
    supervised-help-2/, ..."""
    return HELP_FOLDER if number == 1 else f"{HELP_FOLDER}-{number}"


def run_supervised_help(name: str, model: str, output_dir: Path, report_to: str, start: Path | None):
    """(the adapter GRPO starts from, the help's record): the stage's supervised help (``supervised_help``), which
    continues ``start`` (the previous stage's final adapter, or ``--init_adapter``; None: a fresh adapter) in
    ``<output_dir>/supervised-help/``. Its recipe must bound it in time (``max_train_minutes``). A list of recipes
    trains part after part (``help_parts``, ``help_folder``); its record is ``combined_help_record``'s."""
    parts = help_parts(name)
    records, retrained = [], None  # retrained: the part before, where this call trained it anew
    for number, (_, recipe) in enumerate(parts, 1):
        label = "supervised help" if len(parts) == 1 else f"supervised help part {number} of {len(parts)}"
        folder = output_dir / help_folder(number)
        if retrained and _trained(folder):  # the same path as its start, but an adapter from before it
            raise RecipeError(
                f"{folder}/ holds a {label} trained before part {number - 1} ({retrained}/) was trained again just "
                f"now, so not from it: remove {folder}/ (and the parts after it) to train it again"
            )
        retrained = None if _trained(folder) else folder
        what = f"continuing {start}/" if start else "a fresh adapter"
        rest = ",".join(n for n, _ in parts[number:]) or "none"
        then = "GRPO starts from" if number == len(parts) else f"part {number + 1} continues"
        start, record = _run_supervised(recipe, model, folder, report_to, start, label, what, rest, then)
        records.append(record)
    return start, records[0] if len(records) == 1 else combined_help_record(records)


def combined_help_record(records: list[dict]) -> dict:
    """The record of a help of several parts: a single help's keys over the whole (the recipes comma-joined, the
    last part's adapter, the first part's start, steps and seconds summed, the devices in the parts' order, one named
    again only where it follows another: "A, B, A"; None if a part's is not known), and ``parts``, each part's own
    record in order."""

    def total(key: str):
        values = [r.get(key) for r in records]
        return None if any(v is None for v in values) else sum(values)

    devices = [r.get("device") for r in records]
    in_turn = [d for i, d in enumerate(devices) if i == 0 or d != devices[i - 1]]  # a card once per run of parts on it
    return {
        "recipe": ",".join(r["recipe"] for r in records),
        "adapter": records[-1]["adapter"],
        "from": records[0]["from"],
        "steps": total("steps"),
        "wall_seconds": total("wall_seconds"),
        "device": None if None in devices else ", ".join(in_turn),  # a part's unknown card: none named, not a guess
        "parts": records,
    }


def _trained(folder: Path) -> bool:
    """Whether ``folder`` holds what a format start or help part leaves (its final adapter and summary), which
    ``_run_supervised`` then reuses rather than trains."""
    return (folder / "final" / "adapter_config.json").is_file() and (folder / RUN_SUMMARY).is_file()


def _run_supervised(
    recipe: Path,
    model: str,
    folder: Path,
    report_to: str,
    start: Path | None,
    label: str,
    what: str,
    rest: str | None = None,
    then: str = "GRPO starts from",
):
    """Train ``recipe`` (training.cli.warm_start, a child process) into ``folder`` from ``start``, or reuse what an
    earlier attempt left there (trained from ``start``, and by ``recipe`` where its ``RECIPE_FILE`` names one); (its
    final adapter, its record). ``rest``: for a help's part, the ``supervised_help``
    the run takes after it is trained by hand (the parts after it, or none); ``then``: what goes on from it."""
    final = folder / "final"
    summary = run_summary(folder) if _trained(folder) else None
    if summary is not None:
        trained_from = summary.get("init_adapter")
        if (Path(trained_from).resolve() if trained_from else None) != (Path(start).resolve() if start else None):
            raise RecipeError(
                f"{folder}/ holds a {label} trained from {trained_from or 'a fresh adapter'}, but this run starts "
                f"from {start or 'a fresh adapter'}: remove {folder}/ to train it again, or give this run its own "
                "output_dir"
            )
        # by name, so that a run folder carried to another checkout still matches; none written: an older folder
        trained_by = (folder / RECIPE_FILE).read_text().strip() if (folder / RECIPE_FILE).is_file() else None
        if trained_by and Path(trained_by).name != recipe.name:
            raise RecipeError(
                f"{folder}/ holds a {label} trained by {trained_by}, but this run names {recipe}: remove {folder}/ "
                "to train it again, or give this run its own output_dir"
            )
        report(f"{label}: reusing {final}/ (an earlier attempt of this run trained it)")
    else:
        if int(os.environ.get("WORLD_SIZE", "1")) > 1:
            init = f" INIT_ADAPTER={start}" if start else ""
            off = f" and --supervised_help {rest}" if rest else ""
            raise RecipeError(
                f"the {label} ({recipe}) runs in one process: train it first with `make warm-start "
                f"RECIPE={recipe.stem}{init}`, then pass INIT_ADAPTER=runs/{recipe.stem}/final{off}"
            )
        shown = recipe.relative_to(Path.cwd()) if recipe.is_relative_to(Path.cwd()) else recipe
        report(f"{label}: {what} ({shown})")
        started = time.time()
        command = [sys.executable, "-m", "training.cli.warm_start", "--config", str(recipe), "--model", model]
        command += ["--output_dir", str(folder), "--results_dir", str(folder / "results"), "--report_to", report_to]
        command += ["--init_adapter", str(start)] if start else []
        code, stopped_by = run_child_until_stopped(command)
        if code != 0 or not (final / "adapter_config.json").is_file():
            raise RecipeError(f"the {label} failed (exit code {code}): its output is above")
        (folder / RECIPE_FILE).write_text(f"{recipe}\n")
        if stopped_by is not None:
            raise StopRequested(
                stopped_by,
                f"stopped during the {label} ({signal.Signals(stopped_by).name}): its adapter is in {final}/, and "
                "GRPO did not start; the same command again reuses it and goes on",
            )
        report(f"{label} done in {time.time() - started:.0f} s: {then} {final}/")
        summary = run_summary(folder)
        if summary is None:
            raise RecipeError(f"the {label} left its adapter but no {RUN_SUMMARY} in {folder}/: its output is above")
    record = {
        "recipe": str(recipe),
        "adapter": str(final),
        "from": str(start) if start else None,
        "steps": summary.get("global_step"),
        "wall_seconds": summary.get("wall_seconds"),
        "device": summary.get("device"),
    }
    return final, record
