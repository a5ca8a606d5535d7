"""One flag style: underscores; the old hyphenated spelling of a project flag is still understood."""

from dataset_builders.cli_flags import underscore_flags


def test_hyphenated_flags_become_underscored_and_values_stay():
    assert underscore_flags(
        ["model", "--base-model", "me/base-model", "--runs-dir=runs/a-b", "-n", "3", "--stage", "2", "--"]
    ) == ["model", "--base_model", "me/base-model", "--runs_dir=runs/a-b", "-n", "3", "--stage", "2", "--"]


def test_both_spellings_parse_alike():
    from publishing.__main__ import parser

    old = parser().parse_args(underscore_flags(["model", "--stage", "1", "--runs-dir", "r", "--base-model", "x/y"]))
    new = parser().parse_args(underscore_flags(["model", "--stage", "1", "--runs_dir", "r", "--base_model", "x/y"]))
    assert vars(old) == vars(new) and str(new.runs_dir) == "r" and new.base_model == "x/y"
