"""Run a CLI's ``main(argv)`` in the test's own process, as ``python -m MODULE ARGS`` would run it in a new one.

A training CLI in a new process pays the import of torch, transformers and TRL first (~4-8 s on 2 cores); the test
process has paid it once already. What a fresh process starts from and leaves behind is set up and put back around
the call: the environment, the working folder, the warnings filters (Python's defaults, each warning shown once and
written to stderr, as a new process does), a logging handler on stderr at INFO (the CLIs' ``logging.basicConfig``),
the random states, torch's thread count and default dtype, the SIGTERM/SIGINT handlers and the run-folder locks
(released, as at a process's end). Exit codes and output come back as :class:`subprocess.CompletedProcess`.
Each user path keeps tests that start a real process (``run_cli``, ``make``); see tests/training/cli/.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import random
import shlex
import signal
import subprocess
import sys
import warnings

import pytest

from tests.conftest import REPO_ROOT, make_dry_run

# Python's own filters in a process started without -W (python -c "import warnings; print(warnings.filters)")
PYTHON_DEFAULT_FILTERS = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
)


@contextlib.contextmanager
def fresh_process_state(env: dict | None = None):
    """What a new process would start from, put back afterwards; the warnings the block raised go to stderr at its
    end, formatted as Python shows them."""
    import numpy
    import torch

    from training.core import run_lock

    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    saved_random = random.getstate(), numpy.random.get_state(), torch.get_rng_state()
    saved_threads, saved_dtype = torch.get_num_threads(), torch.get_default_dtype()
    saved_locks = set(run_lock._held)
    root = logging.getLogger()
    saved_level = root.level
    # the CLIs' logging.basicConfig finds pytest's handlers and does nothing: its handler, once (a child run inside
    # a parent run writes to the same stderr)
    handler = None
    if not any(getattr(h, "fresh_process", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        handler.fresh_process = True
        root.addHandler(handler)
    os.environ.update(env or {})
    os.chdir(REPO_ROOT)
    root.setLevel(logging.INFO)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            for action, category, module in reversed(PYTHON_DEFAULT_FILTERS):
                warnings.filterwarnings(action, category=category, module=module)
            try:
                yield
            finally:
                for w in caught:
                    sys.stderr.write(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line))
                sys.stdout.flush()
                sys.stderr.flush()
    finally:
        if handler is not None:
            root.removeHandler(handler)
        root.setLevel(saved_level)
        for key in [key for key in run_lock._held if key not in saved_locks]:  # a process's end drops its locks
            run_lock._held.pop(key).release()
        torch.set_default_dtype(saved_dtype)
        torch.set_num_threads(saved_threads)
        random.setstate(saved_random[0])
        numpy.random.set_state(saved_random[1])
        torch.set_rng_state(saved_random[2])
        for signum, previous in saved_handlers.items():
            signal.signal(signum, previous)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_main(module: str, args: list[str], env: dict | None = None) -> int:
    """``python -m MODULE ARGS`` in this process: its ``main`` called with ``ARGS`` in a fresh process's state; the
    exit code (argparse's exits included). An exception that a new process would end on is raised here instead,
    failing the test with its traceback."""
    imported = importlib.import_module(module)
    if not hasattr(imported, "main"):  # python -m PACKAGE runs PACKAGE/__main__.py
        imported = importlib.import_module(f"{module}.__main__")
    main = imported.main
    with fresh_process_state(env):
        try:
            return main(list(args))
        except SystemExit as exit_:  # argparse's usage errors, --help
            return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)


def call_main(capfd, module: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """:func:`run_main`, with what it wrote to stdout and stderr (warnings included), as ``run_cli`` gives them."""
    capfd.readouterr()  # what the test wrote before is not the command's
    code = run_main(module, list(args), env)
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess([sys.executable, "-m", module, *args], code, out, err)


def in_process_child(command: list[str]) -> tuple[int, None]:
    """A stand-in for ``training.core.stop_signals.run_child_until_stopped`` that runs the supervised child
    (``python -m training.cli.warm_start ...``) in this process; its output goes where the child's would (the
    parent's stdout and stderr). The real child process: test_format_start.py and test_stop_on_signal.py."""
    assert command[0] == sys.executable and command[1:3] == ["-m", "training.cli.warm_start"], command
    return run_main(command[2], command[3:]), None


@pytest.fixture
def in_process(capfd):
    """``in_process("-m", MODULE, *ARGS, env=...)``: as ``run_cli`` for ``python -m``, but in this process."""

    def run(flag: str, module: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        assert flag == "-m", "only python -m MODULE runs in process"
        return call_main(capfd, module, *args, env=env)

    return run


def make_command(target: str, *variables: str) -> list[str]:
    """The ``python -m MODULE ARGS`` that ``make TARGET VARIABLES`` runs (from ``make -n``), as ["-m", MODULE, ARGS]:
    the Makefile's variables are checked by make itself, the command then runs in process."""
    lines = [line for line in make_dry_run(target, *variables).splitlines() if " -m training.cli." in line]
    assert len(lines) == 1, lines
    words = shlex.split(lines[0])
    assert words[0].endswith(".venv/bin/python") and words[1] == "-m", words
    return words[1:]


def forbid_model_load(monkeypatch) -> None:
    """From now on a training CLI that loads its model fails the test (in process, where "Loading weights" on stderr
    is not the only sign)."""

    importlib.import_module("training.cli.train")  # first: imported under the patch, it would keep the stand-in

    def load_policy(*args, **kwargs):
        raise AssertionError("the model was loaded: the check should have stopped the run before")

    monkeypatch.setattr("training.core.runs.load_policy", load_policy)  # warm_start imports it when it trains
    monkeypatch.setattr("training.cli.train.load_policy", load_policy)


@pytest.fixture
def no_model_load(monkeypatch):
    """:func:`forbid_model_load` for the whole test."""
    forbid_model_load(monkeypatch)
