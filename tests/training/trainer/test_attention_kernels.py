"""The fix of the NaN gradients of GRPO: cuDNN attention is off while training (training.trainer.attention_kernels)."""

from __future__ import annotations

import pytest
import torch

from training.trainer.attention_kernels import use_safe_attention_kernels


@pytest.fixture
def cudnn_attention_restored():
    before = torch.backends.cuda.cudnn_sdp_enabled()
    yield
    torch.backends.cuda.enable_cudnn_sdp(before)


def test_the_grpo_trainer_turns_cudnn_attention_off(tiny_model_dir, tmp_path, cudnn_attention_restored):
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config
    from training.trainer.grpo_trainer import ObservedGRPOTrainer

    torch.backends.cuda.enable_cudnn_sdp(True)
    rows = [{"prompt": [{"role": "user", "content": f"say {i}"}], "target": str(i)} for i in range(2)]
    args = tiny_grpo_config(tmp_path, per_device_train_batch_size=2, max_completion_length=4)
    ObservedGRPOTrainer(
        model=str(tiny_model_dir),
        reward_funcs=[lambda completions, **kw: [0.0] * len(completions)],
        args=args,
        train_dataset=Dataset.from_list(rows),
    )
    assert not torch.backends.cuda.cudnn_sdp_enabled()


@pytest.mark.gpu
def test_a_left_padded_batch_trains_with_finite_gradients_only_with_the_fix(cudnn_attention_restored):
    """A small random Llama (SmolLM2's head size) in bf16 on left-padded batches of widths 150-200: with cuDNN
    attention on, some width gives NaN gradients; with the fix, none does."""
    from transformers import LlamaConfig, LlamaForCausalLM

    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=1000,
        hidden_size=576,
        intermediate_size=1536,
        num_hidden_layers=2,
        num_attention_heads=9,
        num_key_value_heads=3,
        attn_implementation="sdpa",
    )
    model = LlamaForCausalLM(config).to("cuda", torch.bfloat16)

    def nan_shapes() -> list[int]:
        bad = []
        for width in range(150, 200, 3):
            ids = torch.randint(10, 1000, (8, width), device="cuda")
            mask = torch.ones_like(ids)
            for row in range(8):
                mask[row, :row] = 0  # left padding of 0-7 tokens
            model.zero_grad(set_to_none=True)
            logits = model(input_ids=ids, attention_mask=mask).logits.float()
            (logits.log_softmax(-1)[..., 0] * mask).sum().backward()
            if not all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None):
                bad.append(width)
        return bad

    torch.backends.cuda.enable_cudnn_sdp(True)
    assert nan_shapes(), "no NaN gradient with cuDNN attention on: the test does not reach the bug"
    use_safe_attention_kernels()
    assert nan_shapes() == []
