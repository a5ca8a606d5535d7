"""Starting the demo: a port in use stops it at once with a message; `make space` prints its URL once it answers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

from tests.conftest import REPO_ROOT

from .conftest import SPACE_DIR
from .launched_app import free_port


def test_a_port_in_use_stops_the_demo_before_it_loads_a_model(tiny_model_dir):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        started = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                "app.py",
                "--port",
                str(port),
                "--base-model",
                str(tiny_model_dir),
                "--adapters",
                "none",
                "--device",
                "cpu",
            ],
            cwd=SPACE_DIR,
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"error: port {port} on 127.0.0.1 is in use (another demo or server?)" in proc.stderr
    assert "Traceback" not in proc.stderr and "Loading weights" not in proc.stderr + proc.stdout
    assert time.monotonic() - started < 120


def test_make_space_prints_its_url_when_the_server_answers(tiny_model_dir):
    port = free_port()
    proc = subprocess.Popen(
        [
            "make",
            "--no-print-directory",
            "space",
            f"SPACE_PORT={port}",
            f"SPACE_ARGS=--base-model {tiny_model_dir} --adapters none --device cpu",
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("demo Space: "):
                url = line.split()[2]
                assert url == f"http://127.0.0.1:{port}"
                with urllib.request.urlopen(url + "/", timeout=5) as page:  # at once: no waiting, no retry
                    assert page.status == 200
                break
        else:
            raise AssertionError("make space never printed its URL:\n" + "".join(lines)[-3000:])
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
