"""Rebuild a GPU batch's carried starts from history: the adapters its sweep names in ``# CARRY`` lines, written into
``.carry/NAME/`` (git-ignored), as the device calls carry them. A new checkout has no ``.carry/``; session 31 rebuilt
batch 36's five starts by hand from the sweep header's prose.

    .venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_37.sh

A line reads ``# CARRY NAME COMMIT:FOLDER [bf16]``: the adapter (``adapter_config.json`` and
``adapter_model.safetensors``) in FOLDER at COMMIT, cast to bfloat16 when ``bf16`` follows (a float32 adapter carried
at half the bytes, as setup.sh's ``bf16`` does on the device). A start already in ``.carry/`` with the same bytes is
left as it is. Prints each start's size and SHA-256; one clear error for a commit or folder git does not have.

A line ``# CARRY-TREE NAME COMMIT:FOLDER`` carries a whole folder as it is, every file under FOLDER at COMMIT into
``.carry/NAME/`` at the same relative path: a piece of a chain run in pieces (``collect_batch.py`` puts one under
``adapters/batch-N/PART/``), which setup.sh's ``keep_carried_starts`` puts where the chain runner goes on from it.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FILES = ("adapter_config.json", "adapter_model.safetensors")
CARRY_LINE = re.compile(
    r"^#\s*CARRY\s+(?P<name>[\w.-]+)\s+(?P<commit>[0-9a-f]{7,40}):(?P<folder>\S+?)/?(?:\s+(?P<bf16>bf16))?\s*$"
)


@dataclass(frozen=True)
class Start:
    name: str
    commit: str
    folder: str
    bf16: bool


TREE_LINE = re.compile(r"^#\s*CARRY-TREE\s+(?P<name>[\w.-]+)\s+(?P<commit>[0-9a-f]{7,40}):(?P<folder>\S+?)/?\s*$")


def _lines(sweep_text: str, keyword: str, pattern: re.Pattern, usage: str) -> list[Start]:
    """The sweep's ``# KEYWORD`` lines, in order; a line that starts so but does not match ``pattern`` is an error."""
    found = []
    for number, line in enumerate(sweep_text.splitlines(), 1):
        if not re.match(rf"^#\s*{keyword}(?!-)\b", line):
            continue
        match = pattern.match(line)
        if not match:
            raise ValueError(f"line {number}: {line.strip()!r} is not `# {keyword} {usage}`")
        found.append(Start(match["name"], match["commit"], match["folder"], bool(match.groupdict().get("bf16"))))
    return found


def carried_starts(sweep_text: str) -> list[Start]:
    """The ``# CARRY`` lines of a sweep, in order; a line that starts ``# CARRY`` but does not parse is an error."""
    return _lines(sweep_text, "CARRY", CARRY_LINE, "NAME COMMIT:FOLDER [bf16]")


def carried_trees(sweep_text: str) -> list[Start]:
    """The ``# CARRY-TREE`` lines of a sweep, in order (never cast); one that does not parse is an error."""
    return _lines(sweep_text, "CARRY-TREE", TREE_LINE, "NAME COMMIT:FOLDER")


def write_tree(root: Path, tree: Start) -> list[Path]:
    """``.carry/NAME/`` holding every file under the tree's folder at its commit; returns the files written."""
    proc = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", tree.commit, f"{tree.folder}/"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    names = proc.stdout.split()
    if proc.returncode != 0 or not names:
        raise ValueError(f"git has no files under {tree.commit}:{tree.folder}/")
    written = []
    for name in names:
        target = root / ".carry" / tree.name / Path(name).relative_to(tree.folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = git_file(root, tree.commit, name)
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
        written.append(target)
    return written


def git_file(root: Path, commit: str, path: str) -> bytes:
    proc = subprocess.run(["git", "show", f"{commit}:{path}"], cwd=root, capture_output=True)
    if proc.returncode != 0:
        raise ValueError(f"git has no {commit}:{path} ({proc.stderr.decode().strip() or 'git show failed'})")
    return proc.stdout


def to_bf16(data: bytes) -> bytes:
    """A safetensors file's floating tensors cast to bfloat16 (the others kept)."""
    import torch
    from safetensors.torch import load, save

    tensors = load(data)
    return save({k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in tensors.items()})


def write_start(root: Path, start: Start) -> Path:
    """``.carry/NAME/`` holding the start's two files; returns the folder."""
    folder = root / ".carry" / start.name
    folder.mkdir(parents=True, exist_ok=True)
    for file_name in FILES:
        data = git_file(root, start.commit, f"{start.folder}/{file_name}")
        if start.bf16 and file_name.endswith(".safetensors"):
            data = to_bf16(data)
        target = folder / file_name
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sweep", type=Path, help="the sweep script whose # CARRY lines name the starts")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the repository (tests use another)")
    args = parser.parse_args(argv)
    try:
        sweep_text = args.sweep.read_text()
        starts, trees = carried_starts(sweep_text), carried_trees(sweep_text)
        if not starts and not trees:
            raise ValueError(f"{args.sweep} has no `# CARRY NAME COMMIT:FOLDER` line")
        for tree in trees:
            files = write_tree(args.root, tree)
            size = sum(f.stat().st_size for f in files)
            print(
                f".carry/{tree.name}/: {len(files)} files, {size / 1e6:.1f} MB (the tree {tree.commit}:{tree.folder})"
            )
        for start in starts:
            folder = write_start(args.root, start)
            weights = (folder / FILES[1]).read_bytes()
            digest = hashlib.sha256(weights).hexdigest()
            cast = ", cast to bf16" if start.bf16 else ""
            print(f".carry/{start.name}: {len(weights) / 1e6:.1f} MB{cast}, sha256 {digest[:16]}...")
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
