"""scripts/analysis/symbolic_slip_forms.py: the forms of the code-like words answers first slip on."""

import importlib
import json

import pytest

from scripts.analysis import symbolic_slip_forms


@pytest.mark.parametrize(
    ("word", "form"),
    [
        ("https://example.com/kb.py?p='x'.", "URL"),
        ("\\sphinxboxsetup", "LaTeX"),
        ("{RGB}{32,32,32}", "LaTeX"),
        (":doc:/people`", "reST role or backticks"),
        (":ivar:", "reST role or backticks"),
        ("<prefix>_border-left-width,", "angle brackets"),
        ("timezone.FixedOffset", "code-like"),
        ("Wrapper::Outer", "code-like"),  # a C++ scope is not a role
        ("--a-b=3", "code-like"),
    ],
)
def test_each_form_is_read_from_the_word(word, form):
    assert symbolic_slip_forms.form(word) == form


def test_first_slips_are_counted_by_form_for_the_stages_asked(tmp_path):
    rows = [
        {"task": "stage-5", "first_slip_word": "\\usepackage{x}"},
        {"task": "stage-5", "first_slip_word": "snake_case"},
        {"task": "stage-5", "first_slip_word": "plain"},  # not symbolic
        {"task": "stage-5", "first_slip_word": None},  # no slip
        {"task": "stage-3", "first_slip_word": "https://x.org"},  # another stage
        {"task": "stage-5", "label": "baseline", "first_slip_word": "a.b"},  # not the trained adapter
    ]
    (tmp_path / "problems.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    counts = symbolic_slip_forms.count_forms(tmp_path, symbolic_slip_forms.stage_tasks("4-6"))
    assert counts["first_slips"] == 3 and counts["symbolic"] == 2
    assert counts["forms"] == {"LaTeX": 1, "code-like": 1}
    out = tmp_path / "forms.md"
    assert symbolic_slip_forms.main([str(tmp_path), "--stages", "4-6", "--out", str(out)]) == 0
    assert "| 3 | 2 | 0 | 1 | 0 | 0 | 1 |" in out.read_text()


@pytest.mark.parametrize("module", ["symbolic_slip_forms", "slip_hazard_by_word_kind"])
def test_a_stages_spec_the_eval_would_refuse_is_one_clear_message(module, tmp_path, capsys):
    """Both slip readers take --stages as the eval reads it (one parser): stage 7 or a word is a usage error."""
    main = importlib.import_module(f"scripts.analysis.{module}").main
    for bad in ("7", "four"):
        with pytest.raises(SystemExit) as stop:
            main([str(tmp_path), "--stages", bad])
        assert stop.value.code == 2 and "STAGES=" in capsys.readouterr().err
