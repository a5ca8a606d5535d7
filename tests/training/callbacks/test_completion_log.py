import gzip
import json

from training.callbacks.completion_log import CompletionLog, read_completion_log


def _records(step, n=4):
    return [{"prompt": f"p{step}-{i}", "completion": f"c{step}-{i} ünïcode", "reward": i / n} for i in range(n)]


def test_every_completion_is_kept_and_plain_gzip_reads_it(tmp_path):
    log = CompletionLog(tmp_path / "run" / "completions.jsonl.gz")
    for step in range(1, 6):
        log.write_step(step, _records(step))
    records = list(read_completion_log(log.path))
    assert [(r["step"], r["completion"]) for r in records] == [(s, f"c{s}-{i} ünïcode")
                                                               for s in range(1, 6) for i in range(4)]
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
