"""How much one device call carries: the working tree (tracked files and untracked ones git does not ignore),
../shared, and the carried paths, measured as a tar archive of them (512-byte headers and padding), since the
device tool refuses calls over 64 MiB by a count that plain file sizes underestimate: in session 16 a tree of 42.05
MB beside a 24.59 MB bundle (66.6 MB, under 67.1) was refused, and the tar estimate (67.7 MB) says why.

    .venv/bin/python scripts/gpu/call_size.py [CARRIED_PATH ...]     exits 1 when the call would be over the limit
    .venv/bin/python scripts/gpu/call_size.py --tree_bytes           what every call carries (scripts/gpu/pack.sh)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LIMIT = 64 * 1024 * 1024
BLOCK = 512


def tar_bytes(paths: list[Path]) -> int:
    """The size of a tar archive of these files: a header block each, the content padded to whole blocks."""
    total = 0
    for path in paths:
        if path.is_file():
            size = path.stat().st_size
            total += BLOCK + (size + BLOCK - 1) // BLOCK * BLOCK
    return total


def tree_files(root: Path) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    return [root / name.decode() for name in listed if name]


def files_under(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())


def always_carried() -> dict[str, int]:
    """What every call carries, in bytes as the tool counts them: the working tree and ../shared."""
    root = Path(
        subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    shared = root.parent / "shared"
    return {"tree": tar_bytes(tree_files(root)), "../shared": tar_bytes(files_under(shared)) if shared.exists() else 0}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    parts = always_carried()
    if args == ["--tree_bytes"]:
        print(sum(parts.values()))
        return 0
    carried = [Path(a) for a in args]
    for path in carried:
        parts[str(path)] = tar_bytes(files_under(path))
    total = sum(parts.values())
    for name, size in parts.items():
        print(f"{name:>24}: {size / 1e6:7.2f} MB")
    verdict = "fits" if total <= LIMIT else "OVER the limit"
    print(f"{'call':>24}: {total / 1e6:7.2f} MB of {LIMIT / 1e6:.2f} ({verdict}; {(LIMIT - total) / 1e6:+.2f} MB)")
    return 0 if total <= LIMIT else 1


if __name__ == "__main__":
    raise SystemExit(main())
