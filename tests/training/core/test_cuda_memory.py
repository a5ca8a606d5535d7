"""The training entry points turn on PyTorch's expandable segments unless the user chose an allocator setting."""

import os

import pytest

from training.core.cuda_memory import EXPANDABLE, SETTING, allow_expandable_segments


def test_sets_expandable_segments_and_keeps_a_users_setting():
    environ = {}
    assert allow_expandable_segments(environ) == EXPANDABLE and environ == {SETTING: EXPANDABLE}
    theirs = {SETTING: "max_split_size_mb:128"}
    assert allow_expandable_segments(theirs) == "max_split_size_mb:128" and theirs == {SETTING: "max_split_size_mb:128"}


@pytest.mark.parametrize("module", ["training.cli.train", "training.cli.warm_start"])
def test_each_training_entry_point_sets_it_before_anything_else(module, monkeypatch, tmp_path):
    """Even a run that stops at its recipe has set it: main sets it first, before CUDA could start."""
    import importlib

    monkeypatch.delenv(SETTING, raising=False)
    main = importlib.import_module(module).main
    assert main(["--config", str(tmp_path / "no-such-recipe.yaml")]) == 2
    assert os.environ[SETTING] == EXPANDABLE
