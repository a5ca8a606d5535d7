"""Where publishing writes: huggingface.co (``HUB=hf``, the default) or a local git hub (``HUB=local``).

``HUB_USER`` is the namespace (user or organization) of every repo; the token comes from ``HF_TOKEN`` or a
saved ``hf auth login`` and is never taken from the command line, printed or written anywhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from publishing.hub import HubError, RemoteHub, resolve_token
from publishing.local_hub import LocalHub
from publishing.repo_ids import checked_namespace, checked_repo_id

DEFAULT_HUB_DIR = Path("dist/hub")
LOCAL_NAMESPACE = "local"
MODES = ("hf", "local")


@dataclass
class Destination:
    """A hub to publish to and the namespace of the repos."""

    hub: RemoteHub | LocalHub
    namespace: str

    def repo_id(self, name: str) -> str:
        """``name`` in the namespace, unless it already names one (``owner/name``); a HubError if not a valid id."""
        return checked_repo_id(name if "/" in name else f"{self.namespace}/{name}")


def destination(
    mode: str | None = None, user: str | None = None, hub_dir: Path | None = None, private: bool = False
) -> Destination:
    """The destination that the arguments, else ``HUB``, ``HUB_USER``, ``HUB_DIR`` and ``HF_TOKEN`` describe."""
    mode = (mode or os.environ.get("HUB") or "hf").strip().lower()
    source = "--user" if user else "HUB_USER"
    user = user or os.environ.get("HUB_USER") or None
    if user:
        checked_namespace(user, source)
    if mode == "local":
        root = Path(hub_dir or os.environ.get("HUB_DIR") or DEFAULT_HUB_DIR)
        return Destination(LocalHub(root), user or LOCAL_NAMESPACE)
    if mode != "hf":
        raise HubError(f"HUB={mode!r}: use HUB=hf (push to the Hub, the default) or HUB=local (write a local git hub)")
    missing = [] if user else ["HUB_USER (your Hub user or organization name)"]
    try:
        token = resolve_token()
    except HubError:
        token = None
        missing.append(
            "a token (set HF_TOKEN to a write token from https://huggingface.co/settings/tokens, "
            "or run `hf auth login`)"
        )
    if missing:
        raise HubError(
            f"publishing to the Hub needs {' and '.join(missing)}; or set HUB=local to write the repos "
            f"into a local git hub ({DEFAULT_HUB_DIR}/) instead"
        )
    return Destination(RemoteHub(token, private=private), user)
