"""scripts/analysis/ablation.py: issue 17 item 3's tables, built from the files under results/ (a number in a table is
the number in its file, not one written into the script), and the real run over the repository's results."""

import json
import time

from tests.conftest import REPO_ROOT
from tests.scripts import load_script

ablation = load_script("scripts/analysis/ablation.py")
STAGE_5 = tuple(c for c in ablation.COMPARISONS if c.key == "5")


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def _eval(grpo, name, stage_5, stage_1=0.99):
    rows = [
        {"task": "stage-1", "split": "validation", "n": 4, "nw_score": stage_1, "exact_match": 0.5, "label": "trained"},
        {
            "task": "stage-5",
            "split": "validation",
            "n": 4,
            "nw_score": stage_5,
            "exact_match": 0.25,
            "label": "trained",
        },
    ]
    _write(grpo / f"batch-26/scores/{name}-validation/eval.json", {"device": "NVIDIA H200", "rows": rows})


def fake_results(root, help_12m_score):
    """Stage 5's arms (batch 26): n5-eq (7 min of help), n5-grpo (n5-eq + 5 min of GRPO, 3 steps), n5-eq12 (12 min
    of help), and no file for the start (n4-eq3)."""
    grpo = root / "grpo"
    help_run = {"sft": {"learning_rate": 5e-4}, "device": "NVIDIA H200"}
    _write(grpo / "batch-26/n5-eq/summary.json", {**help_run, "wall_seconds": 420.0, "global_step": 1000})
    _write(grpo / "batch-26/n5-eq12/summary.json", {**help_run, "wall_seconds": 720.0, "global_step": 1800})
    grpo_run = {"grpo": {"learning_rate": 3e-5}, "device": "NVIDIA H100 80GB HBM3", "wall_seconds": 300.0}
    _write(grpo / "batch-26/n5-grpo/summary.json", {**grpo_run, "global_step": 3})
    (grpo / "batch-26/n5-grpo/metrics.jsonl").write_text(
        "".join(
            json.dumps({"global_step": i + 1, "frac_reward_zero_std": z}) + "\n"
            for i, z in enumerate([0.25, 0.5, 0.75])
        )
    )
    _eval(grpo, "n5-eq", 0.8)
    _eval(grpo, "n5-grpo", 0.85, stage_1=0.95)
    _eval(grpo, "n5-eq12", help_12m_score)
    return ablation.Results(root)


def _row(text, name):
    """The table row of run ``name``: its arm row, or the pair whose arm with GRPO it is."""
    starts = (f"| **{name}** |", f"| {name} |")
    return next(line for line in text.splitlines() if line.startswith(starts) or f"| {name}, batch" in line)


def test_a_score_and_minutes_flow_from_the_files_into_the_tables(tmp_path):
    for help_12m_score in (0.9123, 0.7777):
        results = fake_results(tmp_path / str(help_12m_score), help_12m_score)
        facts = ablation.gather(results, STAGE_5)
        arms = ablation.arms_table(results, STAGE_5, facts)
        row = _row(arms, "n5-eq12")
        assert f"| {help_12m_score:.3f} / 25.0% |" in row
        assert "| 12.0 |" in row  # 720 s of its summary.json
        assert "batch-26/scores/n5-eq12-validation/eval.json" in row
        grpo_row = _row(arms, "n5-grpo")
        assert "| 12.0 |" in grpo_row and "H100/H200" in grpo_row  # 420 s of help + 300 s of GRPO, two cards
        assert "GRPO 5.0 min (3 steps, lr 3e-05)" in grpo_row
        assert "| 0.50 |" in grpo_row  # the mean of the three steps' frac_reward_zero_std
        assert "not scored" in _row(arms, "n4-eq3")  # the start has no file here

        pairs = ablation.pairs_table(ablation.pair_facts(STAGE_5, facts))
        pair = _row(pairs, "n5-grpo")
        assert f"| {0.85 - help_12m_score:+.3f} |" in pair  # GRPO's share: n5-grpo - n5-eq12
        assert f"| {0.95 - 0.99:+.3f} |" in pair  # the same at 10 words
        assert "| +0.050 over n5-eq |" in pair  # GRPO on top of the help it started from
        assert f"| {help_12m_score - 0.8:+.3f} over n5-eq |" in pair


def test_the_readme_builds_on_a_tree_that_lacks_most_files(tmp_path):
    results = fake_results(tmp_path, 0.9)
    text = ablation.build_readme(results, comparisons=STAGE_5)
    assert "## Gaps" in text and "no file" in text
    assert "0.850 against 0.900 at 200 words, GRPO's share -0.050" in text


def test_the_real_run_over_the_repositorys_results_matches_the_committed_output(tmp_path):
    started = time.monotonic()
    assert ablation.main(["--out", str(tmp_path)]) == 0
    assert time.monotonic() - started < 20
    text = (tmp_path / "README.md").read_text()
    for plot in ablation.PLOTS:
        assert (tmp_path / plot).stat().st_size > 0 and f"]({plot})" in text
    grpo = REPO_ROOT / "results" / "grpo"
    n5_eq12 = json.loads((grpo / "batch-26/scores/n5-eq12-validation/eval.json").read_text())
    stage_5 = next(r for r in n5_eq12["rows"] if r["task"] == "stage-5")
    assert f"{stage_5['nw_score']:.3f} / {100 * stage_5['exact_match']:.1f}%" in _row(text, "n5-eq12")
    first_step = ablation.read_metrics(grpo / "batch-26/s6-chain")[0][0]["reward"]
    assert f"| s6-chain | 1 | {first_step:.4f} |" in text
    assert text == (grpo / "ablation" / "README.md").read_text()  # regenerate it with the script after any change


def test_a_card_is_named_short_and_a_run_on_two_cards_names_both_in_turn():
    assert ablation.device_name("NVIDIA H100 80GB HBM3") == "H100"
    assert ablation.device_name("one NVIDIA H100 80GB HBM3, then one NVIDIA H200") == "H100, then H200"
    assert ablation.device_name(None) == "?" and ablation.device_name("cpu") == "cpu"
