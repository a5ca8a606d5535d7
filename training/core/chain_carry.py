"""What one piece of a chain hands to the next when the chain runs in pieces on different machines (``make curriculum
UNTIL=stage-K`` here, the rest elsewhere): issue 17's chain takes ~60 GPU-minutes, more than one lease holds.

The runner skips a step whose ``final/adapter_config.json`` exists, continues the last step's adapter, and its time
ledger (``training.core.chain_time``) reads every step's ``chain-step.json`` and ``results/summary.json``, skipped
steps too. So a piece carries those records of every step (their help parts' too) and the whole adapter of its last
step alone, as trained (float32 for the helps), not the earlier steps' weights.

    python -m training.core.chain_carry RUNS_DIR UNTIL     # the files, relative to RUNS_DIR, one a line

(``scripts/gpu/setup.sh``'s ``chain_piece`` tars them for the next session to carry; unpacked into a runs folder,
the next piece's ``make curriculum`` goes on from them.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from training.core.chain_time import STEP_FILE
from training.core.runs import RUN_SUMMARY

ADAPTER_FILES = ("adapter_config.json", "adapter_model.safetensors")


def carried_files(runs_dir: Path, until: str) -> list[Path]:
    """The files under ``runs_dir`` (relative to it) the next piece needs: every ``final/adapter_config.json``,
    ``chain-step.json`` and ``results/summary.json``, the runner's ``*-time.json``, and ``until``'s final adapter."""
    runs_dir = Path(runs_dir)
    last = runs_dir / until / "final"
    missing = [name for name in ADAPTER_FILES if not (last / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{last}/ has no {' or '.join(missing)}: the piece did not finish {until}")
    found = {last / name for name in ADAPTER_FILES}
    found |= set(runs_dir.glob("**/final/adapter_config.json"))
    found |= set(runs_dir.glob(f"**/{STEP_FILE}")) | set(runs_dir.glob(f"**/{RUN_SUMMARY}"))
    found |= set(runs_dir.glob("*-time.json"))
    return sorted(path.relative_to(runs_dir) for path in found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs_dir", type=Path, help="the chain's runs folder (make curriculum's --runs_dir)")
    parser.add_argument("until", help="the piece's last step (its UNTIL), whose final adapter goes whole")
    args = parser.parse_args(argv)
    try:
        files = carried_files(args.runs_dir, args.until)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(str(path) for path in files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
