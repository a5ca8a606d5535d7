"""training.core.stop_signals.run_child_until_stopped: a stop reaches the child once, however it was sent."""

import os
import signal
import subprocess
import sys
import time

from tests.conftest import REPO_ROOT

CHILD = """
import os, pathlib, signal, sys, time
folder = pathlib.Path(sys.argv[1])
(folder / "group").write_text(str(os.getpgrp()))
got = []
signal.signal(signal.SIGTERM, lambda signum, frame: got.append(time.time()))
(folder / "ready").write_text("")
deadline = time.time() + 30
while time.time() < deadline and not (got and time.time() > got[0] + float(sys.argv[2])):
    time.sleep(0.02)
(folder / "count").write_text(str(len(got)))
"""
PARENT = """
import sys
from training.core.stop_signals import run_child_until_stopped
code, stopped_by = run_child_until_stopped([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3]])
print(code, stopped_by)
"""


def _start(tmp_path, linger: float) -> subprocess.Popen:
    """A parent running the child through run_child_until_stopped, in a session of its own (so that a signal to its
    process group, as a `timeout` sends, reaches no test process); the child ends ``linger`` s after its first
    SIGTERM."""
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(child), str(tmp_path), str(linger)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.time() + 60
    while not (tmp_path / "ready").exists() and time.time() < deadline:
        time.sleep(0.02)
    return parent


def test_a_signal_to_the_whole_process_group_reaches_the_child_once(tmp_path):
    """`timeout` signals its command and then its process group: the child must not get that stop twice (a second
    stop signal means "stop at once" to a training entry point)."""
    parent = _start(tmp_path, linger=0.5)
    assert int((tmp_path / "group").read_text()) != os.getpgid(parent.pid)  # out of the group a `timeout` signals
    os.killpg(parent.pid, signal.SIGTERM)
    out, _ = parent.communicate(timeout=60)
    assert out.split() == ["0", str(int(signal.SIGTERM))]
    assert (tmp_path / "count").read_text() == "1"


def test_a_stop_asked_again_later_is_passed_on(tmp_path):
    """A second SIGTERM well after the first (a person asking twice) reaches the child: it may then stop at once."""
    parent = _start(tmp_path, linger=3.0)
    parent.send_signal(signal.SIGTERM)
    time.sleep(1.5)
    parent.send_signal(signal.SIGTERM)
    parent.communicate(timeout=60)
    assert (tmp_path / "count").read_text() == "2"
