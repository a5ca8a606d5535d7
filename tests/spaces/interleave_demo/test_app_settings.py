"""The app's settings and start-up: messages instead of tracebacks, the no-adapter status, the default choice."""

import pytest

from .launched_app import free_port


@pytest.fixture(scope="module")
def app():
    import app

    return app


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--base-model", "someone/missing-model"], "could not load the base model 'someone/missing-model'"),
        (["--base-model", "/no/such/folder"], "could not load the base model '/no/such/folder' (Repo id must be"),
        (["--adapters", "runs/stage-1/final"], "neither a folder pattern with {n}"),
        (["--max_words", "0"], "--max_words must be at least 1"),  # --base-model above: the old spelling works too
    ],
)
def test_bad_settings_stop_with_a_message(app, capsys, monkeypatch, args, message):
    monkeypatch.setattr(app, "build_demo", lambda state: pytest.fail("the app started despite bad settings"))
    assert app.main([*args, "--port", str(free_port())]) == 2  # a free port: the settings are what fails
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_status_and_choices_without_and_with_adapters(app, tiny_model_dir, tiny_stage_adapters, tmp_path):
    demo = app.Demo(
        app.settings_from(
            app.parse_args(["--base-model", str(tiny_model_dir), "--adapters", str(tmp_path / "stage-{n}")])
        )
    )
    assert "**No trained adapter found** in local folders" in demo.status()
    assert demo.model_choices() == [("base model (tiny-random-llama)", "base")] and demo.default_choice() == "base"

    demo.settings.adapters = app.parse_adapter_source(tiny_stage_adapters)
    demo.refresh()  # what a page load does: a stage written meanwhile appears
    assert "Stage adapters found in local folders" in demo.status() and "stage 1, 2." in demo.status()
    assert [value for _, value in demo.model_choices()] == ["base", "stage-1", "stage-2"]
    assert demo.default_choice() == "stage-2"  # the latest stage


def test_a_folder_that_is_no_model_is_named(app, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(app, "build_demo", lambda state: pytest.fail("the app started despite bad settings"))
    assert app.main(["--base-model", str(tmp_path), "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert f"could not load the base model '{tmp_path}'" in err and "config.json" in err
