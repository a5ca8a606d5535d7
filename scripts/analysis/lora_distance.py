"""How far apart LoRA adapters end: the Frobenius norm of each one's whole update (sqrt of the sum over its adapted
matrices of ||B A||^2) and of the difference between two adapters' updates, for adapters committed at some point
(``commit:folder``, read with ``git show``) or on disk (a folder). Every adapter compared must share rank, alpha and
target modules, so the common scale alpha/r is left out, as in ``results/grpo/stage6-lineage-norms.md``.

    .venv/bin/python scripts/analysis/lora_distance.py s6a=a286234:adapters/batch-40/s6a \\
        idk=a286234:adapters/batch-40/idk --pairs s6a:idk [--out FILE.md]

No GPU; a few seconds an adapter on CPU.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))  # run as a script from anywhere
from scripts.analysis.emit import emit  # noqa: E402

WEIGHTS = "adapter_model.safetensors"


def read_weights(where: str) -> bytes:
    """The adapter's safetensors bytes: ``commit:folder`` from git, or a folder on disk."""
    folder = Path(where)
    if folder.is_dir():
        return (folder / WEIGHTS).read_bytes()
    return subprocess.run(["git", "show", f"{where}/{WEIGHTS}"], cwd=REPO_ROOT, capture_output=True, check=True).stdout


def updates(where: str) -> dict:
    """{adapted matrix: B @ A in float32} of one adapter."""
    from safetensors.torch import load

    tensors = load(read_weights(where))
    return {
        key.replace(".lora_A.weight", ""): tensors[key.replace("lora_A", "lora_B")].float() @ value.float()
        for key, value in tensors.items()
        if "lora_A" in key
    }


def norm(update: dict) -> float:
    return sum(float((m**2).sum()) for m in update.values()) ** 0.5


def distance(a: dict, b: dict) -> float:
    if a.keys() != b.keys():
        raise SystemExit("the adapters adapt different matrices: their updates cannot be compared")
    return sum(float(((a[k] - b[k]) ** 2).sum()) for k in a) ** 0.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("adapters", nargs="+", help="NAME=commit:folder or NAME=folder")
    parser.add_argument("--pairs", nargs="*", default=[], help="NAME:NAME pairs whose updates' distance to give")
    parser.add_argument("--out", type=Path, help="also write the tables here (markdown)")
    args = parser.parse_args(argv)
    named = dict(spec.split("=", 1) for spec in args.adapters)
    loaded = {name: updates(where) for name, where in named.items()}
    lines = ["| adapter | where | matrices | norm of B A |", "| --- | --- | --- | --- |"]
    lines += [f"| {n} | `{named[n]}` | {len(u)} | {norm(u):.2f} |" for n, u in loaded.items()]
    if args.pairs:
        lines += ["", "| from | to | norm of the difference |", "| --- | --- | --- |"]
        for pair in args.pairs:
            a, b = pair.split(":")
            lines.append(f"| {a} | {b} | {distance(loaded[a], loaded[b]):.2f} |")
    text = "\n".join(lines) + "\n"
    emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
