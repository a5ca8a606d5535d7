"""Where the demo's models come from: the base model, and the stage adapters (local folders or Hub branches, and in
the checkout the adapter shipped with the project)."""

from __future__ import annotations

import glob
import json
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

EMBEDDED_MODEL = "smollm2-135m-instruct"  # the cache folder `make model` converts the embedded GGUF into
HUB_BASE_MODEL = "HuggingFaceTB/SmolLM2-135M-Instruct"  # the same model on the Hub, when no converted copy is here
ADAPTER_PATTERN = "runs/stage-{n}/final"  # where `make train-stage N=...` writes each stage's adapter
# The adapter the checkout ships, and the file that says its stage (model_cards/shipped_adapter.py; the Space imports
# nothing of the project beyond what vendor.txt lists, so it reads the file itself). Not part of a published Space.
SHIPPED_ADAPTER = "adapters/shipped"
SHIPPED_PROVENANCE = "provenance.json"
STAGE_BRANCH = re.compile(r"^stage-(\d+)$")


class ModelSourceProblem(ValueError):
    """A base model or adapter source that cannot be used; the message says what to set instead."""


def _embedded_model_folder() -> Path:
    cache = os.environ.get("INTERLEAVE_GRPO_CACHE") or Path.home() / ".cache" / "interleave-grpo"
    return Path(cache) / "models" / EMBEDDED_MODEL


def default_base_model() -> str:
    """``INTERLEAVE_DEMO_BASE_MODEL``, else the converted embedded model when present, else its Hub id."""
    chosen = os.environ.get("INTERLEAVE_DEMO_BASE_MODEL", "").strip()
    if chosen:
        return chosen
    folder = _embedded_model_folder()
    return str(folder) if (folder / "config.json").is_file() else HUB_BASE_MODEL


@dataclass(frozen=True)
class Adapter:
    """One stage checkpoint: a LoRA adapter in a local folder, or on a branch of a Hub model repo."""

    stage: int
    location: str  # a folder, or a Hub repo id
    revision: str | None = None  # the Hub branch, None for a folder
    shipped: bool = False  # the adapter shipped with the project

    @property
    def key(self) -> str:
        """The dropdown value: ``stage-N``."""
        return f"stage-{self.stage}"

    @property
    def label(self) -> str:
        if self.shipped:
            return f"stage {self.stage} adapter shipped with the project ({SHIPPED_ADAPTER})"
        where = f"{self.location}@{self.revision}" if self.revision else self.location
        return f"stage {self.stage} adapter ({where})"


@dataclass(frozen=True)
class AdapterSource:
    """A pattern of local folders with ``{n}`` for the stage, a Hub model repo with ``stage-N`` branches, or none."""

    kind: str  # "local", "hub" or "none"
    spec: str
    shipped: str = ""  # the shipped adapter's folder, offered when the local folders hold no stage ("": none)

    def describe(self) -> str:
        if self.kind == "local":
            return f"local folders `{self.spec}`"
        if self.kind == "hub":
            return f"the `stage-N` branches of the Hub model repo `{self.spec}`"
        return "no adapter source (INTERLEAVE_DEMO_ADAPTERS=none)"

    def find(self) -> list[Adapter]:
        """The adapters this source holds now, by stage."""
        if self.kind == "local":
            found = _local_adapters(self.spec)
            shipped = shipped_adapter(self.shipped) if self.shipped and not found else None
            return [shipped] if shipped else found
        if self.kind == "hub":
            return _hub_adapters(self.spec)
        return []


def parse_adapter_source(spec: str, base_dir: Path | None = None) -> AdapterSource:
    """``none``, a folder pattern with ``{n}`` (relative ones under ``base_dir``, default the working folder), or a
    Hub repo id."""
    spec = spec.strip()
    if spec.lower() in ("", "none", "off"):
        return AdapterSource("none", "")
    if "{n}" in spec:
        path = Path(spec).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return AdapterSource("local", str(path))
    if spec.count("/") == 1 and not Path(spec).exists() and re.fullmatch(r"[\w.-]+/[\w.-]+", spec):
        return AdapterSource("hub", spec)
    raise ModelSourceProblem(
        f"adapter source {spec!r} is neither a folder pattern with {{n}} for the stage "
        f"(like {ADAPTER_PATTERN!r}), a Hub model repo id 'owner/name', nor 'none'"
    )


def _provenance(folder: Path) -> dict | None:
    """The shipped adapter's provenance, or None (and a warning) when it cannot be read."""
    try:
        provenance = json.loads((folder / SHIPPED_PROVENANCE).read_text(encoding="utf-8"))
        stage = provenance["stage"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.warning("the shipped adapter %s has no readable %s (%s): not offered", folder, SHIPPED_PROVENANCE, exc)
        return None
    if not isinstance(stage, int) or isinstance(stage, bool) or stage < 1:
        logger.warning("the shipped adapter %s names no stage (%r): not offered", folder, stage)
        return None
    return provenance


def shipped_adapter(folder: str) -> Adapter | None:
    """The adapter shipped with the project in ``folder``, as the stage its provenance names; None if absent."""
    path = Path(folder)
    if not (path / "adapter_config.json").is_file():
        return None
    provenance = _provenance(path)
    return Adapter(provenance["stage"], str(path), shipped=True) if provenance else None


def shipped_adapter_for(base_dir: Path, base_model: str) -> str:
    """The shipped adapter's folder in the checkout ``base_dir`` when it was trained on ``base_model`` (its
    provenance names the base model's Hub id), else ""."""
    folder = Path(base_dir) / SHIPPED_ADAPTER
    if not (folder / "adapter_config.json").is_file():
        return ""
    provenance = _provenance(folder)
    hub_id = HUB_BASE_MODEL if Path(base_model.rstrip("/")).name == EMBEDDED_MODEL else base_model
    if provenance is None or provenance.get("base_model") != hub_id:
        return ""
    return str(folder)


def _local_adapters(pattern: str) -> list[Adapter]:
    head, _, tail = pattern.partition("{n}")
    number = re.compile(re.escape(head) + r"(\d+)" + re.escape(tail))
    found = {}
    for folder in glob.glob(glob.escape(head) + "*" + glob.escape(tail)):
        parsed = number.fullmatch(folder)
        if parsed and Path(folder, "adapter_config.json").is_file():
            found[int(parsed.group(1))] = Adapter(int(parsed.group(1)), folder)
    return [found[n] for n in sorted(found)]


def _hub_adapters(repo_id: str) -> list[Adapter]:
    """``stage-N`` branches of ``repo_id``: asked of the Hub, or, offline, read from the local Hub cache."""
    from huggingface_hub import HfApi, constants

    branches: list[str] = []
    if not constants.HF_HUB_OFFLINE:
        try:
            branches = [ref.name for ref in HfApi().list_repo_refs(repo_id).branches]
        except Exception as exc:  # network, auth or a missing repo: say so, then try the cache
            logger.warning(
                "could not list the branches of %s on the Hub (%s: %s); looking in the local cache",
                repo_id,
                type(exc).__name__,
                str(exc).splitlines()[0] if str(exc) else "",
            )
    if not branches:
        branches = _cached_branches(repo_id)
    stages = sorted(int(m.group(1)) for m in map(STAGE_BRANCH.match, branches) if m)
    return [Adapter(n, repo_id, f"stage-{n}") for n in stages]


def _cached_branches(repo_id: str) -> list[str]:
    from huggingface_hub import constants

    refs = Path(constants.HF_HUB_CACHE) / f"models--{repo_id.replace('/', '--')}" / "refs"
    return sorted(p.name for p in refs.iterdir() if p.is_file()) if refs.is_dir() else []


def adapter_folder(adapter: Adapter) -> str:
    """A local folder holding the adapter's files (a Hub branch is downloaded, or taken from the cache offline)."""
    if adapter.revision is None:
        return adapter.location
    from huggingface_hub import snapshot_download

    try:
        return snapshot_download(adapter.location, revision=adapter.revision)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelSourceProblem(f"could not download {adapter.label}: {first}") from None
