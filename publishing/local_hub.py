"""A local stand-in for the Hub (``HUB=local``): each repo is a bare git repository laid out as olah serves it.

``<root>/<models|datasets|spaces>/<owner>/<name>`` holds one repo; publishing a folder to a branch writes one
commit whose tree is exactly the folder's files, the same files a push to the Hub uploads. The folder can be
served over the Hub HTTP API by :mod:`publishing.olah_server`, so ``load_dataset``, ``from_pretrained`` and
``evaluate.load`` read it by repo id. A Space's variables, which the Hub keeps in the Space's settings rather
than in its files, are written to ``<root>/space-variables/<owner>/<name>.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from publishing.hub import REPO_TYPES, HubError, Published
from publishing.repo_ids import checked_repo_id

AUTHOR = ("interleave-grpo publish", "publish@localhost")


def _git(*args: str, cwd: Path | None = None, env: dict | None = None, input: str | None = None) -> str:
    if shutil.which("git") is None:
        raise HubError("HUB=local writes git repositories, but no `git` command was found: install git")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    proc = subprocess.run(
        ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", *args],
        cwd=cwd,
        env={**base_env, **(env or {})},
        capture_output=True,
        text=True,
        input=input,
    )
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise HubError(f"git {args[0]} failed: {lines[-1] if lines else f'exit code {proc.returncode}'}")
    return proc.stdout.strip()


class LocalHub:
    """Publishes folders as commits into bare git repositories under ``root``."""

    name = "local"

    def __init__(self, root: Path):
        self.root = Path(root)

    def repo_path(self, repo_id: str, repo_type: str) -> Path:
        if repo_type not in REPO_TYPES:
            raise HubError(f"unknown repo type {repo_type!r}; one of {', '.join(REPO_TYPES)}")
        owner, name = checked_repo_id(repo_id).split("/")  # no '..' or separator can leave the hub's folder
        return self.root / f"{repo_type}s" / owner / name

    def url(self, repo_id: str, repo_type: str) -> str:
        return str(self.repo_path(repo_id, repo_type))

    def branches(self, repo_id: str, repo_type: str) -> list[str]:
        path = self.repo_path(repo_id, repo_type)
        if not path.exists():
            return []
        out = _git("for-each-ref", "--format=%(refname:short)", "refs/heads", cwd=path)
        return [line for line in out.splitlines() if line]

    def head(self, repo_id: str, repo_type: str, branch: str = "main") -> str | None:
        """The commit ``branch`` points at, or None."""
        path = self.repo_path(repo_id, repo_type)
        if not path.exists():
            return None
        try:
            return _git("rev-parse", "--verify", "-q", f"refs/heads/{branch}^{{commit}}", cwd=path)
        except HubError:
            return None

    def _init(self, path: Path) -> None:
        if not (path / "HEAD").exists():
            path.mkdir(parents=True, exist_ok=True)
            _git("init", "-q", "--bare", "--initial-branch=main", str(path))

    def publish_folder(
        self,
        folder: Path,
        repo_id: str,
        repo_type: str,
        branch: str = "main",
        message: str = "Upload",
        space_sdk: str | None = None,
    ) -> Published:
        """Commit exactly the files of ``folder`` onto ``branch`` (a new branch starts from ``main``, as on the Hub)."""
        path = self.repo_path(repo_id, repo_type).resolve()
        folder = Path(folder).resolve()
        self._init(path)
        parent = self.head(repo_id, repo_type, branch) or (self.head(repo_id, repo_type) if branch != "main" else None)
        with tempfile.TemporaryDirectory(prefix="local-hub-index-") as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index"), "GIT_DIR": str(path), "GIT_WORK_TREE": str(folder)}
            _git("add", "--all", "--force", ".", cwd=folder, env=env)
            tree = _git("write-tree", cwd=folder, env=env)
        same = parent is not None and _git("rev-parse", f"{parent}^{{tree}}", cwd=path) == tree
        commit = (
            parent
            if same
            else _git(
                "commit-tree",
                tree,
                *(["-p", parent] if parent else []),
                "--no-gpg-sign",
                "-F",
                "-",
                cwd=path,
                input=message,
                env={
                    "GIT_AUTHOR_NAME": AUTHOR[0],
                    "GIT_AUTHOR_EMAIL": AUTHOR[1],
                    "GIT_COMMITTER_NAME": AUTHOR[0],
                    "GIT_COMMITTER_EMAIL": AUTHOR[1],
                },
            )
        )
        _git("update-ref", f"refs/heads/{branch}", commit, cwd=path)
        return Published(repo_id, repo_type, branch, commit, f"{path} @ {branch}")

    def variables_path(self, repo_id: str) -> Path:
        """The JSON file holding the variables of Space ``repo_id`` (the Hub keeps them outside the repo's files)."""
        owner, name = self.repo_path(repo_id, "space").parts[-2:]
        return self.root / "space-variables" / owner / f"{name}.json"

    def set_space_variables(self, repo_id: str, variables: dict[str, str]) -> None:
        """Add or update the Space's variables (as ``add_space_variable`` does on the Hub)."""
        path = self.variables_path(repo_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**self.space_variables(repo_id), **variables}, indent=2, sort_keys=True) + "\n")

    def space_variables(self, repo_id: str) -> dict[str, str]:
        """The variables set on Space ``repo_id``; {} when none."""
        path = self.variables_path(repo_id)
        return json.loads(path.read_text()) if path.is_file() else {}
