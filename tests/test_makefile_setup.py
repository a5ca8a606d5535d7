"""The Makefile's set-up, run against a stand-in venv whose pip only records what it installs: no NumPy warning."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.conftest import REPO_ROOT

# bin/python of the stand-in venv: `-m pip install X... [-r FILE]` records torch and numpy as installed;
# `-c CODE` runs the real interpreter with torch missing until "installed", and numpy missing until "installed".
SHIM = textwrap.dedent(f"""\
    #!{sys.executable}
    import os, subprocess, sys
    venv = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    installed = lambda name: os.path.exists(os.path.join(venv, name + ".installed"))
    args = sys.argv[1:]
    if args[:2] == ["-m", "pip"]:
        requirements = [args[i + 1] for i, arg in enumerate(args) if arg == "-r"]
        for arg in args + [line.strip() for path in requirements for line in open(path)]:
            for name in ("torch", "numpy"):
                if arg.startswith(name + "=="):
                    open(os.path.join(venv, name + ".installed"), "w").close()
        sys.exit(0)
    hide = [name for name in ("torch", "numpy") if not installed(name)]
    prelude = "import sys\\n" + "".join(f"sys.modules[{{n!r}}] = None\\n" for n in hide)
    if args and args[0] == "-c":
        sys.exit(subprocess.call([{sys.executable!r}, "-c", prelude + args[1], *args[2:]]))
    sys.exit(subprocess.call([{sys.executable!r}, *args]))
""")


def test_setup_installs_numpy_with_torch_so_importing_torch_warns_nothing(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(SHIM)
    (venv / "bin" / "python").chmod(0o755)
    proc = subprocess.run(
        ["make", "--no-print-directory", f"VENV={venv}", f"{venv}/.installed"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MAKEFLAGS": ""},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no torch importable: installing torch==" in proc.stdout  # the set-up path a fresh clone takes
    assert (venv / "torch.installed").exists() and (venv / "numpy.installed").exists()
    assert "NumPy" not in proc.stdout + proc.stderr, proc.stderr
