"""run_format_start: the supervised recipe a stage names trains a fresh adapter once; a rerun reuses it; mistakes
stop with a message."""

import pytest

from training.core.arguments import RECIPES_DIR, RecipeError
from training.core.format_start import format_start_recipe, names_recipe, run_format_start


def test_the_format_start_trains_once_then_is_reused(tiny_model_dir, tmp_path, capsys, monkeypatch):
    """Its child, python -m training.cli.warm_start, trains in this process (tests/in_process.py; the child in a
    process of its own: test_stop_on_signal.py's format start, and the long test_train_run.py test)."""
    from tests.in_process import in_process_child

    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", in_process_child)
    recipe = tmp_path / "tiny-format-start.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\n"
        "max_steps: 2\nper_device_train_batch_size: 4\nlogging_steps: 1\n"
    )
    run = tmp_path / "run"
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(RecipeError, match="runs in one process: train it first with `make warm-start"):
        run_format_start(str(recipe), "tiny-random-llama", run, "none")
    monkeypatch.delenv("WORLD_SIZE")

    adapter, record = run_format_start(str(recipe), "tiny-random-llama", run, "none")
    assert adapter == run / "format-start" / "final" and (adapter / "adapter_model.safetensors").is_file()
    assert record["steps"] == 2 and record["recipe"] == str(recipe) and record["wall_seconds"] > 0
    assert "format start done in" in capsys.readouterr().out

    monkeypatch.setenv("WORLD_SIZE", "2")  # reusing needs no training, so no single process either
    again, record_again = run_format_start(str(recipe), "tiny-random-llama", run, "none")
    assert (again, record_again) == (adapter, record)
    assert f"format start: reusing {adapter}/" in capsys.readouterr().out


def test_none_turns_a_recipes_format_start_or_help_off():
    """`--format_start none` (like `--supervised_help none`) leaves a fresh adapter to GRPO; a name is a recipe."""
    assert [names_recipe(v) for v in (None, "", "none")] == [False, False, False]
    assert names_recipe("sft-format-start") and names_recipe("my/recipe.yaml")


def test_a_format_start_names_a_recipe(tmp_path):
    assert format_start_recipe("sft-format-start") == RECIPES_DIR / "sft-format-start.yaml"
    with pytest.raises(RecipeError, match="format_start 'no-such-recipe': no recipe"):
        format_start_recipe("no-such-recipe")
    with pytest.raises(RecipeError, match="no recipe"):
        format_start_recipe(str(tmp_path / "missing.yaml"))


def test_a_stage_supervised_help_continues_its_start_and_is_bounded(tiny_model_dir, tmp_path, capsys, monkeypatch):
    """The start and the help each train their child, here in this process (tests/in_process.py), as above."""
    from tests.in_process import in_process_child
    from training.core.format_start import run_supervised_help

    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", in_process_child)

    recipe = tmp_path / "tiny-help.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: 2\nper_device_train_batch_size: 4\n"
        "logging_steps: 1\n"
    )
    start, _ = run_format_start(str(recipe), "tiny-random-llama", tmp_path / "stage-1", "none")
    run = tmp_path / "stage-2"
    adapter, record = run_supervised_help(str(recipe), "tiny-random-llama", run, "none", start)
    assert adapter == run / "supervised-help" / "final" and (adapter / "adapter_model.safetensors").is_file()
    assert record["from"] == str(start) and record["steps"] == 2 and record["wall_seconds"] > 0
    assert f"supervised help: continuing {start}/" in capsys.readouterr().out

    again, record_again = run_supervised_help(str(recipe), "tiny-random-llama", run, "none", start)
    assert (again, record_again) == (adapter, record)
    with pytest.raises(RecipeError, match="trained from .* but this run starts from a fresh adapter"):
        run_supervised_help(str(recipe), "tiny-random-llama", run, "none", None)

    unbounded = tmp_path / "unbounded.yaml"
    unbounded.write_text(f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_train_minutes: null\n")
    with pytest.raises(RecipeError, match="sets no max_train_minutes"):
        run_supervised_help(str(unbounded), "tiny-random-llama", tmp_path / "other", "none", start)
    with pytest.raises(RecipeError, match="supervised_help 'no-such-recipe': no recipe"):
        run_supervised_help("no-such-recipe", "tiny-random-llama", tmp_path / "other", "none", start)


def _help_recipe(folder, name: str, steps: int, minutes: str = "1"):
    """A help recipe over sft-format-start (``steps`` steps, bounded by ``minutes``; "null": unbounded)."""
    recipe = folder / f"{name}.yaml"
    recipe.write_text(
        f"base: {RECIPES_DIR / 'sft-format-start.yaml'}\nmax_steps: {steps}\nmax_train_minutes: {minutes}\n"
    )
    return recipe


@pytest.fixture
def fake_child(monkeypatch):
    """The help's child processes replaced by tests/training/fake_warm_start.py's stand-in."""
    from tests.training.fake_warm_start import FakeWarmStart

    fake = FakeWarmStart()
    monkeypatch.setattr("training.core.format_start.run_child_until_stopped", fake)
    return fake


def test_a_help_of_two_parts_trains_them_in_turn_each_from_the_one_before(tmp_path, fake_child, capsys, monkeypatch):
    """``supervised_help: a, b``: a continues the stage's start in supervised-help/, b continues a's final adapter in
    supervised-help-2/; the record keeps a single help's keys over the whole and each part's own under parts."""
    from training.core.format_start import run_supervised_help

    first, second = _help_recipe(tmp_path, "first", 3), _help_recipe(tmp_path, "second", 5)
    start, run = tmp_path / "stage-5" / "final", tmp_path / "stage-6"
    monkeypatch.setenv("WORLD_SIZE", "2")  # by hand, part by part: after the first, the run names the rest
    with pytest.raises(RecipeError, match=f"INIT_ADAPTER=runs/first/final and --supervised_help {second}$"):
        run_supervised_help(f"{first},{second}", "tiny-random-llama", run, "none", start)
    monkeypatch.delenv("WORLD_SIZE")
    adapter, record = run_supervised_help(f"{first} , {second}", "tiny-random-llama", run, "none", start)
    one, two = run / "supervised-help" / "final", run / "supervised-help-2" / "final"
    assert fake_child.calls == [
        (str(first), run / "supervised-help", str(start)),
        (str(second), run / "supervised-help-2", str(one)),
    ]
    assert adapter == two
    parts = [
        {"recipe": str(first), "adapter": str(one), "from": str(start), "steps": 3, "wall_seconds": 18.0},
        {"recipe": str(second), "adapter": str(two), "from": str(one), "steps": 5, "wall_seconds": 30.0},
    ]
    assert record == {
        "recipe": f"{first},{second}",
        "adapter": str(two),
        "from": str(start),
        "steps": 8,
        "wall_seconds": 48.0,
        "device": "cpu",
        "parts": [{**part, "device": "cpu"} for part in parts],
    }
    out = capsys.readouterr().out
    assert f"supervised help part 1 of 2: continuing {start}/" in out and f"part 2 continues {one}/" in out
    assert f"supervised help part 2 of 2: continuing {one}/" in out and f"GRPO starts from {two}/" in out


def test_a_help_interrupted_between_parts_reuses_the_first_and_trains_the_second(tmp_path, fake_child, capsys):
    """A rerun after part 2 failed reuses part 1 and trains part 2 from it; a part whose folder holds an adapter
    trained from another start than the part before's final one stops the run."""
    from training.core.format_start import run_supervised_help

    first, second = _help_recipe(tmp_path, "first", 3), _help_recipe(tmp_path, "second", 5)
    start, run = tmp_path / "stage-5" / "final", tmp_path / "stage-6"
    help_list = f"{first},{second}"
    fake_child.fail = ("second",)
    with pytest.raises(RecipeError, match="the supervised help part 2 of 2 failed"):
        run_supervised_help(help_list, "tiny-random-llama", run, "none", start)
    fake_child.fail, fake_child.calls = (), []
    adapter, record = run_supervised_help(help_list, "tiny-random-llama", run, "none", start)
    one = run / "supervised-help" / "final"
    assert fake_child.calls == [(str(second), run / "supervised-help-2", str(one))]  # part 1 not trained again
    assert f"supervised help part 1 of 2: reusing {one}/" in capsys.readouterr().out
    assert [p["steps"] for p in record["parts"]] == [3, 5] and adapter == run / "supervised-help-2" / "final"

    fake_child.calls = []
    again = run_supervised_help(help_list, "tiny-random-llama", run, "none", start)
    assert again == (adapter, record) and fake_child.calls == []
    summary = run / "supervised-help-2" / "results" / "summary.json"  # as if part 2 had continued another adapter
    summary.write_text(summary.read_text().replace(str(one), str(start)))
    with pytest.raises(
        RecipeError, match=f"supervised-help-2/ holds a supervised help part 2 of 2 trained from {start}"
    ):
        run_supervised_help(help_list, "tiny-random-llama", run, "none", start)


def test_every_part_of_a_help_is_checked_before_any_trains(tmp_path, fake_child):
    """A missing, unbounded or empty part stops the help before its first part trains, naming the part."""
    from training.core.format_start import help_parts, run_supervised_help

    first = _help_recipe(tmp_path, "first", 3)
    unbounded = _help_recipe(tmp_path, "unbounded", 3, minutes="null")
    cases = [
        (f"{first},no-such-recipe", "supervised_help part 2 of 2 'no-such-recipe': no recipe"),
        (f"{first}, {unbounded}", f"supervised_help part 2 of 2 '{unbounded}': its recipe .* sets no max_train_min"),
        (f"{first},,{first}", "an empty part"),
        (f"{first},", "an empty part"),
    ]
    for value, message in cases:
        with pytest.raises(RecipeError, match=message):
            run_supervised_help(value, "tiny-random-llama", tmp_path / "run", "none", None)
    assert fake_child.calls == [] and not (tmp_path / "run").exists()
    assert [name for name, _ in help_parts(f"{first},{first}")] == [str(first)] * 2  # a repeated part trains again
    stage_6 = help_parts("sft-stage-6-help-long-texts, sft-stage-6-help-identifiers")  # both parts bounded in time
    assert [recipe.name for _, recipe in stage_6] == [
        "sft-stage-6-help-long-texts.yaml",
        "sft-stage-6-help-identifiers.yaml",
    ]


def test_a_part_trained_by_another_recipe_is_not_reused_under_this_ones_name(tmp_path, fake_child):
    """A rerun whose list names other recipes (here the parts swapped) stops at the first folder another recipe
    trained, rather than reusing its adapter and recording this run's recipe for it; a folder from before the recipe
    was written down (no recipe.txt) is reused as before."""
    from training.core.format_start import RECIPE_FILE, run_supervised_help

    first, second = _help_recipe(tmp_path, "first", 3), _help_recipe(tmp_path, "second", 5)
    start, run = tmp_path / "stage-5" / "final", tmp_path / "stage-6"
    run_supervised_help(f"{first},{second}", "tiny-random-llama", run, "none", start)
    assert (run / "supervised-help" / RECIPE_FILE).read_text() == f"{first}\n"
    with pytest.raises(RecipeError, match=f"supervised-help/ holds a supervised help part 1 of 2 trained by {first}"):
        run_supervised_help(f"{second},{first}", "tiny-random-llama", run, "none", start)
    (run / "supervised-help" / RECIPE_FILE).unlink()
    fake_child.calls = []
    with pytest.raises(RecipeError, match="supervised-help-2/ holds a supervised help part 2 of 2 trained by"):
        run_supervised_help(f"{second},{first}", "tiny-random-llama", run, "none", start)
    assert fake_child.calls == []


def test_a_helps_devices_are_named_in_the_parts_order():
    """The combined record names each part's card in turn, a card again where it follows another; none if a part's
    card is not known (the model card then names none rather than a wrong one)."""
    from training.core.format_start import combined_help_record

    def record(*devices):
        parts = [{"recipe": "r", "adapter": "a", "from": None, "steps": 1, "wall_seconds": 1.0, "device": d}
                 for d in devices]  # fmt: skip
        return combined_help_record(parts)["device"]

    assert record("H100", "H100") == "H100" and record("H100", "H200") == "H100, H200"
    assert record("H100", "H200", "H100") == "H100, H200, H100" and record("H200", None) is None


def test_a_part_after_one_trained_again_is_not_reused(tmp_path, fake_child):
    """Part 1's folder removed (as the messages above advise) and trained again: part 2's adapter, at the same path
    as its start, came from the part 1 before, so the run stops at it rather than reuse it."""
    import shutil

    from training.core.format_start import run_supervised_help

    first, second = _help_recipe(tmp_path, "first", 3), _help_recipe(tmp_path, "second", 5)
    start, run = tmp_path / "stage-5" / "final", tmp_path / "stage-6"
    run_supervised_help(f"{first},{second}", "tiny-random-llama", run, "none", start)
    shutil.rmtree(run / "supervised-help")
    fake_child.calls = []
    with pytest.raises(RecipeError, match="supervised-help-2/ holds a supervised help part 2 of 2 trained before part"):
        run_supervised_help(f"{first},{second}", "tiny-random-llama", run, "none", start)
    assert [folder.name for _, folder, _ in fake_child.calls] == ["supervised-help"]  # part 1 trained, part 2 not
