"""scripts/analysis/lora_distance.py: the size of a LoRA update (B A) and of the difference between two."""

import pytest
import torch
from safetensors.torch import save_file

from scripts.analysis import lora_distance

KEY = "base_model.model.layers.0.q_proj.lora_{}.weight"


def _adapter(folder, a, b):
    folder.mkdir()
    save_file({KEY.format("A"): a, KEY.format("B"): b}, str(folder / lora_distance.WEIGHTS))
    return folder


def test_norms_and_distances_are_of_the_products_not_the_factors(tmp_path, capsys):
    a = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    one = _adapter(tmp_path / "one", a, torch.tensor([[3.0, 0.0], [0.0, 4.0]]))  # B A = diag(3, 4): norm 5
    # the same product from other factors (B A unchanged), in bfloat16 as the shipped adapters are
    two = _adapter(tmp_path / "two", (2 * a).bfloat16(), torch.tensor([[1.5, 0.0], [0.0, 2.0]]).bfloat16())
    three = _adapter(tmp_path / "three", a, torch.zeros(2, 2))
    out = tmp_path / "d.md"
    assert lora_distance.main([f"one={one}", f"two={two}", f"zero={three}", "--pairs", "one:two", "one:zero",
                               "--out", str(out)]) == 0  # fmt: skip
    text = out.read_text()
    assert "| one | " in text and "| 1 | 5.00 |" in text and "| one | two | 0.00 |" in text
    assert "| one | zero | 5.00 |" in text and text == capsys.readouterr().out


def test_adapters_of_different_matrices_are_not_compared():
    with pytest.raises(SystemExit, match="different matrices"):
        lora_distance.distance({"x": torch.zeros(1)}, {"y": torch.zeros(1)})
