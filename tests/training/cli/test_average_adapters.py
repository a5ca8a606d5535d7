"""average_adapters: the tensor-wise mean of adapters of one run; mismatched adapters stop with a message."""

import json

import pytest
import torch
from safetensors.torch import load_file, save_file

from training.cli.average_adapters import AverageError, average_adapters, main

CONFIG = {"base_model_name_or_path": "m", "peft_type": "LORA", "r": 2, "lora_alpha": 4, "target_modules": ["q", "v"]}


def adapter(folder, value, dtype=torch.bfloat16, config=CONFIG, shape=(2, 3)):
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text(json.dumps(config))
    save_file({"a.lora_A.weight": torch.full(shape, value, dtype=dtype)}, folder / "adapter_model.safetensors")
    return folder


def test_the_average_is_the_tensor_mean_in_the_first_adapters_dtype(tmp_path):
    sources = [adapter(tmp_path / "a", 1.0), adapter(tmp_path / "b", 2.0), adapter(tmp_path / "c", 6.0, torch.float32)]
    out = average_adapters(sources, tmp_path / "avg")
    weights = load_file(out / "adapter_model.safetensors")["a.lora_A.weight"]
    assert weights.dtype == torch.bfloat16 and torch.equal(weights, torch.full((2, 3), 3.0, dtype=torch.bfloat16))
    assert json.loads((out / "adapter_config.json").read_text()) == CONFIG
    assert json.loads((out / "averaged_from.json").read_text())["adapters"] == [str(s) for s in sources]


def test_adapters_that_differ_are_refused(tmp_path, capsys):
    a = adapter(tmp_path / "a", 1.0)
    with pytest.raises(AverageError, match="differ in r"):
        average_adapters([a, adapter(tmp_path / "b", 1.0, config={**CONFIG, "r": 4})], tmp_path / "out")
    with pytest.raises(AverageError, match="hold different tensors"):
        average_adapters([a, adapter(tmp_path / "c", 1.0, shape=(3, 3))], tmp_path / "out")
    with pytest.raises(AverageError, match="at least two"):
        average_adapters([a], tmp_path / "out")
    assert main([str(tmp_path / "out"), str(a), str(tmp_path / "missing")]) == 2
    assert "is not a LoRA adapter folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
