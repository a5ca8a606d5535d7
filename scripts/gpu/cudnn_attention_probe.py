"""Which inputs make cuDNN attention's backward return NaN? (issue 17's non-finite gradients; GPU only)

Runs a small random Llama (SmolLM2's head layout) on left-padded batches with the cuDNN kernel allowed, captures the
arguments of the scaled_dot_product_attention calls of a batch whose gradients are NaN, and replays them under the
cuDNN kernel alone: as captured, with the fully masked query rows (padding positions) given one key, and without
left padding. Prints one JSON line per test.
"""

import json

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from transformers import LlamaConfig, LlamaForCausalLM

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
captured = []
original = F.scaled_dot_product_attention


def capture(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    captured.append(
        dict(
            q=q.detach().clone(),
            k=k.detach().clone(),
            v=v.detach().clone(),
            attn_mask=None if attn_mask is None else attn_mask.clone(),
            is_causal=is_causal,
            scale=scale,
            enable_gqa=enable_gqa,
        )
    )
    return original(
        q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal, scale=scale, enable_gqa=enable_gqa
    )


def batch_grads_finite(width: int, pad_rows: bool = True) -> bool:
    ids = torch.randint(10, 1000, (8, width), device="cuda")
    mask = torch.ones_like(ids)
    if pad_rows:
        for row in range(8):
            mask[row, :row] = 0
    model.zero_grad(set_to_none=True)
    logits = model(input_ids=ids, attention_mask=mask).logits.float()
    (logits.log_softmax(-1)[..., 0] * mask).sum().backward()
    return all(torch.isfinite(p.grad).all() for p in model.parameters() if p.grad is not None)


def replay(call: dict, fix_rows: bool, backend=SDPBackend.CUDNN_ATTENTION) -> bool:
    q, k, v = (call[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    mask = call["attn_mask"]
    if fix_rows and mask is not None and mask.dtype == torch.bool:
        mask = mask.clone()
        empty = ~mask.any(dim=-1)  # query rows that see no key
        diagonal = torch.eye(mask.size(-2), mask.size(-1), dtype=torch.bool, device=mask.device)
        mask = mask | (empty.unsqueeze(-1) & diagonal)
    with sdpa_kernel([backend]):
        out = original(
            q, k, v, attn_mask=mask, is_causal=call["is_causal"], scale=call["scale"], enable_gqa=call["enable_gqa"]
        )
        out.float().sum().backward()
    return all(bool(torch.isfinite(t.grad).all()) for t in (q, k, v))


torch.backends.cuda.enable_cudnn_sdp(True)
widths = list(range(150, 200, 3))
nan_widths = [w for w in widths if not batch_grads_finite(w)]
print(json.dumps({"test": "left-padded batches, cuDNN allowed", "nan_widths": nan_widths, "of": widths}))
print(
    json.dumps(
        {"test": "same widths, no padding", "nan_widths": [w for w in widths if not batch_grads_finite(w, False)]}
    )
)
if nan_widths:
    F.scaled_dot_product_attention = capture
    batch_grads_finite(nan_widths[0])
    F.scaled_dot_product_attention = original
    call = captured[0]
    mask = call["attn_mask"]
    print(
        json.dumps(
            {
                "test": "captured call",
                "q": list(call["q"].shape),
                "k": list(call["k"].shape),
                "mask": None if mask is None else [list(mask.shape), str(mask.dtype)],
                "is_causal": call["is_causal"],
                "enable_gqa": call["enable_gqa"],
                "fully_masked_rows": None
                if mask is None or mask.dtype != torch.bool
                else int((~mask.any(dim=-1)).sum()),
            }
        )
    )
    print(json.dumps({"test": "replay under cuDNN as captured", "grads_finite": replay(call, False)}))
    print(
        json.dumps(
            {"test": "replay under cuDNN, fully masked rows given their own key", "grads_finite": replay(call, True)}
        )
    )
    print(
        json.dumps(
            {
                "test": "replay under the memory-efficient kernel",
                "grads_finite": replay(call, False, SDPBackend.EFFICIENT_ATTENTION),
            }
        )
    )
