"""TRL's GRPOTrainer plus two things it lacks: dynamic sampling, and every scored rollout handed to observers.

The override wraps ``_generate_and_score_completions`` (one generation batch): it records each
completion with its prompt, reference and rewards, replaces prompt groups whose rewards are all
equal with fresh problems (up to ``dynamic_sampling_rounds`` times; one process only), and passes the
rollouts to observers (completion log, sample outputs, collapse guard). TRL's own reward metrics keep
describing the step's own prompts: metrics from resampling rounds are dropped and reported separately.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from accelerate.utils import gather_object
from trl import GRPOTrainer

from dataset_builders.prompts import completion_text
from training.callbacks.collapse_guard import GroupStats, group_stats
from training.core.reporting import report
from training.trainer.dynamic_sampling import replace_groups, zero_std_groups
from training.trainer.step_progress import StepProgress

logger = logging.getLogger(__name__)


@dataclass
class Rollout:
    """One scored generation batch, in global order (groups of ``group_size`` consecutive records)."""

    step: int  # the optimizer step these generations are for (1-based)
    round: int  # 0: the step's own prompts; 1, 2, ...: dynamic sampling rounds
    group_size: int
    records: list[dict] = field(default_factory=list)  # id, prompt, completion, reference, rewards, reward, advantage

    @property
    def rewards(self) -> list[float]:
        return [r["reward"] for r in self.records]

    def stats(self) -> GroupStats:
        return group_stats([r["completion"] for r in self.records], self.rewards, self.group_size)


def _prompt_text(prompt) -> str:
    """The last user turn of a conversational prompt (or the prompt string)."""
    if isinstance(prompt, str):
        return prompt
    return next((m["content"] for m in reversed(prompt) if m.get("role") == "user"), str(prompt))


# The private TRL 1.16 methods ObservedGRPOTrainer overrides (each calls the original through super()), with the
# parameters it relies on; tests/training/trainer/test_trl_contract.py checks them against the installed TRL, and
# training.core.trl_version stops a run on another TRL version. Each has no public hook: rollouts are generated,
# scored and turned into advantages inside _generate_and_score_completions, with no callback in between.
TRL_OVERRIDES = {
    "_generate_single_turn": "(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False)",
    "_tokenize_prompts": "(self, prompts)",  # continuation problems: an assistant turn left open
    "_load_rng_state": "(self, checkpoint)",  # RNG states restored again before the first step of a resumed run
    "_prepare_inputs": "(self, generation_batch)",
    "_calculate_rewards": "(self, inputs, prompts, completions, completion_ids_list)",
    "_generate_and_score_completions": "(self, inputs)",
    "training_step": "(self, model, inputs, num_items_in_batch)",  # public, but its signature matters too
    # --negative_boost_cap: reads inputs["advantages"] after _get_per_token_logps_and_entropies (the boost's hook)
    "_compute_loss": "(self, model, inputs)",
    # --shared_prompt_loss: each group's prompt once in the loss pass (training.trainer.shared_prompt)
    "_get_per_token_logps_and_entropies": "(self, model, input_ids, attention_mask, logits_to_keep, batch_size=None, "
    "compute_entropy=False, compute_aux_loss=False, pixel_values=None, image_grid_thw=None, num_images=None, "
    "pixel_attention_mask=None, spatial_shapes=None, num_tiles=None, image_sizes=None, token_type_ids=None, "
    "mm_token_type_ids=None, image_position_ids=None)",
}
# Attributes of TRL's GRPOTrainer the overrides read (and ``_metrics["train"]``, a dict of lists, that they append to).
TRL_ATTRIBUTES = (
    "use_vllm",
    "top_k",
    "top_p",
    "min_p",
    "repetition_penalty",
    "is_fsdp_enabled",
    "is_deepspeed_enabled",
    "max_completion_length",
    "eos_token_ids",
    "_tokenizer",
    "temperature",
    "reward_weights",
    "reward_func_names",
    "num_generations",
    "_metrics",
)


class ObservedGRPOTrainer(GRPOTrainer):
    """GRPOTrainer with dynamic sampling and rollout observers.

    ``reference_column``: the dataset column logged as each completion's reference (``target``, ``answer``).
    ``resample_problems``: an iterator of fresh problems (dataset rows) for dynamic sampling.
    ``observers``: callables ``(rollouts: list[Rollout], final: Rollout) -> None``, called on the main process.
    ``data_position`` / ``resample_position``: problems drawn so far from the stream and the resampling range.
    ``progress``: what a slow step shows while it runs (default: a StepProgress on the main process).
    """

    def __init__(
        self,
        *args,
        reference_column: str = "target",
        resample_problems: Iterator[dict] | None = None,
        dynamic_sampling_rounds: int = 0,
        observers: list[Callable] | None = None,
        data_position: int = 0,
        resample_position: int = 0,
        fast_generation: bool = False,
        fast_generation_compile: bool = False,
        word_credit: float = 0.0,
        cut_word_credit: bool = False,
        credit_unit: str = "word",
        keep_word_signal_groups: bool = False,
        negative_boost_cap: float = 0.0,
        shared_prompt_loss: bool = False,
        progress: StepProgress | None = None,
        prompt_width_hint: int = 0,
        **kwargs,
    ):
        from training.trainer.attention_kernels import use_safe_attention_kernels

        use_safe_attention_kernels()  # left-padded prompts: cuDNN attention's backward gives NaN gradients
        super().__init__(*args, **kwargs)
        from dataset_builders.prompts import end_token_ids

        self.eos_token_ids = end_token_ids(self.model, self._tokenizer)  # where evaluation and the demo stop too
        # prompt_width_hint: the widest train prompt the task expects; a mix of lengths otherwise widens the sampler's
        # cache (and recompiles its decode step, ~35 s) when its first longer prompts come
        # (results/grpo/gpu-smoke-train-words)
        self.graph_sampler = None
        if fast_generation:
            self.graph_sampler = self._graph_sampler(fast_generation_compile, prompt_width_hint)
        self._generation_seconds = 0.0
        self.reference_column = reference_column
        self.resample_problems = resample_problems
        self.dynamic_sampling_rounds = dynamic_sampling_rounds if resample_problems is not None else 0
        self.observers = list(observers or [])
        self.data_position = data_position
        self.resample_position = resample_position
        self._scored: tuple | None = None
        self.nonfinite_probe = None  # training.callbacks.nonfinite_probe.NonFiniteProbe, when diagnosing
        # weight of per-word advantages (training.trainer.word_credit); 0: sequence-level only
        self.word_credit = word_credit
        self.cut_word_credit = cut_word_credit  # a word cut short charges the token that ended it (word_credit.py)
        self.credit_unit = credit_unit  # what one unit of that credit is: "word", or "char" (Task.credit_unit)
        # dynamic sampling keeps equal-reward groups that per-word credit still learns from (a repeated slip)
        self.keep_word_signal_groups = keep_word_signal_groups
        # negative advantages x min(cap, 1 / (1 - p)) in the loss (training.trainer.confident_negatives); 0: off
        self.negative_boost_cap = negative_boost_cap
        # the loss pass computes each group's prompt once (training.trainer.shared_prompt); off: TRL's pass
        self.shared_prompt_loss = shared_prompt_loss
        self._shared_prompt_fell_back = False
        self._token_words = None
        self._rng_checkpoint: str | None = None
        self.progress = progress or StepProgress(enabled=self.accelerator.is_main_process, report=report)
        self._rollout_round = 0  # 0: the step's own prompts; 1, 2, ...: dynamic sampling rounds
        self._step_completions = 0
        if self.dynamic_sampling_rounds and self.accelerator.num_processes > 1:
            logger.warning(
                "dynamic sampling runs on one process only; it is off for this %d-process run "
                "(the collapse guard still watches)",
                self.accelerator.num_processes,
            )
            self.dynamic_sampling_rounds = 0

    def _graph_sampler(self, compile: bool = False, min_width: int = 0):
        """A GraphSampler on a merged copy of the policy, or None (with the reason) where it does not apply."""
        from training.trainer.graph_sampler import GraphSampler, merged_copy

        unsupported = {
            "vLLM": self.use_vllm,
            "top_k": self.top_k not in (None, 0),
            "top_p": self.top_p != 1.0,
            "min_p": self.min_p is not None,
            "repetition_penalty": self.repetition_penalty != 1.0,
            "FSDP (sharded parameters)": self.is_fsdp_enabled,
            "DeepSpeed": self.is_deepspeed_enabled,
        }
        reasons = [name for name, on in unsupported.items() if on]
        if reasons:
            logger.warning("fast generation is off (not supported with %s); using TRL's generate", ", ".join(reasons))
            return None
        import torch

        batch = self.args.per_device_train_batch_size * self.args.steps_per_generation  # one local generation batch
        # Sample at the precision the mixed-precision forward computes in (the weights may be float32).
        dtype = torch.bfloat16 if self.args.bf16 else torch.float16 if self.args.fp16 else None
        return GraphSampler(
            merged_copy(self.accelerator.unwrap_model(self.model), dtype=dtype),
            compile=compile,
            batch_bucket=batch,
            min_width=min_width,
        )

    def _tokenize_prompts(self, prompts: list):
        """TRL's tokenization, but a prompt that ends with an assistant turn (a continuation problem,
        ``dataset_builders/interleave_curriculum/continuation.py``) is left open for the model to continue that turn,
        where TRL would close it and open a new one."""
        from dataset_builders.prompts import chat_prompt_ids, ends_with_open_turn

        if not any(ends_with_open_turn(prompt) for prompt in prompts):
            return super()._tokenize_prompts(prompts)

        return [chat_prompt_ids(self.processing_class, prompt) for prompt in prompts], None, {}

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        start = time.perf_counter()
        if not self.model.training:
            return super()._generate_single_turn(
                prompt_ids, images, multimodal_fields, num_generations, has_tool_images
            )
        step = self.state.global_step + 1
        try:
            with self.progress.rollout(step, len(prompt_ids), self.max_completion_length, self._rollout_round) as tick:
                if self.graph_sampler is None or images is not None:
                    with _counting_forward_calls(self.accelerator.unwrap_model(self.model), tick):
                        return super()._generate_single_turn(
                            prompt_ids, images, multimodal_fields, num_generations, has_tool_images
                        )
                from training.trainer.graph_sampler import sync_weights

                sync_weights(self.accelerator.unwrap_model(self.model), self.graph_sampler.model)
                completions = self.graph_sampler.sample(
                    prompt_ids,
                    self.max_completion_length,
                    self.eos_token_ids,
                    self._tokenizer.pad_token_id,
                    self.temperature,
                    on_token=tick,
                )
                return completions, None
        finally:  # token ids come back as lists, so the GPU work is done by now
            self._generation_seconds += time.perf_counter() - start

    def _load_rng_state(self, checkpoint):
        # The Trainer restores RNG states before it builds the dataloader iterator, which draws a seed from the
        # global RNG; an uninterrupted run drew that seed at its start. Restore them again right before the
        # first step so a resumed run samples exactly what the uninterrupted run would have.
        super()._load_rng_state(checkpoint)
        self._rng_checkpoint = checkpoint

    def _prepare_inputs(self, generation_batch):
        if self.shared_prompt_loss:
            inputs = self._prepare_inputs_in_groups(generation_batch)
        else:
            inputs = super()._prepare_inputs(generation_batch)
        if self.model.training:
            self.progress.update_started(self.state.global_step + 1, self._step_completions)
        if self.nonfinite_probe is not None and self.model.training:
            self.nonfinite_probe.remember(inputs)  # the micro-batch the loss is computed on
        return inputs

    def _prepare_inputs_in_groups(self, generation_batch):
        """TRL's _prepare_inputs without its shuffle of the generation batch, so that each micro-batch holds whole
        groups of one prompt (``--shared_prompt_loss`` computes each prompt once). With one optimizer step per
        generation batch and a loss normalized over that batch (``shared_prompt_settings``), which micro-batch a row
        falls in does not change the step."""
        import trl.trainer.grpo_trainer as trl_grpo

        shuffle = trl_grpo.shuffle_sequence_dict
        trl_grpo.shuffle_sequence_dict = lambda batch: batch
        try:
            return super()._prepare_inputs(generation_batch)
        finally:
            trl_grpo.shuffle_sequence_dict = shuffle

    def training_step(self, model, inputs, num_items_in_batch):
        if self._rng_checkpoint is not None:
            super()._load_rng_state(self._rng_checkpoint)
            self._rng_checkpoint = None
        return super().training_step(model, inputs, num_items_in_batch)

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        rewards_per_func = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        self._scored = (inputs, completions, rewards_per_func)
        return rewards_per_func

    def _rollout(self, step: int, round_: int, output: dict) -> Rollout:
        """The records of the batch just scored, gathered from every process."""
        inputs, completions, rewards_per_func = self._scored
        local = [
            {
                "id": x.get("id"),
                "prompt": _prompt_text(x["prompt"]),
                "completion": completion_text(c),
                "reference": x.get(self.reference_column),
            }
            for x, c in zip(inputs, completions, strict=True)
        ]
        records = gather_object(local)
        advantages = self.accelerator.gather(output["advantages"]).tolist()
        weights = self.reward_weights.to(rewards_per_func.device)
        totals = (rewards_per_func * weights.unsqueeze(0)).nansum(dim=1).tolist()
        for i, record in enumerate(records):
            record["rewards"] = {
                name: _finite(rewards_per_func[i, j].item()) for j, name in enumerate(self.reward_func_names)
            }
            record["reward"] = totals[i]
            record["advantage"] = advantages[i]
            record["round"] = round_
        return Rollout(step=step, round=round_, group_size=self.num_generations, records=records)

    def _generate_and_score_completions(self, inputs):
        if not self.model.training:
            return super()._generate_and_score_completions(inputs)
        step = self.state.global_step + 1
        self._generation_seconds = 0.0
        self._rollout_round = 0
        self.progress.step_started(step)
        output = super()._generate_and_score_completions(inputs)
        first = self._rollout(step, 0, output)
        self.data_position += len(first.records) // self.num_generations
        rollouts, final_records = [first], list(first.records)
        for round_ in range(1, self.dynamic_sampling_rounds + 1):
            zero = self._uninformative_groups(final_records)
            if not zero:
                break
            self._rollout_round = round_
            output, fresh = self._resample(step, round_, output, zero, final_records)
            rollouts.append(fresh)
        final = Rollout(step=step, round=rollouts[-1].round, group_size=self.num_generations, records=final_records)
        if self.word_credit:
            output = self._with_word_credit(output, final_records)
        self._record_group_metrics(first, final, rollouts)
        self._metrics["train"]["time/generation"].append(self._generation_seconds)  # all rounds of the step
        self._step_completions = len(final_records)
        if self.accelerator.is_main_process:
            for observe in self.observers:
                observe(rollouts, final)
        return output

    def _compute_loss(self, model, inputs):
        """TRL's loss; with ``negative_boost_cap`` its advantages boosted where negative and the policy sure of the
        token (``training.trainer.confident_negatives``), from the log-probabilities the loss computes anyway."""
        if not self.negative_boost_cap:
            return super()._compute_loss(model, inputs)
        from training.trainer.confident_negatives import boosted_negatives

        inputs = dict(inputs)  # the buffered batch keeps its own advantages
        compute = self._get_per_token_logps_and_entropies

        def and_boost(*args, **kwargs):
            per_token_logps, *rest = compute(*args, **kwargs)
            inputs["advantages"] = boosted_negatives(inputs["advantages"], per_token_logps, self.negative_boost_cap)
            return (per_token_logps, *rest)

        self._get_per_token_logps_and_entropies = and_boost  # TRL reads inputs["advantages"] after this call
        try:
            return super()._compute_loss(model, inputs)
        finally:
            del self._get_per_token_logps_and_entropies

    def _get_per_token_logps_and_entropies(
        self,
        model,
        input_ids,
        attention_mask,
        logits_to_keep,
        batch_size=None,
        compute_entropy=False,
        compute_aux_loss=False,
        pixel_values=None,
        image_grid_thw=None,
        num_images=None,
        pixel_attention_mask=None,
        spatial_shapes=None,
        num_tiles=None,
        image_sizes=None,
        token_type_ids=None,
        mm_token_type_ids=None,
        image_position_ids=None,
    ):
        """TRL's per-token log-probabilities, entropies and aux loss; with ``shared_prompt_loss`` and a text-only,
        dense model, each chunk's groups of equal prompts computed once (``training.trainer.shared_prompt``: the same
        numbers). A chunk whose rows are not in such groups, or any other case, runs TRL's pass."""
        extra = {  # multimodal and token-type inputs, passed on as given
            "pixel_values": pixel_values,
            "image_grid_thw": image_grid_thw,
            "num_images": num_images,
            "pixel_attention_mask": pixel_attention_mask,
            "spatial_shapes": spatial_shapes,
            "num_tiles": num_tiles,
            "image_sizes": image_sizes,
            "token_type_ids": token_type_ids,
            "mm_token_type_ids": mm_token_type_ids,
            "image_position_ids": image_position_ids,
        }
        if self.shared_prompt_loss and not compute_aux_loss and all(value is None for value in extra.values()):
            import torch

            from training.trainer.shared_prompt import shared_prompt_logps

            chunk = batch_size or input_ids.size(0)
            starts = range(0, input_ids.size(0), chunk)
            parts = []
            with self.accelerator.autocast():
                for start in starts:
                    part = shared_prompt_logps(
                        model,
                        input_ids[start : start + chunk],
                        attention_mask[start : start + chunk],
                        logits_to_keep,
                        compute_entropy,
                    )
                    if part is None:
                        break
                    parts.append(part)
            if len(parts) == len(starts):  # every chunk in groups
                logps = torch.cat([logps for logps, _ in parts])
                entropies = torch.cat([entropy for _, entropy in parts]) if compute_entropy else None
                return logps, entropies, None
            if not self._shared_prompt_fell_back:
                self._shared_prompt_fell_back = True  # said once a run
                logger.warning(
                    "--shared_prompt_loss: a micro-batch's rows are not in groups of equal prompts, so TRL's pass "
                    "scores it (the batch size should be a multiple of num_generations)"
                )
        return super()._get_per_token_logps_and_entropies(
            model,
            input_ids,
            attention_mask,
            logits_to_keep,
            batch_size=batch_size,
            compute_entropy=compute_entropy,
            compute_aux_loss=compute_aux_loss,
            **extra,
        )

    def _uninformative_groups(self, records: list[dict]) -> list[int]:
        """Groups that teach nothing: equal rewards, and with ``keep_word_signal_groups`` also equal word scores."""
        zero = zero_std_groups([r["reward"] for r in records], self.num_generations)
        if not (zero and self.keep_word_signal_groups):
            return zero
        from training.trainer.word_credit import uniform_credit_groups

        rows = [row for g in zero for row in records[g * self.num_generations : (g + 1) * self.num_generations]]
        uniform = uniform_credit_groups(
            [str(r["completion"]) for r in rows],
            [str(r["reference"]) for r in rows],
            self.num_generations,
            unit=self.credit_unit,
        )
        return [zero[i] for i in uniform]

    def _with_word_credit(self, output: dict, final_records: list[dict]) -> dict:
        """``output`` with (B, T) advantages: (1 - w) x the sequence advantage + w x the per-word advantage."""
        from training.trainer.word_credit import TokenWords, word_credit_advantages

        if self._token_words is None:
            self._token_words = TokenWords(self._tokenizer)
        ids, mask = output["completion_ids"], output["completion_mask"]
        local = ids.size(0)
        first = self.accelerator.process_index * local  # records are gathered in process order
        targets = [str(r["reference"]) for r in final_records[first : first + local]]
        words = word_credit_advantages(
            ids,
            mask,
            targets,
            self.num_generations,
            self._token_words,
            unit=self.credit_unit,
            cut_ends=self.cut_word_credit,
        )
        sequence = output["advantages"].unsqueeze(1).expand_as(words)
        return {**output, "advantages": (1 - self.word_credit) * sequence + self.word_credit * words.to(sequence)}

    def _resample(self, step: int, round_: int, output: dict, zero: list[int], final_records: list[dict]):
        """Generate fresh groups for the zero-variance groups ``zero``; splice in those that have variance."""
        size = self.num_generations
        problems = [next(self.resample_problems) for _ in zero]
        self.resample_position += len(problems)
        fresh_inputs = [problem for problem in problems for _ in range(size)]
        kept_metrics = {key: len(values) for key, values in self._metrics["train"].items()}
        fresh_output = super()._generate_and_score_completions(fresh_inputs)
        for key, values in self._metrics["train"].items():  # TRL's step metrics describe the step's own prompts
            del values[kept_metrics.get(key, 0) if key != "num_tokens" else len(values) :]
        fresh = self._rollout(step, round_, fresh_output)
        varied = set(range(len(problems))) - set(self._uninformative_groups(fresh.records))
        pairs = [(dst, src) for src, dst in enumerate(zero) if src in varied]
        for dst, src in pairs:
            final_records[dst * size : (dst + 1) * size] = fresh.records[src * size : (src + 1) * size]
        return replace_groups(output, fresh_output, pairs, size, self._tokenizer.pad_token_id), fresh

    def _record_group_metrics(self, first: Rollout, final: Rollout, rollouts: list[Rollout]) -> None:
        metrics = self._metrics["train"]
        first_stats, final_stats = first.stats(), final.stats()
        metrics["groups/zero_std_fraction_sampled"].append(first_stats.zero_std_fraction)
        metrics["groups/identical_fraction_sampled"].append(first_stats.identical_fraction)
        metrics["groups/zero_std_fraction_trained"].append(final_stats.zero_std_fraction)
        metrics["groups/resampled"].append(float(sum(len(r.records) for r in rollouts[1:]) // self.num_generations))
        metrics["data/position"] = [float(self.data_position)]


@contextmanager
def _counting_forward_calls(model, tick: Callable[[], None]):
    """Call ``tick`` after each forward pass of ``model``'s output layer (one per token step of ``generate``)."""
    handle = model.get_output_embeddings().register_forward_hook(lambda module, args, output: tick())
    try:
        yield
    finally:
        handle.remove()


def _finite(value: float) -> float | None:
    """JSON-safe reward: None where a reward function abstained (NaN)."""
    return None if math.isnan(value) else value
