"""The fast rollout sampler: greedy output equals transformers' generate, weights follow the adapter."""

import torch

from tests.training.tiny_run import STAGE_1, TINY_GRPO


def _policy(tiny_model_dir):
    from peft import LoraConfig, get_peft_model

    from base_models.models import load_model

    model, tokenizer = load_model(str(tiny_model_dir), device="cpu")
    policy = get_peft_model(model, LoraConfig(r=4, target_modules="all-linear", task_type="CAUSAL_LM"))
    torch.manual_seed(0)
    for name, parameter in policy.named_parameters():
        if "lora_B" in name:
            parameter.data.normal_(0, 0.5)  # an adapter that changes the output
    return policy.eval(), tokenizer


def test_greedy_sampling_with_left_padding_equals_generate(tiny_model_dir):
    """The default path (merged_copy's packed decode attention) against transformers' generate on the policy."""
    from training.trainer.graph_sampler import PACKED_ATTENTION, GraphSampler, merged_copy

    policy, tokenizer = _policy(tiny_model_dir)
    prompts = [list(range(100, 140)), list(range(300, 307)), list(range(500, 533))]
    sampler = GraphSampler(merged_copy(policy))
    assert sampler.model.config._attn_implementation == PACKED_ATTENTION and sampler.boolean_mask
    ours = sampler.sample(prompts, 12, [tokenizer.eos_token_id], tokenizer.pad_token_id, temperature=0)
    bucketed = GraphSampler(sampler.model, batch_bucket=8).sample(
        prompts, 12, [tokenizer.eos_token_id], tokenizer.pad_token_id, temperature=0
    )
    assert bucketed == ours  # filler rows pad the batch to 8 and are dropped
    reused = GraphSampler(sampler.model)
    reused.sample([list(range(100, 170))] * 3, 12, [tokenizer.eos_token_id], tokenizer.pad_token_id, temperature=0)
    assert reused.sample(prompts, 12, [tokenizer.eos_token_id], tokenizer.pad_token_id, temperature=0) == ours
    assert len(reused._shapes) == 1  # the shorter prompts were padded into the existing, longer cache
    wide, end = [list(range(100, 300))] * 3, [tokenizer.eos_token_id]
    before = set(reused._shapes)
    reused.sample(wide, 12, end, tokenizer.pad_token_id, temperature=0)
    assert set(reused._shapes) != before  # a wider prompt than any seen needs a new shape: a recompile on a GPU
    hinted = GraphSampler(sampler.model, min_width=200)  # a caller that expects prompts of up to 200 tokens
    assert hinted.sample(prompts, 12, end, tokenizer.pad_token_id, temperature=0) == ours
    first = set(hinted._shapes)
    hinted.sample(wide, 12, end, tokenizer.pad_token_id, temperature=0)
    assert set(hinted._shapes) == first  # its first cache was sized for the hint
    for prompt, completion in zip(prompts, ours):
        ids = torch.tensor([prompt])
        reference = policy.generate(
            input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=12, do_sample=False
        )[0, len(prompt) :].tolist()
        assert completion == reference[: len(completion)]
        assert len(completion) == 12 or completion[-1] == tokenizer.eos_token_id


def test_packed_decode_attention_equals_grouped_query_attention():
    """A decode step's query heads packed per K/V head give what SDPA's own grouped-query attention gives, for every
    row, padding masked; several positions (the prefill) take the unpacked path. The module's head order is
    repeat_kv's: query head h reads K/V head h // (H / H_kv)."""
    from training.trainer.graph_sampler import gqa_sdpa_attention, packed_gqa_sdpa_attention

    torch.manual_seed(0)
    batch, heads, kv_heads, length, dim = 3, 6, 2, 11, 8
    key, value = torch.randn(batch, kv_heads, length, dim), torch.randn(batch, kv_heads, length, dim)
    mask = torch.ones(batch, 1, 1, length + 4, dtype=torch.bool)  # a cache mask is wider than the keys so far
    mask[0, ..., :5] = False  # left padding
    mask[2, ..., :2] = False
    query = torch.randn(batch, heads, 1, dim)
    packed, _ = packed_gqa_sdpa_attention(None, query, key, value, mask, scaling=0.3)
    grouped, _ = gqa_sdpa_attention(None, query, key, value, mask, scaling=0.3)
    assert packed.shape == grouped.shape == (batch, 1, heads, dim)
    torch.testing.assert_close(packed, grouped)
    expanded = torch.nn.functional.scaled_dot_product_attention(  # repeat_kv's head order, written out
        query,
        key.repeat_interleave(3, dim=1),
        value.repeat_interleave(3, dim=1),
        attn_mask=mask[..., :length],
        scale=0.3,
    ).transpose(1, 2)
    torch.testing.assert_close(packed, expanded)
    prefill = torch.randn(batch, heads, 4, dim)
    causal = torch.ones(batch, 1, 4, length, dtype=torch.bool).tril(diagonal=length - 4)
    torch.testing.assert_close(
        packed_gqa_sdpa_attention(None, prefill, key, value, causal)[0],
        gqa_sdpa_attention(None, prefill, key, value, causal)[0],
    )


def test_masked_prefill_expands_grouped_kv_so_sdpa_need_not_take_its_math_kernel(monkeypatch):
    """A prefill (several positions) with a mask reaches SDPA without ``enable_gqa``, K/V expanded in repeat_kv's head
    order, and gives what grouped-query attention gives. With ``enable_gqa`` and a mask PyTorch takes its math
    kernel, which holds every score at once: 70.9 GiB and a CUDA OOM at stage 6 (results/grpo/batch-24). A decode step
    and an unmasked prefill keep the grouped K/V."""
    from training.trainer.graph_sampler import gqa_sdpa_attention

    torch.manual_seed(0)
    batch, heads, kv_heads, length, dim = 2, 6, 2, 9, 8
    key, value = torch.randn(batch, kv_heads, length, dim), torch.randn(batch, kv_heads, length, dim)
    prefill = torch.randn(batch, heads, 5, dim)
    causal = torch.ones(batch, 1, 5, length + 3, dtype=torch.bool).tril(diagonal=length - 5)
    causal[1, ..., :2] = False  # left padding
    reference = torch.nn.functional.scaled_dot_product_attention(
        prefill, key, value, attn_mask=causal[..., :length], scale=0.3, enable_gqa=True
    ).transpose(1, 2)
    sdpa, calls = torch.nn.functional.scaled_dot_product_attention, []

    def recording_sdpa(query, key, value, **kwargs):
        calls.append((key.shape[1], kwargs.get("enable_gqa", False)))
        return sdpa(query, key, value, **kwargs)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", recording_sdpa)
    out, _ = gqa_sdpa_attention(None, prefill, key, value, causal, scaling=0.3)
    torch.testing.assert_close(out, reference)
    assert calls == [(heads, False)]
    gqa_sdpa_attention(None, torch.randn(batch, heads, 1, dim), key, value, causal[:, :, -1:])  # a decode step
    gqa_sdpa_attention(None, prefill, key, value, None)  # no mask: SDPA's causal flag, kernels that take GQA
    assert calls[1:] == [(kv_heads, True), (kv_heads, True)]


def test_merged_copy_packs_the_decode_attention_by_default_and_unpacked_samples_the_same(tiny_model_dir):
    """merged_copy's default is the packed decode attention (4.9x the decode's tokens/s at stage 3 on an H100,
    results/grpo/batch-20/README.md); packed=False gives the unpacked one (the benchmark's comparison). Both sample the
    same greedy tokens; the policy keeps transformers' "sdpa"."""
    from training.trainer.graph_sampler import ATTENTION, PACKED_ATTENTION, GraphSampler, merged_copy

    policy, tokenizer = _policy(tiny_model_dir)
    prompts, end = [list(range(100, 140)), list(range(300, 307)), list(range(500, 533))], [tokenizer.eos_token_id]
    packed = GraphSampler(merged_copy(policy))
    unpacked = GraphSampler(merged_copy(policy, packed=False))
    assert packed.model.config._attn_implementation == PACKED_ATTENTION and packed.boolean_mask
    assert unpacked.model.config._attn_implementation == ATTENTION and unpacked.boolean_mask
    assert policy.config._attn_implementation == "sdpa"
    greedy = packed.sample(prompts, 12, end, tokenizer.pad_token_id, temperature=0)
    assert greedy == unpacked.sample(prompts, 12, end, tokenizer.pad_token_id, temperature=0)
    assert any(len(completion) > 1 for completion in greedy)  # decode steps ran, not just the prefill


def test_sync_weights_merges_the_current_adapter(tiny_model_dir):
    from training.trainer.graph_sampler import merged_copy, sync_weights

    policy, _ = _policy(tiny_model_dir)
    copy = merged_copy(policy)
    ids = torch.tensor([list(range(100, 120))])
    with torch.no_grad():
        for name, parameter in policy.named_parameters():
            if "lora_A" in name:
                parameter.add_(0.3)  # a training step moved the adapter
        stale = copy(ids).logits
        sync_weights(policy, copy)
        torch.testing.assert_close(copy(ids).logits, policy(input_ids=ids).logits, rtol=1e-4, atol=1e-4)
    assert not torch.allclose(stale, copy(ids).logits)
    assert not any(p.requires_grad for p in copy.parameters())

    half = merged_copy(policy, dtype=torch.bfloat16)  # a float32 policy trained under bf16 autocast
    assert {p.dtype for p in half.parameters()} == {torch.bfloat16}
    with torch.no_grad():
        for name, parameter in policy.named_parameters():
            if "lora_A" in name:
                parameter.add_(0.3)
        reference = policy(input_ids=ids).logits
        stale_error = (half(ids).logits.float() - reference).abs().mean()
        sync_weights(policy, half)
        error = (half(ids).logits.float() - reference).abs().mean()
    assert error < 0.01 and error < stale_error / 10  # bf16 rounding only


def test_fast_generation_falls_back_to_trls_generate_where_it_does_not_apply(tiny_model_dir, tmp_path, in_process):
    # Runs with the fast sampler (the recipes' default) are the other training tests (test_train_run.py).
    proc = in_process(
        "-m",
        "training.cli.train",
        *STAGE_1,
        *TINY_GRPO,
        "--max_steps",
        "1",
        "--fast_generation",
        "true",
        "--top_k",
        "5",
        "--output_dir",
        str(tmp_path / "run"),
        "--results_dir",
        str(tmp_path / "results"),
    )
    assert proc.returncode == 0 and "fast generation is off (not supported with top_k)" in proc.stderr


def test_merged_copy_of_a_checkpointing_policy_turns_checkpointing_off_without_a_deprecation(tiny_model_dir, recwarn):
    """CPU runs train with activation checkpointing; the inference copy drops it through the current API."""
    from training.trainer.graph_sampler import merged_copy

    policy, _ = _policy(tiny_model_dir)
    policy.base_model.model.activation_checkpointing_enable()
    assert any(getattr(m, "gradient_checkpointing", False) for m in policy.modules())
    recwarn.clear()
    copy = merged_copy(policy)
    assert not any(getattr(m, "gradient_checkpointing", False) for m in copy.modules())
    assert not [w for w in recwarn if issubclass(w.category, FutureWarning)], [str(w.message) for w in recwarn]
