import gzip
import json
import random

import pytest

from training.callbacks.completion_log import CompletionLog, TornMember, completion_log_stats, main, read_completion_log


def _records(step, n=4):
    return [{"prompt": f"p{step}-{i}", "completion": f"c{step}-{i} ünïcode", "reward": i / n} for i in range(n)]


def test_every_completion_is_kept_and_plain_gzip_reads_it(tmp_path):
    log = CompletionLog(tmp_path / "run" / "completions.jsonl.gz")
    for step in range(1, 6):
        log.write_step(step, _records(step))
    records = list(read_completion_log(log.path))
    assert [(r["step"], r["completion"]) for r in records] == [
        (s, f"c{s}-{i} ünïcode") for s in range(1, 6) for i in range(4)
    ]
    assert all(isinstance(r["time"], float) for r in records)
    with gzip.open(log.path, "rt", encoding="utf-8") as handle:  # standard tools read the multi-member file
        assert [json.loads(line)["prompt"] for line in handle] == [r["prompt"] for r in records]


def test_a_crash_mid_write_loses_only_the_torn_step(tmp_path):
    log = CompletionLog(tmp_path / "completions.jsonl.gz")
    log.write_step(1, _records(1))
    log.write_step(2, _records(2))
    size_after_two = log.path.stat().st_size
    log.write_step(3, _records(3, n=200))
    with open(log.path, "r+b") as handle:  # cut the third member in half, as a kill -9 during write would
        handle.truncate(size_after_two + (log.path.stat().st_size - size_after_two) // 2)
    assert [r["step"] for r in read_completion_log(log.path)] == [1] * 4 + [2] * 4


def _tear_last_member(path, size_before):
    with open(path, "r+b") as handle:  # cut the last member in half, as a kill -9 or a full disk during write would
        handle.truncate(size_before + (path.stat().st_size - size_before) // 2)


def test_steps_appended_after_a_torn_member_are_read_and_the_tear_reported(tmp_path, caplog):
    log = CompletionLog(tmp_path / "completions.jsonl.gz")
    log.write_step(1, _records(1))
    log.write_step(2, _records(2))
    size_after_two = log.path.stat().st_size
    log.write_step(3, _records(3, n=200))
    _tear_last_member(log.path, size_after_two)
    torn_size = log.path.stat().st_size - size_after_two
    for step in (3, 4):  # the resumed run redoes step 3 and goes on, appending after the torn member
        log.write_step(step, _records(step))
    torn = []
    with caplog.at_level("WARNING", logger="training.callbacks.completion_log"):
        steps = [r["step"] for r in read_completion_log(log.path, torn)]
    assert steps == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4
    assert torn == [TornMember(offset=size_after_two, length=torn_size)]
    assert f"skipped {torn_size} bytes at offset {size_after_two}" in caplog.text


def test_a_corrupt_member_between_complete_ones_is_skipped(tmp_path):
    log = CompletionLog(tmp_path / "completions.jsonl.gz")
    log.write_step(1, _records(1))
    start = log.path.stat().st_size
    log.write_step(2, _records(2, n=50))
    end = log.path.stat().st_size
    log.write_step(3, _records(3))
    data = bytearray(log.path.read_bytes())
    data[start + 20 : end - 20] = bytes(end - start - 40)  # zeros in the middle of step 2's member
    log.path.write_bytes(bytes(data))
    torn = []
    assert [r["step"] for r in read_completion_log(log.path, torn)] == [1] * 4 + [3] * 4
    assert torn == [TornMember(offset=start, length=end - start)]


def test_stats_count_torn_bytes(tmp_path):
    log = CompletionLog(tmp_path / "completions.jsonl.gz")
    log.write_step(1, _records(1))
    garbage = b"\x1f\x8b\x08 not a member"
    with open(log.path, "ab") as handle:
        handle.write(garbage)
    stats = completion_log_stats(log.path)
    assert (stats["completions"], stats["steps"], stats["torn_members"], stats["torn_bytes"]) == (4, 1, 1, len(garbage))


def test_cli_reports_a_torn_log_and_its_steps(tmp_path, capsys, caplog):
    log = CompletionLog(tmp_path / "completions.jsonl.gz")
    log.write_step(1, _records(1))
    size = log.path.stat().st_size
    log.write_step(2, _records(2, n=100))
    _tear_last_member(log.path, size)
    torn_size = log.path.stat().st_size - size
    log.write_step(2, _records(2))
    assert main([str(log.path)]) == 0
    assert capsys.readouterr().out.startswith("8 completions over 2 steps")
    assert f"skipped {torn_size} bytes at offset {size}" in caplog.text


def test_cli_on_an_empty_file_says_so(tmp_path, capsys):
    (tmp_path / "empty.jsonl.gz").write_bytes(b"")
    assert main([str(tmp_path / "empty.jsonl.gz")]) == 0
    assert "is empty: no step was logged" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content",
    [
        bytes(random.Random(0).randrange(256) for _ in range(5000)),
        gzip.compress(b"plain text, not JSON\n", mtime=0),
        gzip.compress(b'{"no_step": 1}\n', mtime=0),
        gzip.compress(b"[1, 2]\n", mtime=0),
        gzip.compress(b"\xff\xfe\n", mtime=0),
    ],
)
def test_cli_on_a_file_that_is_not_a_completion_log_gives_one_message(tmp_path, capsys, content):
    (tmp_path / "other.gz").write_bytes(content)
    assert main([str(tmp_path / "other.gz")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert "other.gz" in err and "Traceback" not in err
