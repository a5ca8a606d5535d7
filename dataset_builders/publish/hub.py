"""The one place that talks to the Hugging Face Hub: create a dataset repo and upload a folder to it."""

from __future__ import annotations

from pathlib import Path


class HubError(RuntimeError):
    """Pushing to the Hub failed; the message never contains the token."""


def resolve_token(token: str | None) -> str:
    """The token to push with: the one given, else ``HF_TOKEN`` or a saved ``hf auth login``."""
    from huggingface_hub import get_token

    token = token or get_token()
    if not token:
        raise HubError("pushing needs a Hub token: pass --token, set HF_TOKEN, or run `hf auth login`")
    return token


def push_folder(folder: Path, repo_id: str, token: str, private: bool = False, message: str = "Upload dataset") -> str:
    """Create the dataset repo ``repo_id`` if needed and upload ``folder`` to it; return the commit URL."""
    from huggingface_hub import HfApi

    try:
        api = HfApi(token=token)
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        info = api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset", commit_message=message)
    except Exception as exc:  # noqa: BLE001 - any Hub failure becomes one clear message
        detail = (str(exc).replace(token, "***") if token else str(exc)).strip()
        first_line = detail.splitlines()[0] if detail else ""
        raise HubError(f"could not push {folder} to {repo_id}: {type(exc).__name__}: {first_line}") from None
    return getattr(info, "commit_url", str(info))
