import pytest
import torch

from training.trainer.dynamic_sampling import replace_groups, zero_std_groups


def test_zero_std_groups():
    assert zero_std_groups([0.5, 0.5, 0.1, 0.2, 1.0, 1.0], 2) == [0, 2]
    with pytest.raises(ValueError, match="groups of 4"):
        zero_std_groups([0.0] * 6, 4)


def _batch(rows: int, prompt_len: int, completion_len: int, fill: int) -> dict:
    return {
        "prompt_ids": torch.full((rows, prompt_len), fill),
        "prompt_mask": torch.ones(rows, prompt_len, dtype=torch.long),
        "completion_ids": torch.full((rows, completion_len), fill),
        "completion_mask": torch.ones(rows, completion_len, dtype=torch.long),
        "advantages": torch.full((rows,), float(fill)),
        "num_items_in_batch": torch.tensor(rows * completion_len),
    }


def test_replace_groups_splices_rows_and_pads_prompts_left_completions_right():
    base, fresh = _batch(4, 3, 2, fill=1), _batch(2, 5, 4, fill=7)  # groups of 2: base has 2 groups, fresh 1
    out = replace_groups(base, fresh, [(1, 0)], group_size=2, pad_token_id=0)
    assert out["prompt_ids"].shape == (4, 5) and out["completion_ids"].shape == (4, 4)
    assert out["prompt_ids"][0].tolist() == [0, 0, 1, 1, 1]  # kept row, padded on the left
    assert out["prompt_mask"][0].tolist() == [0, 0, 1, 1, 1]
    assert out["completion_ids"][1].tolist() == [1, 1, 0, 0] and out["completion_mask"][1].tolist() == [1, 1, 0, 0]
    assert out["completion_ids"][2].tolist() == [7] * 4 and out["advantages"].tolist() == [1, 1, 7, 7]
    assert out["num_items_in_batch"].item() == 2 * 2 + 2 * 4
    assert base["advantages"].tolist() == [1, 1, 1, 1]  # the input is left alone
    assert replace_groups(base, fresh, [], 2, 0) is base
