"""Checkpoint policy: save every N steps and on a new best reward; keep first, best, previous and latest.

A checkpoint's files are fsync'd before its completion marker is written; on resume a checkpoint is read back
first, and a damaged one (a file cut short or emptied) is named and passed over for the one before it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

from transformers import TrainerCallback

logger = logging.getLogger(__name__)

COMPLETE_MARKER = "checkpoint_complete.json"
TRAINER_STATE = "trainer_state.json"
DAMAGED_SUFFIX = ".damaged"
CHECKED_SUFFIXES = (".safetensors", ".pt", ".pth", ".bin", ".json")  # weights, optimizer, RNG, states
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


def _safetensors_problem(path: Path) -> str | None:
    """Why a safetensors file does not read back whole (header unreadable, or size not what it describes)."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        head = handle.read(8)
        header_size = int.from_bytes(head, "little") if len(head) == 8 else None
        if header_size is None or header_size > size - 8:
            return "cut short inside its header"
        try:
            header = json.loads(handle.read(header_size))
            end = max((t["data_offsets"][1] for k, t in header.items() if k != "__metadata__"), default=0)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return "its header is not readable"
    if 8 + header_size + end != size:
        return f"{size:,} bytes where its header describes {8 + header_size + end:,} (cut short)"
    return None


def _torch_file_problem(path: Path) -> str | None:
    """Why a torch.save file (a zip archive) is incomplete: no central directory, or a member failing its CRC."""
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError, EOFError):
        return "not a complete torch.save archive (cut short)"
    return f"its member {bad} fails its checksum" if bad else None


def checkpoint_problem(folder: str | Path) -> str | None:
    """What keeps a checkpoint from being resumed, naming the file; None when every file reads back whole.

    Checks the trainer state (JSON whose step is the folder's), safetensors headers against file sizes,
    torch.save archives (optimizer, scheduler, RNG states, training args) for completeness and every JSON file;
    none of them may be empty.
    """
    folder = Path(folder)
    state_path = folder / TRAINER_STATE
    if not state_path.is_file():
        return f"{state_path} is missing"
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in CHECKED_SUFFIXES):
        if path.stat().st_size == 0:
            return f"{path} is empty"
        if path.suffix == ".safetensors":
            problem = _safetensors_problem(path)
        elif path.suffix in (".pt", ".pth", ".bin"):
            problem = _torch_file_problem(path)
        else:
            try:
                json.loads(path.read_text(encoding="utf-8"))
                problem = None
            except (ValueError, UnicodeDecodeError):
                problem = "not valid JSON (cut short)"
        if problem:
            return f"{path} is damaged: {problem}"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    match = _CHECKPOINT_DIR.match(folder.name)
    if not isinstance(state, dict) or (match and state.get("global_step") != int(match.group(1))):
        return f"{state_path} is damaged: it does not hold step {match.group(1) if match else '?'}"
    return None


def latest_resumable_checkpoint(run_dir: str | Path, report=logger.warning) -> Path | None:
    """The newest complete checkpoint that reads back whole (:func:`checkpoint_problem`); each damaged one
    newer than it is reported, naming the bad file, and passed over. Read-only: the resumed run moves them aside."""
    for info in reversed([c for c in list_checkpoints(run_dir) if c.complete]):
        problem = checkpoint_problem(info.path)
        if problem is None:
            return info.path
        report(f"cannot resume {info.path.name}: {problem}; falling back to the checkpoint before it")
    return None


def move_aside(folder: Path) -> Path:
    """Rename a damaged checkpoint to ``checkpoint-N.damaged`` (kept to inspect; never resumed or pruned)."""
    target, n = folder.with_name(folder.name + DAMAGED_SUFFIX), 1
    while target.exists():
        n += 1
        target = folder.with_name(f"{folder.name}{DAMAGED_SUFFIX}{n}")
    folder.rename(target)
    return target


def _fsync(path: Path) -> None:
    """Flush one file, or one folder's entries, to disk (quietly where the file system cannot)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def fsync_folder(folder: Path) -> None:
    """Flush every file of ``folder`` and its sub-folders, then the folders' entries, to disk."""
    for path in [*Path(folder).rglob("*"), Path(folder)]:
        _fsync(path)


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
        if state.is_world_process_zero:  # complete checkpoints past the resumed step are damaged ones passed over
            for c in list_checkpoints(args.output_dir):
                if c.complete and c.step > state.global_step:
                    self.report(
                        f"moved the damaged {c.path.name} aside to {move_aside(c.path).name} "
                        f"(resumed at step {state.global_step})"
                    )
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
            self.report(
                f"reward save at step {state.global_step}: reward {self.last_reward:.3f} (previous best {previous})"
            )
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
        fsync_folder(folder)  # every file on disk before the marker says so
        tmp = folder / (COMPLETE_MARKER + ".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(marker) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        tmp.rename(folder / COMPLETE_MARKER)  # the marker appears whole, after everything else was written
        _fsync(folder)
        for line in prune_checkpoints(args.output_dir):
            self.report(line)
