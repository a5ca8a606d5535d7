"""A chain of runs declared in one file (``training/recipes/chains/*.yaml``): steps, each a recipe run by an entry
point from the previous step's final adapter, then an eval of the last adapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from training.core.arguments import RECIPES_DIR, RecipeError, read_yaml

CHAINS_DIR = RECIPES_DIR / "chains"
ENTRY_POINTS = {"sft": "training.cli.warm_start", "grpo": "training.cli.train"}  # entry_point -> module
STEP_KEYS = {"run", "entry_point", "recipe", "overrides", "init_adapter"}


@dataclass(frozen=True)
class ChainStep:
    """One run of the chain: ``recipe`` run by ``entry_point`` into ``runs/<run>``, with ``overrides`` as flags."""

    run: str
    entry_point: str
    recipe: str
    overrides: dict = field(default_factory=dict)
    init_adapter: str | None = None  # None: the previous step's final adapter (the first step: its recipe's start)

    @property
    def module(self) -> str:
        return ENTRY_POINTS[self.entry_point]

    @property
    def recipe_path(self) -> Path:
        return RECIPES_DIR / f"{self.recipe}.yaml"


@dataclass(frozen=True)
class Chain:
    """The steps of a chain and the eval of its last adapter (``stages`` and extra ``args`` of
    training.cli.evaluate)."""

    steps: tuple[ChainStep, ...]
    eval_stages: str | None = None  # None: no eval
    eval_args: tuple[str, ...] = ()


def flags(overrides: dict) -> list[str]:
    """``{"max_steps": 500, "packing": True}`` -> ``["--max_steps", "500", "--packing", "true"]``."""
    out = []
    for key, value in overrides.items():
        out += [f"--{key}", str(value).lower() if isinstance(value, bool) else str(value)]
    return out


def read_chain(path: str | Path) -> Chain:
    """The chain a file declares; a RecipeError names the file and what is wrong."""
    path = Path(path)
    data = read_yaml(path)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise RecipeError(f"{path}: `steps` must be a list of steps")
    steps = []
    for i, raw in enumerate(raw_steps):
        where = f"{path}, step {i + 1}"
        if not isinstance(raw, dict) or not {"run", "entry_point", "recipe"} <= set(raw):
            raise RecipeError(f"{where}: a step needs run, entry_point and recipe")
        if unknown := set(raw) - STEP_KEYS:
            raise RecipeError(
                f"{where}: unknown keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(STEP_KEYS))})"
            )
        if raw["entry_point"] not in ENTRY_POINTS:
            raise RecipeError(
                f"{where}: entry_point must be one of {', '.join(ENTRY_POINTS)}, got {raw['entry_point']!r}"
            )
        step = ChainStep(
            run=str(raw["run"]),
            entry_point=raw["entry_point"],
            recipe=str(raw["recipe"]),
            overrides=dict(raw.get("overrides") or {}),
            init_adapter=raw.get("init_adapter"),
        )
        if not step.recipe_path.is_file():
            raise RecipeError(f"{where}: no recipe {step.recipe_path}")
        steps.append(step)
    runs = [s.run for s in steps]
    if len(set(runs)) != len(runs):
        raise RecipeError(
            f"{path}: two steps write the same run ({', '.join(sorted({r for r in runs if runs.count(r) > 1}))})"
        )
    evaluation = data.get("eval")
    return Chain(
        tuple(steps),
        None if evaluation is None else str(evaluation.get("stages", "1-6")),
        tuple(str(a) for a in (evaluation or {}).get("args", [])),
    )
