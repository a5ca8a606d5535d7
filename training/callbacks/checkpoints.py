"""Checkpoint policy: save every N steps and on a new best reward; keep first, best, previous and latest."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from transformers import TrainerCallback

COMPLETE_MARKER = "checkpoint_complete.json"
_CHECKPOINT_DIR = re.compile(r"^checkpoint-(\d+)$")


@dataclass(frozen=True)
class CheckpointInfo:
    """A checkpoint folder: its step, the reward it was saved at, and whether it was written completely."""

    path: Path
    step: int
    reward: float | None
    complete: bool


def list_checkpoints(run_dir: str | Path) -> list[CheckpointInfo]:
    """The ``checkpoint-N`` folders of a run, oldest first."""
    run_dir = Path(run_dir)
    found = []
    for child in run_dir.iterdir() if run_dir.is_dir() else []:
        match = _CHECKPOINT_DIR.match(child.name)
        if not (match and child.is_dir()):
            continue
        marker = child / COMPLETE_MARKER
        reward = None
        if marker.exists():
            try:
                reward = json.loads(marker.read_text()).get("reward")
            except (OSError, json.JSONDecodeError):
                marker = None
        found.append(CheckpointInfo(child, int(match.group(1)), reward, bool(marker and marker.exists())))
    return sorted(found, key=lambda c: c.step)


def latest_complete_checkpoint(run_dir: str | Path) -> Path | None:
    """The newest checkpoint that was written completely (a half-written one is never chosen for resume)."""
    complete = [c for c in list_checkpoints(run_dir) if c.complete]
    return complete[-1].path if complete else None


def best_checkpoint(checkpoints: list[CheckpointInfo]) -> CheckpointInfo | None:
    """The complete checkpoint with the highest reward (the earliest on ties), if any has a reward."""
    scored = [c for c in checkpoints if c.complete and c.reward is not None]
    return max(scored, key=lambda c: (c.reward, -c.step)) if scored else None


def checkpoints_to_keep(checkpoints: list[CheckpointInfo]) -> dict[str, int]:
    """Role -> step of the checkpoints to keep: first, best, prev (second-to-last) and latest complete ones."""
    complete = [c for c in checkpoints if c.complete]
    keep: dict[str, int] = {}
    if complete:
        keep["first"] = complete[0].step
        best = best_checkpoint(complete)
        if best is not None:
            keep["best"] = best.step
        if len(complete) > 1:
            keep["prev"] = complete[-2].step
        keep["latest"] = complete[-1].step
    return keep


def prune_checkpoints(run_dir: str | Path) -> list[str]:
    """Delete every checkpoint the policy does not keep (incomplete ones too); return one report line each."""
    checkpoints = list_checkpoints(run_dir)
    keep = checkpoints_to_keep(checkpoints)
    kept_steps = set(keep.values())
    summary = ", ".join(f"{role}={step}" for role, step in keep.items()) or "no complete checkpoint"
    reports = []
    for c in checkpoints:
        if c.step in kept_steps and c.complete:
            continue
        shutil.rmtree(c.path, ignore_errors=True)
        what = f"reward {c.reward:.3f}" if c.reward is not None else ("no reward" if c.complete else "incomplete")
        reports.append(f"pruned {c.path.name} ({what}): keeping {summary}")
    return reports


class CheckpointRetention(TrainerCallback):
    """Saves on a new best windowed reward above ``threshold``, marks complete checkpoints, prunes the rest.

    Regular saves come from ``save_steps``; set ``save_total_limit=None`` so the Trainer rotates nothing itself.
    ``extra_state`` (optional callable) adds fields to each checkpoint's marker, e.g. the data position.
    """

    def __init__(self, threshold: float = 0.3, reward_key: str = "reward", extra_state=None, report=print):
        self.threshold = threshold
        self.reward_key = reward_key
        self.extra_state = extra_state
        self.report = report
        self.best_reward: float | None = None
        self.best_step: int | None = None
        self.last_reward: float | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        best = best_checkpoint(list_checkpoints(args.output_dir))
        if best is not None and best.reward is not None and best.reward > self.threshold:
            self.best_reward, self.best_step = best.reward, best.step

    def on_log(self, args, state, control, logs=None, **kwargs):
        reward = (logs or {}).get(self.reward_key)
        if reward is None:
            return
        self.last_reward = float(reward)
        if self.last_reward > self.threshold and (self.best_reward is None or self.last_reward > self.best_reward):
            previous = "none" if self.best_reward is None else f"{self.best_reward:.3f} at step {self.best_step}"
            self.report(f"reward save at step {state.global_step}: reward {self.last_reward:.3f} (previous best "
                        f"{previous})")
            self.best_reward, self.best_step = self.last_reward, state.global_step
            control.should_save = True

    def on_save(self, args, state, control, **kwargs):
        if not state.is_world_process_zero:
            return
        folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
        if not folder.is_dir():
            return
        marker = {"step": state.global_step, "reward": self.last_reward}
        if self.extra_state is not None:
            marker.update(self.extra_state())
        tmp = folder / (COMPLETE_MARKER + ".tmp")
        tmp.write_text(json.dumps(marker) + "\n")
        tmp.rename(folder / COMPLETE_MARKER)  # the marker appears whole, after everything else was written
        for line in prune_checkpoints(args.output_dir):
            self.report(line)
