"""The model behind the demo: one base model, stage adapters switched on it, greedy generation streamed as text."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

from model_sources import Adapter, ModelSourceProblem, adapter_folder

from dataset_builders.completion_budget import completion_budget
from dataset_builders.prompts import end_token_ids, interleave_prompt

logger = logging.getLogger(__name__)


class AdapterUnusable(RuntimeError):
    """An adapter that cannot be loaded onto the base model; the message says why."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Interleaver:
    """Loads the base model once; ``stream`` generates greedily with the base model or one stage adapter."""

    def __init__(self, base_model: str, device: str | None = None):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.base_model = base_model
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        dtype = torch.bfloat16 if self.device.startswith("cuda") else torch.float32
        started = time.perf_counter()
        try:
            model = AutoModelForCausalLM.from_pretrained(base_model, dtype=dtype)  # first: its error names config.json
            self.tokenizer = AutoTokenizer.from_pretrained(base_model)
        except (OSError, ValueError) as exc:  # a folder that is no model, a bad or unreachable Hub id
            raise ModelSourceProblem(
                f"could not load the base model {base_model!r} ({_first_line(exc)}); give a model "
                f"folder, or a Hub id 'owner/name' (which needs network access)"
            ) from None
        self.model = model.to(self.device).eval()
        self.load_seconds = time.perf_counter() - started
        self._adapters: dict[Adapter, str] = {}  # adapter -> its peft adapter name
        self._lock = threading.Lock()  # one generation at a time on the one model (adapters are switched on it)
        logger.info("loaded %s on %s in %.1f s", base_model, self.device, self.load_seconds)

    @property
    def context_length(self) -> int:
        return int(getattr(self.model.config, "max_position_embeddings", 0) or 0)

    def prompt_ids(self, text_a: str, text_b: str):
        """The tokenized chat prompt the training used (dataset_builders.prompts), ending in the assistant turn."""
        return self.tokenizer.apply_chat_template(
            interleave_prompt(text_a, text_b),
            add_generation_prompt=True,
            tokenize=True,
            return_dict=True,
            return_tensors="pt",
        )

    def max_new_tokens(self, target: str) -> int:
        """The project's one completion budget on the target's token count: room to finish, and to overshoot a
        little (overshoot shows as extra words)."""
        n_tokens = len(self.tokenizer(" " + target, add_special_tokens=False)["input_ids"])
        return completion_budget(n_tokens, n_tokens)

    def _use_adapter(self, adapter: Adapter | None):
        """Activate ``adapter`` (loading it the first time); the base model when None. Returns the model to call."""
        from peft import PeftModel

        if adapter is None:
            return self.model
        if adapter not in self._adapters:
            name = f"adapter_{len(self._adapters)}"
            folder = adapter_folder(adapter)
            try:
                if isinstance(self.model, PeftModel):
                    self.model.load_adapter(folder, adapter_name=name)
                else:
                    self.model = PeftModel.from_pretrained(self.model, folder, adapter_name=name).eval()
            except (ValueError, RuntimeError, OSError, KeyError) as exc:
                raise AdapterUnusable(
                    f"the {adapter.label} does not load onto the base model {self.base_model}: {_first_line(exc)}"
                ) from None
            self._adapters[adapter] = name
            logger.info("loaded %s as %s", adapter.label, name)
        self.model.set_adapter(self._adapters[adapter])
        return self.model

    def stream(self, text_a: str, text_b: str, adapter: Adapter | None, max_new_tokens: int) -> Iterator[str]:
        """Greedy generation for the interleave prompt, yielding the growing completion text.

        Closing the iterator early (a cancelled request) stops the generation at the next token.
        """
        import contextlib

        import torch
        from transformers import StoppingCriteria, StoppingCriteriaList, TextIteratorStreamer

        class _StopWhenSet(StoppingCriteria):
            def __init__(self, event: threading.Event):
                self.event = event

            def __call__(self, input_ids, scores, **kwargs):
                return torch.full((input_ids.shape[0],), self.event.is_set(), dtype=torch.bool, device=input_ids.device)

        inputs = self.prompt_ids(text_a, text_b).to(self.device)
        stop = threading.Event()
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=True)
        failure: list[BaseException] = []

        with self._lock:
            model = self._use_adapter(adapter)
            base_only = adapter is None and hasattr(model, "disable_adapter")

            def generate():
                try:
                    with torch.inference_mode(), model.disable_adapter() if base_only else contextlib.nullcontext():
                        model.generate(
                            **inputs,
                            streamer=streamer,
                            max_new_tokens=max_new_tokens,
                            do_sample=False,
                            temperature=None,
                            top_p=None,
                            top_k=None,
                            stopping_criteria=StoppingCriteriaList([_StopWhenSet(stop)]),
                            pad_token_id=self.tokenizer.pad_token_id or self.tokenizer.eos_token_id,
                            eos_token_id=end_token_ids(model, self.tokenizer),  # where training stopped rollouts
                        )
                except BaseException as exc:  # handed to the caller; end the stream so it does not wait forever
                    failure.append(exc)
                    streamer.end()

            worker = threading.Thread(target=generate, name="interleave-generate", daemon=True)
            worker.start()
            text = ""
            try:
                for chunk in streamer:
                    if chunk:
                        text += chunk
                        yield text
            finally:
                stop.set()
                worker.join()
        if failure:
            raise failure[0]
