"""Serve a local hub folder (``HUB=local``) over the Hub HTTP API with olah, on a loopback port.

``python -m publishing.olah_server --hub_dir dist/hub`` (``make hub-serve``) prints the ``HF_ENDPOINT`` to
export; then ``load_dataset("owner/name", ...)``, ``from_pretrained`` and ``evaluate.load`` read the
published repos by id. olah (PyPI, a self-hosted Hub mirror) serves the bare git repositories of
:mod:`publishing.local_hub` in offline mode; it is read-only.

olah's dependency fastapi-utils pins ``psutil<6`` while this project pins psutil 7, so olah is not in
``requirements/lock.txt``: it is installed once (``pip --no-deps --target``, pins in
``requirements/olah.txt``) into ``<venv>/olah`` and run in a subprocess with that folder first on its path.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from dataset_builders.cli_flags import underscore_flags
from publishing.hub import HubError

logger = logging.getLogger(__name__)

REQUIREMENTS = Path(__file__).resolve().parents[1] / "requirements" / "olah.txt"
_STAMP = ".requirements-sha256"


def olah_dir() -> Path:
    """Where olah and the packages it needs beyond the project's are installed (next to the venv's packages)."""
    return Path(sys.prefix) / "olah"


def ensure_olah() -> Path:
    """Install olah (pinned, ``--no-deps``) into :func:`olah_dir` unless the same pins are there already."""
    target = olah_dir()
    digest = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if (target / _STAMP).is_file() and (target / _STAMP).read_text().strip() == digest:
        return target
    logger.info("installing olah into %s (requirements/olah.txt)", target)
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "-q",
        "--no-deps",
        "--target",
        str(tmp),
        "-r",
        str(REQUIREMENTS),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        lines = [ln for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip() and "is ignored" not in ln]
        raise HubError(f"could not install olah (pip said: {' | '.join(lines[-3:])})")
    (tmp / _STAMP).write_text(digest + "\n")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    return target


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _config(hub_dir: Path, host: str, port: int, cache: Path) -> str:
    return (
        f'[basic]\nhost = "{host}"\nport = {port}\nrepos-path = "{cache}"\n'
        f'mirrors-path = ["{hub_dir}"]\n\n[accessibility]\noffline = true\n'
    )


class LocalHubServer:
    """olah serving ``hub_dir`` on ``http://host:port`` (a free loopback port by default); a context manager."""

    def __init__(self, hub_dir: Path, host: str = "127.0.0.1", port: int | None = None, log: Path | None = None):
        self.hub_dir = Path(hub_dir).resolve()
        self.host = host
        self.port = port or free_port(host)
        self.log = log
        self.process: subprocess.Popen | None = None
        self._work: tempfile.TemporaryDirectory | None = None

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 60.0) -> str:
        """Start olah and wait until it answers; returns the endpoint (the value for ``HF_ENDPOINT``)."""
        site = ensure_olah()
        self._work = tempfile.TemporaryDirectory(prefix="olah-")
        work = Path(self._work.name)
        (work / "olah.toml").write_text(_config(self.hub_dir, self.host, self.port, work / "cache"))
        log_path = self.log or work / "olah.out"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])}
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "olah.server", "--config", "olah.toml"],
                cwd=work,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                tail = Path(log_path).read_text(errors="replace").strip().splitlines()[-5:]
                self.stop()
                raise HubError(f"olah exited with code {self.process.returncode}: {' | '.join(tail)}")
            try:
                with urllib.request.urlopen(f"{self.endpoint}/", timeout=2):  # olah's index page: no upstream call
                    pass
                return self.endpoint
            except urllib.error.HTTPError:
                return self.endpoint  # it answers
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise HubError(f"olah did not answer on {self.endpoint} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._work is not None:
            self._work.cleanup()
            self._work = None

    def __enter__(self) -> LocalHubServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m publishing.olah_server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--hub_dir", type=Path, default=Path(os.environ.get("HUB_DIR", "dist/hub")))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("HUB_PORT", "0")) or None)
    args = parser.parse_args(underscore_flags(argv))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not args.hub_dir.is_dir():
        print(
            f"error: {args.hub_dir} does not exist: publish something first (make publish HUB=local)", file=sys.stderr
        )
        return 2
    server = LocalHubServer(args.hub_dir, args.host, args.port)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # `kill` stops olah too (the finally below)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, even when started in the background
    try:
        endpoint = server.start()
        print(
            f"serving {args.hub_dir} at {endpoint}; in another shell:\n  export HF_ENDPOINT={endpoint}\n"
            "(set before Python imports huggingface_hub; load branches by commit id, evaluate.load with "
            "revision='main'). Ctrl-C stops.",
            flush=True,
        )
        server.process.wait()
    except HubError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
