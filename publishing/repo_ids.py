"""Repo ids checked as the Hub checks them, before any of them names a folder or a request."""

from __future__ import annotations

from huggingface_hub.errors import HFValidationError
from huggingface_hub.utils import validate_repo_id

from publishing.hub import HubError

NAME_RULES = (
    "letters, digits, '-', '_' and '.', at most 96 characters, not starting or ending with '-' or '.', "
    "no '--' or '..', not ending in '.git'"
)


def checked_repo_id(repo_id: str) -> str:
    """``repo_id`` if it is a valid ``owner/name`` Hub id (huggingface_hub's own rules), else a HubError."""
    try:
        validate_repo_id(repo_id)
    except HFValidationError:
        raise HubError(f"{repo_id!r} is not a valid Hub repo id 'owner/name': each part takes {NAME_RULES}") from None
    if not isinstance(repo_id, str) or repo_id.count("/") != 1:
        raise HubError(f"{repo_id!r} is not a Hub repo id 'owner/name'")
    return repo_id


def checked_namespace(namespace: str, source: str = "HUB_USER") -> str:
    """``namespace`` if it is a valid Hub user or organization name, else a HubError naming ``source``."""
    try:
        validate_repo_id(namespace)
    except HFValidationError:
        pass
    else:
        if "/" not in namespace:
            return namespace
    raise HubError(f"{source}={namespace!r} is not a Hub user or organization name: it takes {NAME_RULES}")
