"""Fast rollouts: sampling with a static KV cache, the decode step captured in a CUDA graph, on a merged copy.

``transformers``' ``generate`` pays Python and kernel-launch overhead at every token step, and with an
unmerged LoRA adapter ~210 extra small matmuls. Here the policy's adapter is merged into a plain copy of
the model (``sync_weights``, in place, so captured graphs stay valid), the prompt is prefilled once into a
``StaticCache``, and each token step replays one CUDA graph: forward, Gumbel-max sampling at the given
temperature, positions advanced on the device. Masks are built here as 4D additive masks (left padding
aware), which ``transformers`` passes through as they are. On CPU the same loop runs eagerly (tests). The copy
attends with :func:`packed_gqa_sdpa_attention` (grouped-query attention without K/V expansion; a decode step's
query heads packed per K/V head): 4.9x the decode's tokens/s at stage 3 (results/grpo/batch-20/README.md).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

logger = logging.getLogger(__name__)

PROMPT_BUCKET = 32  # prompts are left-padded to a multiple of this, so a few graph shapes serve a whole run
WIDTH_HEADROOM = 1.25  # a new cache is sized for prompts this much wider than the widest seen, so later steps fit
ATTENTION = "interleave_gqa_sdpa"  # the merged copy's attention with packed=False (registered below)
PACKED_ATTENTION = "interleave_packed_gqa_sdpa"  # the default: the same, a decode step's query heads per K/V head


def _boolean_mask(attention_mask: torch.Tensor | None, key: torch.Tensor) -> torch.Tensor | None:
    """The mask as booleans (True: attend), cut to the keys there are."""
    mask = attention_mask
    if mask is not None:
        if mask.dtype != torch.bool:  # GraphSampler passes a boolean mask; anything else is converted
            mask = mask > torch.finfo(mask.dtype).min / 2  # additive -> boolean (True: attend)
        mask = mask[:, :, :, : key.shape[-2]]
    return mask


def gqa_sdpa_attention(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    """SDPA on grouped-query K/V as they are (``enable_gqa``) with a boolean mask.

    transformers' "sdpa" expands K/V to every query head over the whole cache at each step whenever a
    mask is given; with left padding there always is one. Measured on an H100: 1.6x (batch 128) to 2.2x
    (batch 512) faster rollouts, same greedy tokens (results/bench-generation/profile/gqa.txt).

    A prefill (several query positions) with a mask gets K/V expanded to every query head instead: PyTorch serves
    ``enable_gqa`` with a mask by its math kernel, which holds rows x heads x positions x keys scores at once. Stage 6
    (128 rows of ~1,800 prompt tokens against a ~4,000-key cache) asked for 70.9 GiB and died of CUDA OOM on a
    141 GB H200 before the first step (results/grpo/batch-24, s6-direct). Expanded K/V cost rows x heads x keys x dim
    (~0.6 GB there), once a step, and SDPA's memory-efficient kernel takes a masked prefill without the scores.
    """
    mask = _boolean_mask(attention_mask, key)
    is_causal = mask is None and query.shape[2] > 1 and getattr(module, "is_causal", True)
    grouped = query.shape[1] != key.shape[1]
    if grouped and mask is not None and query.shape[2] > 1:
        groups = query.shape[1] // key.shape[1]  # repeat_kv's head order: query head h reads K/V head h // groups
        key, value = key.repeat_interleave(groups, dim=1), value.repeat_interleave(groups, dim=1)
        grouped = False
    out = torch.nn.functional.scaled_dot_product_attention(
        query, key, value, attn_mask=mask, scale=scaling, is_causal=is_causal, enable_gqa=grouped
    )
    return out.transpose(1, 2).contiguous(), None


def packed_gqa_sdpa_attention(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    """:func:`gqa_sdpa_attention`, except that in a decode step (one query position) the query heads that share a K/V
    head become query rows of that head: (B, H, 1, D) -> (B, H_kv, H / H_kv, D). SDPA then sees plain multi-head
    attention with a mask, no ``enable_gqa``, so no kernel has to expand K/V to every query head over the whole cache
    (PyTorch serves ``enable_gqa`` with a mask by its math kernel: transformers #39412, ComfyUI #15135). The
    (B, 1, 1, L) mask broadcasts over the rows: every head of a row sees the same keys. transformers does the same
    (``pack_gqa``), but not under ``torch.compile``, which the sampler's decode step runs in. The prefill (several
    positions) is unchanged. Measured on an H100 (batch 128, compiled CUDA graphs, training's attention kernels,
    ``benchmarks.bench_generation``): 4.7 against 22.8 ms a token step at stage 3 (4.9x the tokens/s), 6.3 against
    35.3 ms at stage 4 (5.7x), results/grpo/batch-20/README.md. :func:`merged_copy`'s default since.
    """
    batch, heads, positions, dim = query.shape
    kv_heads = key.shape[1]
    if positions != 1 or heads == kv_heads:
        return gqa_sdpa_attention(module, query, key, value, attention_mask, dropout, scaling, **kwargs)
    packed = query.reshape(batch, kv_heads, heads // kv_heads, dim)  # head h -> K/V head h // (H / H_kv), as repeat_kv
    out = torch.nn.functional.scaled_dot_product_attention(
        packed, key, value, attn_mask=_boolean_mask(attention_mask, key), scale=scaling
    )
    return out.reshape(batch, heads, 1, dim).transpose(1, 2).contiguous(), None


def _register_attention() -> None:
    from transformers import AttentionInterface

    AttentionInterface.register(ATTENTION, gqa_sdpa_attention)
    AttentionInterface.register(PACKED_ATTENTION, packed_gqa_sdpa_attention)


def merged_copy(policy, dtype: torch.dtype | None = None, packed: bool = True) -> torch.nn.Module:
    """A plain (adapter-merged) copy of ``policy`` for inference, in eval mode, sharing no storage.

    ``dtype``: the copy's dtype, e.g. bfloat16 for a float32 policy trained under bf16 autocast (TRL loads
    models in float32 by default). Decoding in float32 was ~5x slower per token step on an H100.
    A policy on transformers' "sdpa" attention gets this module's: :func:`packed_gqa_sdpa_attention`
    (``PACKED_ATTENTION``; 4.9x the decode's tokens/s at stage 3, 5.7x at stage 4 on an H100,
    results/grpo/batch-20/README.md), or with ``packed=False`` :func:`gqa_sdpa_attention` (``ATTENTION``: the
    benchmark's comparison). Any other attention is left as it is.
    """
    clone = copy.deepcopy(policy)
    if hasattr(clone, "merge_and_unload"):  # a peft model: fold the adapter in, drop the LoRA layers
        clone = clone.merge_and_unload()
    if dtype is not None:
        clone.to(dtype)
    for module in clone.modules():  # wrappers set on the instance (accelerate, TRL) would call the original model
        for attribute in ("forward", "_original_forward"):
            module.__dict__.pop(attribute, None)
    if getattr(clone.config, "_attn_implementation", None) == "sdpa":
        _register_attention()
        clone.config._attn_implementation = PACKED_ATTENTION if packed else ATTENTION
    if any(getattr(module, "gradient_checkpointing", False) for module in clone.modules()):
        # it would drop the cache; inference keeps no activations (transformers 5 names it activation_checkpointing)
        disable = getattr(clone, "activation_checkpointing_disable", None) or clone.gradient_checkpointing_disable
        disable()
    clone.eval()
    for parameter in clone.parameters():
        parameter.requires_grad_(False)
    return clone


@torch.no_grad()
def sync_weights(policy, inference_model: torch.nn.Module) -> None:
    """Copy ``policy``'s weights, adapter merged, into ``inference_model`` in place (same storage)."""
    from peft.tuners.lora import LoraLayer

    targets = dict(inference_model.named_modules())
    for name, module in policy.named_modules():
        if not isinstance(module, LoraLayer):
            continue
        weight = targets[_base_name(name)].weight.data
        base = module.get_base_layer().weight.data
        deltas = [module.get_delta_weight(adapter) for adapter in module.active_adapters if adapter in module.lora_A]
        if weight.dtype == base.dtype:  # merge straight into the copy: no temporary per layer
            weight.copy_(base)
            for delta in deltas:
                weight += delta
        else:  # merge at the policy's precision, round once
            weight.copy_(sum(deltas, base))


def _base_name(peft_name: str) -> str:
    """``base_model.model.model.layers.0.q_proj`` -> ``model.layers.0.q_proj``."""
    return peft_name.removeprefix("base_model.model.")


@dataclass
class _Decode:
    """Static tensors and (on CUDA) the captured graph of one (batch, cache length) shape."""

    cache: object
    token: torch.Tensor  # (B, 1) the token fed in / sampled out
    position: torch.Tensor  # (B, 1) its position id
    step: torch.Tensor  # () cache index of the token fed in
    valid: torch.Tensor  # (B, L) bool: key positions that are not padding
    inv_temperature: torch.Tensor  # ()
    graph: object = None
    graph_greedy: bool | None = None  # whether the captured graph takes the argmax (temperature 0) or samples


class GraphSampler:
    """Samples completions from ``model`` (a plain causal LM, e.g. from :func:`merged_copy`).

    ``compile``: run the decode step through ``torch.compile`` (fused kernels) before capturing it; each new
    (batch, cache length) shape then compiles once. ``batch_bucket``: batches are padded up to a multiple of
    it, so the few batch sizes of a run (a step's prompts, dynamic-sampling rounds) share captured graphs.
    """

    def __init__(
        self,
        model: torch.nn.Module,
        use_cuda_graph: bool | None = None,
        compile: bool = False,
        batch_bucket: int = 1,
        min_width: int = 0,
    ):
        self.model = model
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.use_cuda_graph = self.device.type == "cuda" if use_cuda_graph is None else use_cuda_graph
        self.compile = compile and self.device.type == "cuda"  # on CPU (tests) the loop runs eagerly
        self.batch_bucket = max(1, batch_bucket)
        self.min_width = max(0, min_width)  # the widest prompt the caller expects: the first cache fits it already
        self.boolean_mask = getattr(model.config, "_attn_implementation", None) in (ATTENTION, PACKED_ATTENTION)
        self._next_token_compiled = None
        self._shapes: dict[tuple[int, int], _Decode] = {}

    def _state(self, batch: int, width: int, max_new_tokens: int) -> tuple[_Decode, int]:
        """The decode state for ``batch`` rows of prompts up to ``width`` tokens, and the width to pad them to.

        A state whose cache holds at least ``width + max_new_tokens`` is reused (prompts are padded further
        left: padding is masked out), so a run settles on one shape per batch size instead of one per prompt
        width: each new shape means a graph capture, and with ``compile`` a compilation (~30 s on an H100).
        A new state gets ``WIDTH_HEADROOM`` and replaces the smaller ones of its batch size, freeing their
        caches and graphs.
        """
        from transformers import StaticCache

        fits = [
            (length, state)
            for (rows, length), state in self._shapes.items()
            if rows == batch and length - max_new_tokens >= width
        ]
        if fits:
            length, state = min(fits, key=lambda item: item[0])
            return state, length - max_new_tokens
        for key in [key for key in self._shapes if key[0] == batch]:
            del self._shapes[key]
        width = -(-int(max(width, self.min_width) * WIDTH_HEADROOM) // PROMPT_BUCKET) * PROMPT_BUCKET
        length = width + max_new_tokens
        cache = StaticCache(config=self.model.config, max_cache_len=length)
        zeros = dict(device=self.device, dtype=torch.long)
        self._shapes[(batch, length)] = _Decode(
            cache,
            torch.zeros(batch, 1, **zeros),
            torch.zeros(batch, 1, **zeros),
            torch.zeros((), **zeros),
            torch.zeros(batch, length, dtype=torch.bool, device=self.device),
            torch.ones((), device=self.device),
        )
        return self._shapes[(batch, length)], width

    def _mask(self, valid: torch.Tensor, query_index: torch.Tensor) -> torch.Tensor:
        """(B, 1, Q, L) mask: key j visible to query i when j is not padding and j <= i.

        Boolean (True: attend) for this module's attention, else additive as transformers' eager/sdpa expect.
        """
        keys = torch.arange(valid.size(1), device=self.device)
        visible = valid[:, None, None, :] & (keys[None, None, None, :] <= query_index[None, None, :, None])
        if self.boolean_mask:
            return visible
        return torch.zeros(visible.shape, dtype=self.dtype, device=self.device).masked_fill(
            ~visible, torch.finfo(self.dtype).min
        )

    def _sample(self, logits: torch.Tensor, inv_temperature: torch.Tensor, greedy: bool) -> torch.Tensor:
        logits = logits.float()
        if greedy:
            return logits.argmax(-1, keepdim=True)
        noise = -torch.log(-torch.log(torch.rand_like(logits).clamp_(min=1e-20)))  # Gumbel-max = softmax sampling
        return (logits * inv_temperature + noise).argmax(-1, keepdim=True)

    def _next_token(self, token, position, step, valid, inv_temperature, cache, greedy: bool) -> torch.Tensor:
        """The token sampled after feeding ``token`` at cache index ``step`` (the part that ``compile`` fuses)."""
        mask = self._mask(valid, step.view(1))
        logits = self.model(
            input_ids=token, attention_mask=mask, position_ids=position, past_key_values=cache, use_cache=True
        ).logits[:, -1]
        return self._sample(logits, inv_temperature, greedy)

    def _decode_step(self, state: _Decode, greedy: bool) -> None:
        """Feed ``state.token`` at ``state.step``; leave the next sampled token in ``state.token`` (graph-safe)."""
        next_token = self._next_token
        if self.compile:
            if self._next_token_compiled is None:
                self._next_token_compiled = torch.compile(self._next_token, dynamic=False)
            next_token = self._next_token_compiled
        token = next_token(
            state.token, state.position, state.step, state.valid, state.inv_temperature, state.cache, greedy
        )
        state.token.copy_(token)
        state.position.add_(1)
        state.step.add_(1)

    def _capture(self, state: _Decode, greedy: bool) -> None:
        """Capture one decode step in a CUDA graph (after warm-up on a side stream, as PyTorch recommends).

        Warm-up and capture advance the cache and the positions: the caller resets and prefills again after.
        """
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(2):
                self._decode_step(state, greedy)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            self._decode_step(state, greedy)
        state.graph, state.graph_greedy = graph, greedy

    def _capture_or_fall_back(self, state: _Decode, greedy: bool) -> None:
        """Capture the decode step; if that fails, try again uncompiled, then decode without a graph."""
        try:
            self._capture(state, greedy)
            return
        except Exception as exc:  # noqa: BLE001 - any capture failure: fall back, saying why
            if not self.compile:
                logger.warning("CUDA graph capture failed (%s); decoding without a graph", exc)
                self.use_cuda_graph = False
                return
            logger.warning(
                "CUDA graph capture of the compiled decode step failed (%s); capturing it uncompiled",
                str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
            )
            self.compile = False
        self._capture_or_fall_back(state, greedy)

    def _prefill(self, state: _Decode, ids: torch.Tensor, lengths: torch.Tensor, greedy: bool) -> None:
        """Reset the cache, run the padded prompts through it and leave the first sampled token in ``state``."""
        width = ids.size(1)
        state.cache.reset()
        positions = (state.valid[:, :width].long().cumsum(-1) - 1).clamp(min=0)
        mask = self._mask(state.valid, torch.arange(width, device=self.device))
        logits = self.model(  # logits of the last position only: all of them took rows x width x vocab (2.8 GB
            input_ids=ids,  # for 8 prompts of 1,400 tokens; results/bench-prefill)
            attention_mask=mask,
            position_ids=positions,
            past_key_values=state.cache,
            use_cache=True,
            logits_to_keep=1,
        ).logits[:, -1]
        state.token.copy_(self._sample(logits, state.inv_temperature, greedy))
        state.position.copy_(lengths.view(-1, 1))
        state.step.fill_(width)

    @torch.no_grad()
    def sample(
        self,
        prompts: list[list[int]],
        max_new_tokens: int,
        eos_token_ids,
        pad_token_id: int,
        temperature: float = 1.0,
        on_token: Callable[[], None] | None = None,
    ) -> list[list[int]]:
        """Completion token ids per prompt, each up to and including its first end token.

        ``on_token``: called after each token step (the prefill's first token included), e.g. a progress bar's tick.
        """
        greedy = temperature == 0
        n_prompts = len(prompts)
        batch = -(-n_prompts // self.batch_bucket) * self.batch_bucket
        prompts = list(prompts) + [prompts[-1]] * (batch - n_prompts)  # filler rows, dropped below
        width = -(-max(map(len, prompts)) // PROMPT_BUCKET) * PROMPT_BUCKET
        state, width = self._state(batch, width, max_new_tokens)
        pad = pad_token_id if pad_token_id is not None else min(eos_token_ids)  # any id: padding is masked out
        ids = torch.full((batch, width), pad, dtype=torch.long)
        state.valid.fill_(True)
        for row, prompt in enumerate(prompts):
            ids[row, width - len(prompt) :] = torch.tensor(prompt)
            state.valid[row, : width - len(prompt)] = False
        ids = ids.to(self.device)
        lengths = torch.tensor([len(p) for p in prompts], device=self.device)
        state.inv_temperature.fill_(1.0 / temperature if temperature else 1.0)
        self._prefill(state, ids, lengths, greedy)
        if state.graph is not None and state.graph_greedy != greedy:  # captured for the other decoding: capture again
            state.graph = None
        if self.use_cuda_graph and state.graph is None and max_new_tokens > 1:
            start = time.perf_counter()
            self._capture_or_fall_back(state, greedy)
            logger.info(
                "fast generation on %s: %s decode step for %d rows, cache of %d tokens, ready in %.1f s",
                self.device,
                ("compiled, CUDA graph" if self.compile else "CUDA graph") if state.graph else "eager",
                batch,
                width + max_new_tokens,
                time.perf_counter() - start,
            )
            self._prefill(state, ids, lengths, greedy)  # capture ran steps on the cache: start again
        eos = torch.tensor(sorted(set(eos_token_ids)), device=self.device)
        out = torch.empty(batch, max_new_tokens, dtype=torch.long, device=self.device)
        out[:, 0:1] = state.token
        done = torch.isin(state.token.view(-1), eos)
        tick = on_token or (lambda: None)
        tick()
        produced, start = 1, time.perf_counter()
        for t in range(1, max_new_tokens):
            if state.graph is not None:
                state.graph.replay()
            else:
                self._decode_step(state, greedy)
            out[:, t : t + 1] = state.token
            done |= torch.isin(state.token.view(-1), eos)
            produced = t + 1
            tick()
            if t % 16 == 0 and bool(done.all()):
                break
        rows = out[:n_prompts, :produced].tolist()
        logger.debug(
            "decoded %d rows x %d token steps in %.3f s on %s (%s)",
            batch,
            produced,
            time.perf_counter() - start,
            self.device,
            "graph" if state.graph is not None else "eager",
        )
        return [_until_end(row, eos_token_ids) for row in rows]


def _until_end(tokens: list[int], eos_token_ids) -> list[int]:
    for i, token in enumerate(tokens):
        if token in eos_token_ids:
            return tokens[: i + 1]
    return tokens
