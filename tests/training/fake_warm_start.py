"""A stand-in for the supervised child process (training.cli.warm_start) of a format start or supervised help: it
writes what the real one leaves (final/ and results/summary.json) at once, so that tests of the order, folders and
records of a help's parts train nothing. The real child's contract: tests/training/core/test_format_start.py (the
child in this process: tests/in_process.py's in_process_child) and test_stop_on_signal.py (in its own process)."""

from __future__ import annotations

import json
from pathlib import Path

from training.core.arguments import read_recipe


class FakeWarmStart:
    """Called as ``run_child_until_stopped(command)``; ``calls``: (recipe, output folder, init adapter or None) of
    each child in turn; a recipe whose stem is in ``fail`` exits 1 and leaves no final adapter."""

    def __init__(self, fail: tuple[str, ...] = ()):
        self.calls: list[tuple[str, Path, str | None]] = []
        self.fail = fail

    def __call__(self, command: list[str]) -> tuple[int, None]:
        flags = dict(zip(command[3::2], command[4::2]))
        recipe, folder, start = flags["--config"], Path(flags["--output_dir"]), flags.get("--init_adapter")
        self.calls.append((recipe, folder, start))
        if Path(recipe).stem in self.fail:
            return 1, None
        steps = read_recipe(Path(recipe))["max_steps"]
        (folder / "final").mkdir(parents=True, exist_ok=True)
        (folder / "final" / "adapter_config.json").write_text("{}\n")
        (folder / "final" / "adapter_model.safetensors").write_text(f"{recipe} from {start}\n")
        (folder / "results").mkdir(exist_ok=True)
        summary = {"init_adapter": start, "global_step": steps, "wall_seconds": 6.0 * steps, "device": "cpu"}
        (folder / "results" / "summary.json").write_text(json.dumps(summary) + "\n")
        return 0, None
