"""Technical documentation: Django's documentation (reStructuredText in the sdist of PyPI ``Django``), one work
per document, converted to the text a reader sees (``rest.py``: code blocks and tables dropped)."""

from __future__ import annotations

import hashlib
import tarfile

from dataset_builders.corpus.rest import rest_paragraphs, rest_references
from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import FetchError, cache_dir, pip_download

PACKAGE = ("Django", "5.2.8", "23254866a5bb9a2cfa6004e8b809ec6246eba4b58a7589bc2772f1bcc8456c7f")
REGISTER = "technical"
LICENSE = "BSD-3-Clause (Copyright (c) Django Software Foundation and individual contributors)"
SKIPPED_FOLDERS = ("_ext/", "_theme/", "man/")


def read_docs_archive(sdist_path) -> tuple[dict[str, str], str]:
    """(``{document name: reST text}`` for every ``docs/**/*.txt`` of the sdist, the sdist's LICENSE text)."""
    documents, license_text = {}, ""
    with tarfile.open(sdist_path) as archive:
        for member in archive.getmembers():
            parts = member.name.split("/", 2)
            if member.isfile() and len(parts) == 2 and parts[1] == "LICENSE":
                license_text = archive.extractfile(member).read().decode("utf-8")
            if not member.isfile() or len(parts) < 3 or parts[1] != "docs" or not parts[2].endswith(".txt"):
                continue
            name = parts[2][:-4]
            if name.startswith(SKIPPED_FOLDERS):
                continue
            documents[name] = archive.extractfile(member).read().decode("utf-8")
    if not documents or not license_text:
        raise FetchError(f"{sdist_path.name} holds no docs/*.txt documents or no LICENSE")
    return documents, license_text


def docs_works(documents: dict[str, str]) -> list[Work]:
    """One work per document, its ``:ref:`` and ``:doc:`` targets shown as the titles they point at."""
    references: dict[str, str] = {}
    titles = {}
    for name, text in documents.items():
        title, labels = rest_references(text)
        titles[name] = title or name
        references.update(labels)
        references[f"doc:{name}"] = titles[name]
    works = []
    for name, text in sorted(documents.items()):
        paragraphs = rest_paragraphs(text, references, doc=name)
        if paragraphs:
            works.append(Work(f"django-docs/{name}", "django-docs", titles[name], (tuple(paragraphs),), REGISTER))
    return works


def read_django_docs() -> SourceResult:
    """Django's documentation from the hash-pinned sdist of PyPI ``Django`` (downloaded, never installed)."""
    name, version, sha256 = PACKAGE
    sdist = pip_download(name, version, sha256, cache_dir("downloads"), sdist=True)
    documents, license_text = read_docs_archive(sdist)
    result = SourceResult(
        "django-docs",
        origin=f"PyPI {name}=={version} (sdist, docs/)",
        register=REGISTER,
        license=LICENSE,
        license_text=license_text,
    )
    for doc, text in sorted(documents.items()):
        result.files[f"django-docs/{doc}.txt"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    result.works = docs_works(documents)
    return result
