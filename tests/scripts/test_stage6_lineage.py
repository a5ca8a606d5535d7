"""scripts/analysis/stage6_lineage.py: stage 6's 500-word scores grouped by the stage 5 each adapter descends from,
read from the committed batches; every folder it names exists (a typo would otherwise show as "-")."""

from scripts.analysis import stage6_lineage as lineage


def test_every_named_score_folder_is_committed_and_has_a_stage_6_score():
    for name, batch, _, _, folders in lineage.ARMS:
        for split, folder in folders.items():
            assert lineage.stage6_score(batch, folder) is not None, f"{name} {split}: {folder}"


def test_the_table_groups_by_lineage_and_writes_each_arm(tmp_path):
    out = tmp_path / "lineage.md"
    assert lineage.main(["--out", str(out)]) == 0
    text = out.read_text()
    assert all(f"| {name} | {batch} |" in text for name, batch, *_ in lineage.ARMS)
    arms, by_lineage = lineage.table()
    assert set(by_lineage) == {lineage.EQ12, lineage.LONG, lineage.LONG5E4}
    assert len(by_lineage[lineage.LONG]["validation"]) == sum(
        1 for a in arms if a["lineage"] == lineage.LONG and a["validation"] is not None
    )


def test_a_folder_a_later_batch_scored_is_read_from_that_batch():
    assert lineage.stage6_score(30, (31, "idf-again-test")) == lineage.stage6_score(31, "idf-again-test")
    assert lineage.stage6_score(30, "no-such-folder") is None
