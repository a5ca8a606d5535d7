"""scripts/gpu/collect_batch.py: the device calls' folders of a GPU batch (results tars, adapters cut in parts) into
results/grpo/batch-N/, batch-N.json and adapters/batch-N/; a later call's files replace an earlier call's; a folder
that is missing, without results, or a batch that exists is one clear error."""

import gzip
import io
import json
import subprocess
import sys
import tarfile

from tests.conftest import REPO_ROOT

SCRIPT = str(REPO_ROOT / "scripts" / "gpu" / "collect_batch.py")


def tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def problem(score):
    return {
        "label": "trained",
        "split": "validation",
        "task": "stage-1",
        "index": 0,
        "id": "10w-validation-seed0-0000000",
        "score": score,
        "slipped_words": 0 if score == 1.0 else 5,
        "reference_words": 20,
        "first_slip": None,
    }


def results_tar(step_count, score, with_scores=True):
    files = {
        "results/run-a/summary.json": json.dumps({"global_step": step_count, "wall_seconds": 60.0}).encode(),
        "results/run-a/metrics.jsonl": b"".join(
            json.dumps({"global_step": i, "reward": 0.5, "pad": "x" * 100}).encode() + b"\n" for i in range(step_count)
        ),
        "results/run-a/train.log": b"training\n",
        "results/bg-run-a.log": b"part log\n",
        "results/chain-1/chain.log": b"[chain] stage-1: grpo stage-1\n",  # a make curriculum part: its log alone
        "results/not-a-run/stray.txt": b"x",
        "results/probe/run-a-at-x.json": b'{"problems": %d}' % step_count,  # slip_probe.py's output
    }
    if with_scores:
        row = {"task": "stage-1", "n": 1, "nw_score": score, "exact_match": 1.0, "split": "validation"}
        files["results/scores/run-a-validation/eval.json"] = json.dumps({"rows": [row]}).encode()
        files["results/scores/run-a-validation/problems.jsonl"] = json.dumps(problem(score)).encode() + b"\n"
    return tar_gz(files)


def device_calls(tmp_path):
    first, second = tmp_path / "device" / "4", tmp_path / "device" / "5"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    (first / "results.tar.gz").write_bytes(results_tar(3, 0.5, with_scores=False))
    (second / "results.tar.gz").write_bytes(results_tar(12, 1.0))
    adapter = tar_gz({"out/run-a/adapter_config.json": b"{}", "out/run-a/adapter_model.safetensors": b"W" * 1000})
    (first / "adapter-run-a.tar.gz.part-aa").write_bytes(adapter[:300])  # an adapter cut in two, across two calls
    (second / "adapter-run-a.tar.gz.part-ab").write_bytes(adapter[300:])
    return first, second


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True, cwd=REPO_ROOT)


def test_a_batch_is_collected_with_the_later_call_winning_and_its_adapter_joined(tmp_path):
    first, second = device_calls(tmp_path)
    root = tmp_path / "repo"
    proc = run(31, first, second, "--note", "batch 31 here", "--root", root)
    assert proc.returncode == 0, proc.stderr
    batch = root / "results" / "grpo" / "batch-31"
    summary = json.loads((batch / "run-a" / "summary.json").read_text())
    assert summary["global_step"] == 12  # the later call's copy
    assert (batch / "run-a" / "metrics.jsonl.gz").exists() and not (batch / "run-a" / "metrics.jsonl").exists()
    assert len(gzip.decompress((batch / "run-a" / "metrics.jsonl.gz").read_bytes()).splitlines()) == 12
    assert (batch / "logs" / "bg-run-a.log").read_text() == "part log\n"
    assert not (batch / "not-a-run").exists()  # a folder without summary.json, train.log or chain.log is not a run
    assert (batch / "chain-1" / "chain.log").read_text() == "[chain] stage-1: grpo stage-1\n"
    assert (batch / "scores" / "run-a-validation" / "derailment.json").exists()
    probe = root / "results" / "grpo" / "slip-probe" / "batch-31-run-a-at-x.json"
    assert json.loads(probe.read_text()) == {"problems": 12}  # beside the other batches' probes, the later call's
    assert "slip probe: results/grpo/slip-probe/batch-31-run-a-at-x.json" in proc.stdout
    record = json.loads((root / "results" / "grpo" / "batch-31.json").read_text())
    assert record["note"] == "batch 31 here"
    assert record["runs"][0]["steps"] == 12 and record["runs"][0]["final_validation"][0]["nw_score"] == 1.0
    adapter = root / "adapters" / "batch-31" / "run-a"
    assert (adapter / "adapter_model.safetensors").read_bytes() == b"W" * 1000
    assert (adapter / "adapter_config.json").read_text() == "{}"
    assert "adapters/batch-31/run-a" in proc.stdout and "Left by hand" in proc.stdout


def test_a_score_without_its_problems_is_named_and_the_others_get_their_derailment(tmp_path):
    """Batch 36 brought three score folders back with eval.json alone: derailment.py refused them, and so the whole
    step failed for every folder; now those are named and the rest are read."""
    first, second = device_calls(tmp_path)
    row = {"task": "stage-1", "n": 1, "nw_score": 1.0, "exact_match": 1.0, "split": "test"}
    (tmp_path / "device" / "6").mkdir()
    (tmp_path / "device" / "6" / "results.tar.gz").write_bytes(
        tar_gz({"results/scores/run-a-test/eval.json": json.dumps({"rows": [row]}).encode()})
    )
    root = tmp_path / "repo"
    proc = run(36, first, second, tmp_path / "device" / "6", "--note", "n", "--root", root)
    assert proc.returncode == 0, proc.stderr
    scores = root / "results" / "grpo" / "batch-36" / "scores"
    assert (scores / "run-a-validation" / "derailment.json").exists()
    assert (scores / "run-a-test" / "eval.json").exists() and not (scores / "run-a-test" / "derailment.json").exists()
    assert "no derailment.json for run-a-test: no problems.jsonl" in proc.stdout
    assert "Left by hand" in proc.stdout


def test_results_cut_in_parts_are_joined_and_a_missing_part_is_a_clear_error(tmp_path):
    """setup.sh's results_back cuts a call's results under the 16 MiB a returned file may have; the parts are joined
    (here a first part of a few bytes), and a set with one missing says so instead of a tarfile traceback."""
    first, second = device_calls(tmp_path)
    archive = (second / "results.tar.gz").read_bytes()
    (second / "results.tar.gz").unlink()
    (second / "results.tar.gz.part-aa").write_bytes(archive[:100])
    (second / "results.tar.gz.part-ab").write_bytes(archive[100:])
    root = tmp_path / "repo"
    proc = run(37, first, second, "--note", "n", "--root", root)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((root / "results" / "grpo" / "batch-37" / "run-a" / "summary.json").read_text())
    assert summary["global_step"] == 12  # the later call's, from its joined parts
    (second / "results.tar.gz.part-ab").unlink()
    proc = run(38, first, second, "--note", "n", "--root", root)
    assert proc.returncode != 0 and "does not unpack" in proc.stderr and "part missing" in proc.stderr


def test_setup_results_back_cuts_what_collect_batch_joins(tmp_path):
    """The device side: results_back (scripts/gpu/setup.sh, sourced dry) packs $LAB/results without the probes'
    inputs.pt into $OUT/results.tar.gz.part-*, parts of at most 15 MiB, which join into the archive collect_batch
    unpacks."""
    lab, out = tmp_path / "lab", tmp_path / "out"
    (lab / "results" / "run-a").mkdir(parents=True)
    (lab / "results" / "run-a" / "summary.json").write_text("{}")
    (lab / "results" / "probe").mkdir()
    (lab / "results" / "probe" / "inputs.pt").write_bytes(b"x" * 100)
    out.mkdir()
    env = {"DRY_RUN": str(tmp_path / "dry.log"), "LAB": str(lab), "OUT": str(out), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        ["bash", "-c", "source scripts/gpu/setup.sh >/dev/null; results_back"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    parts = sorted(out.glob("results.tar.gz.part-*"))
    assert [p.name for p in parts] == ["results.tar.gz.part-aa"]
    with tarfile.open(fileobj=io.BytesIO(b"".join(p.read_bytes() for p in parts))) as tar:
        names = tar.getnames()
    assert "results/run-a/summary.json" in names and not any(n.endswith("inputs.pt") for n in names)


def test_missing_folders_empty_calls_and_an_existing_batch_are_clear_errors(tmp_path):
    first, second = device_calls(tmp_path)
    root = tmp_path / "repo"
    proc = run(31, tmp_path / "nope", "--note", "n", "--root", root)
    assert proc.returncode != 0 and "no such folder" in proc.stderr and "Traceback" not in proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run(31, empty, "--note", "n", "--root", root)
    assert proc.returncode != 0 and "no results.tar.gz" in proc.stderr
    assert run(31, first, second, "--note", "n", "--root", root).returncode == 0
    proc = run(31, first, second, "--note", "n", "--root", root)
    assert proc.returncode != 0 and "exists: give --force" in proc.stderr
    fresh = tmp_path / "fresh"
    proc = run(31, second, "--note", "n", "--root", fresh)  # half an adapter: its first part came in the other call
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "run-a" in proc.stderr and "not a whole archive" in proc.stderr
    assert not fresh.exists()  # checked before anything is written


def test_a_chain_piece_goes_whole_to_adapters_and_its_records_to_the_batch(tmp_path):
    """setup.sh's chain_piece packs a runs tree (every step's records, the last step's adapter) as
    piece-PART.tar.gz.part-*: the whole tree to adapters/batch-N/PART/ (for the next sweep's CARRY-TREE line), all
    but the weights to results/grpo/batch-N/PART/ beside the runner's log."""
    first, second = device_calls(tmp_path)
    piece = tar_gz(
        {
            "stage-1/final/adapter_config.json": b"{}",
            "stage-1/chain-step.json": b'{"process_seconds": 500.0}',
            "stage-1/results/summary.json": b'{"wall_seconds": 450.0}',
            "stage-2/final/adapter_config.json": b"{}",
            "stage-2/final/adapter_model.safetensors": b"F" * 2000,
            "curriculum-time.json": b"{}",
        }
    )
    (first / "piece-chain-1.tar.gz.part-aa").write_bytes(piece[:500])
    (second / "piece-chain-1.tar.gz.part-ab").write_bytes(piece[500:])
    root = tmp_path / "repo"
    proc = run(32, first, second, "--note", "a piece", "--root", root)
    assert proc.returncode == 0, proc.stderr
    carried = root / "adapters" / "batch-32" / "chain-1"
    assert (carried / "stage-2" / "final" / "adapter_model.safetensors").read_bytes() == b"F" * 2000
    assert (carried / "stage-1" / "chain-step.json").read_text() == '{"process_seconds": 500.0}'
    records = root / "results" / "grpo" / "batch-32" / "chain-1"
    assert (records / "chain.log").exists()  # the runner's log, from the results tar
    assert (records / "stage-1" / "results" / "summary.json").exists() and (records / "curriculum-time.json").exists()
    assert not (records / "stage-2" / "final" / "adapter_model.safetensors").exists()
    assert "# CARRY-TREE chain COMMIT:adapters/batch-32/chain-1" in proc.stdout
