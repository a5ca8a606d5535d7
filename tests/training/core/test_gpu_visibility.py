"""One process sees one GPU: what the single-process entry points do on a machine of several GPUs."""

import logging

from training.core.gpu_visibility import machine_gpu_count, one_gpu_per_process


def test_a_single_process_on_four_gpus_trains_on_the_first(caplog):
    environ = {}
    with caplog.at_level(logging.WARNING):
        assert one_gpu_per_process(environ, gpu_count=lambda: 4) == "0"
    assert environ == {"CUDA_VISIBLE_DEVICES": "0"}
    assert "4 GPUs visible to one process: training on GPU 0 alone" in caplog.text and "GPUS=4" in caplog.text


def test_a_list_of_gpus_keeps_its_first():
    environ = {"CUDA_VISIBLE_DEVICES": "2, 3"}
    assert one_gpu_per_process(environ, gpu_count=lambda: 8) == "2"
    assert environ["CUDA_VISIBLE_DEVICES"] == "2"


def test_one_gpu_none_and_data_parallel_processes_are_left_alone():
    for environ, count in (({}, 1), ({}, 0), ({"CUDA_VISIBLE_DEVICES": "1"}, 4), ({"WORLD_SIZE": "4"}, 4)):
        before = dict(environ)
        assert one_gpu_per_process(environ, gpu_count=lambda count=count: count) is None
        assert environ == before


def test_the_driver_folder_counts_gpus(tmp_path):
    assert machine_gpu_count(tmp_path / "absent") == 0
    for bus in ("0000:01:00.0", "0000:02:00.0"):
        (tmp_path / bus).mkdir()
    assert machine_gpu_count(tmp_path) == 2


def test_both_single_process_entry_points_call_it_before_cuda():
    from pathlib import Path

    for module in ("train", "warm_start"):
        source = (Path(__file__).parents[3] / "training" / "cli" / f"{module}.py").read_text()
        main = source[source.index("def main(") :]
        assert main.index("one_gpu_per_process()") < main.index("parse_")
