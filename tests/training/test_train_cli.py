import pytest

from tests.conftest import run_cli


def test_train_stage_prepares_corpus_and_model_and_prints_the_plan(tiny_model_dir):
    proc = run_cli("make", "-s", "train-stage", "N=3", "MODEL=tiny-random-llama")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "stage 3: interleave two fragments of 50 words each" in out
    assert "tiny-random-llama" in out and "device  cpu" in out
    assert "corpus  sotu, gutenberg" in out
    assert "nothing was trained" in out


def test_train_stage_rejects_an_unknown_stage():
    proc = run_cli("-m", "training.train", "--stage", "9")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


@pytest.mark.slow
def test_make_train_stage_1_with_the_embedded_default():
    """The README's first command, as written."""
    proc = run_cli("make", "-s", "train-stage", "N=1")
    assert proc.returncode == 0, proc.stderr
    assert "stage 1: interleave two fragments of 10 words each" in proc.stdout
    assert "smollm2-135m-instruct (134.5M parameters, float32)" in proc.stdout
