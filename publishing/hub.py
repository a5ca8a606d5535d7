"""The one module that talks to the Hugging Face Hub: create repos and branches, upload folders, list branches,
set a Space's variables.

Every artifact the project publishes (datasets, the metric Space, stage checkpoints, the demo Space) and the
branch that training pushes to go through :class:`RemoteHub`. Errors never contain the token: a failure
becomes one :class:`HubError` line with the token masked.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

REPO_TYPES = ("model", "dataset", "space")


class HubError(RuntimeError):
    """Publishing failed or cannot start; the message says what to do and never contains the token."""


@dataclass(frozen=True)
class Published:
    """One commit written to a repo branch."""

    repo_id: str
    repo_type: str
    branch: str
    commit: str  # the commit id (sha)
    url: str  # where a person looks at it


def resolve_token(token: str | None = None) -> str:
    """The token to push with: the one given, else ``HF_TOKEN`` or a saved ``hf auth login``."""
    from huggingface_hub import get_token

    token = token or get_token()
    if not token:
        raise HubError(
            "pushing to the Hub needs a token: set HF_TOKEN (a write token from "
            "https://huggingface.co/settings/tokens) or run `hf auth login`"
        )
    return token


def masked(text: str, token: str | None) -> str:
    """``text`` with every occurrence of ``token`` replaced by ``***``."""
    return text.replace(token, "***") if token else text


def hub_error(action: str, exc: Exception, token: str | None) -> HubError:
    """One line about a failed Hub call: what was attempted, the exception type and its first line."""
    detail = masked(str(exc), token).strip()
    first_line = detail.splitlines()[0] if detail else ""
    return HubError(f"could not {action}: {type(exc).__name__}: {first_line}")


def repo_url(endpoint: str, repo_id: str, repo_type: str) -> str:
    """The web address of a repo (``https://huggingface.co/datasets/me/x``)."""
    prefix = "" if repo_type == "model" else f"{repo_type}s/"
    return f"{endpoint.rstrip('/')}/{prefix}{repo_id}"


class RemoteHub:
    """Publishes folders to huggingface.co (or the endpoint in ``HF_ENDPOINT``) with ``huggingface_hub``."""

    name = "hf"

    def __init__(self, token: str, private: bool = False):
        from huggingface_hub import HfApi, constants

        self.token = token
        self.private = private
        self.endpoint = constants.ENDPOINT
        self.api = HfApi(token=token)

    def url(self, repo_id: str, repo_type: str) -> str:
        return repo_url(self.endpoint, repo_id, repo_type)

    def branches(self, repo_id: str, repo_type: str) -> list[str]:
        """The branch names of a repo; [] when it does not exist yet."""
        from huggingface_hub.errors import RepositoryNotFoundError

        try:
            refs = self.api.list_repo_refs(repo_id, repo_type=repo_type)
        except RepositoryNotFoundError:
            return []
        except Exception as exc:  # noqa: BLE001 - any Hub failure becomes one clear message
            raise hub_error(f"list the branches of {repo_id}", exc, self.token) from None
        return [b.name for b in refs.branches]

    def ensure_branch(self, repo_id: str, repo_type: str, branch: str, space_sdk: str | None = None) -> None:
        """Create the repo (if needed) and the branch (from ``main``, if needed)."""
        try:
            self.api.create_repo(
                repo_id,
                repo_type=repo_type,
                private=self.private,
                exist_ok=True,
                **({"space_sdk": space_sdk} if repo_type == "space" else {}),
            )
            if branch != "main":  # upload_folder(revision=...) to a branch that does not exist fails
                self.api.create_branch(repo_id, branch=branch, repo_type=repo_type, exist_ok=True)
        except Exception as exc:  # noqa: BLE001
            raise hub_error(f"create {repo_type} repo {repo_id} (branch {branch})", exc, self.token) from None

    def publish_folder(
        self,
        folder: Path,
        repo_id: str,
        repo_type: str,
        branch: str = "main",
        message: str = "Upload",
        space_sdk: str | None = None,
    ) -> Published:
        """Make ``branch`` of ``repo_id`` hold exactly the files of ``folder`` (plus the Hub's .gitattributes)."""
        if repo_type not in REPO_TYPES:
            raise HubError(f"unknown repo type {repo_type!r}; one of {', '.join(REPO_TYPES)}")
        self.ensure_branch(repo_id, repo_type, branch, space_sdk)
        try:
            info = self.api.upload_folder(
                folder_path=str(folder),
                repo_id=repo_id,
                repo_type=repo_type,
                revision=branch,
                commit_message=message,
                delete_patterns="*",
            )
        except Exception as exc:  # noqa: BLE001
            raise hub_error(f"upload {folder} to {repo_id}@{branch}", exc, self.token) from None
        return Published(
            repo_id,
            repo_type,
            branch,
            getattr(info, "oid", "") or "",
            getattr(info, "commit_url", None) or self.url(repo_id, repo_type),
        )

    def set_space_variables(self, repo_id: str, variables: dict[str, str]) -> None:
        """Set the Space's variables (environment variables of the running Space), one ``add_space_variable`` each."""
        for key, value in variables.items():
            try:
                self.api.add_space_variable(repo_id, key, value)
            except Exception as exc:  # noqa: BLE001
                raise hub_error(f"set the variable {key} of Space {repo_id}", exc, self.token) from None
