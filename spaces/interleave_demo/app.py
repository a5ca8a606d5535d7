"""Gradio Space: paste two texts, watch a model interleave them word by word, and see where it slipped.

Run from the interleave-grpo checkout (``make space``) or from the copy that ``make publish-space`` publishes
(see shared_code.py).
Settings (flag, else environment variable, else default): ``--base_model`` / ``INTERLEAVE_DEMO_BASE_MODEL``,
``--adapters`` / ``INTERLEAVE_DEMO_ADAPTERS``, ``--max_words`` / ``INTERLEAVE_DEMO_MAX_WORDS``; see README.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import dataclass

from shared_code import SharedCodeMissing, use_shared_code

try:
    SHARED_CODE_ROOT = use_shared_code()
except SharedCodeMissing as missing:
    sys.exit(f"error: {missing}")

import gradio as gr  # noqa: E402
from alignment_view import alignment_html, alignment_summary  # noqa: E402
from example_texts import EXAMPLES  # noqa: E402
from interleaver import AdapterUnusable, Interleaver  # noqa: E402
from model_sources import (  # noqa: E402
    ADAPTER_PATTERN,
    SHIPPED_ADAPTER,
    Adapter,
    AdapterSource,
    ModelSourceProblem,
    default_base_model,
    parse_adapter_source,
    shipped_adapter_for,
)
from request_checks import InputProblem, check_texts, length_note, max_words_per_text  # noqa: E402
from serving import port_in_use, wait_until_answering  # noqa: E402

from dataset_builders.prompts import interleave_target  # noqa: E402
from metrics.needleman_wunsch.nw_alignment import normalize, nw_alignment  # noqa: E402

logger = logging.getLogger("interleave_demo")

BASE_CHOICE = "base"
QUEUE_SIZE = 32


@dataclass
class DemoSettings:
    base_model: str
    adapters: AdapterSource
    max_words: int
    device: str | None = None


def adapter_source(given: str | None, base_model: str) -> AdapterSource:
    """``given`` (the flag), else ``INTERLEAVE_DEMO_ADAPTERS``; with neither, the stage folders of the checkout and,
    when they hold no stage, the adapter shipped with the checkout (if trained on ``base_model``). A Space run from
    its own folder (not a checkout) has no shipped adapter."""
    spec = given or os.environ.get("INTERLEAVE_DEMO_ADAPTERS", "").strip()
    base_dir = _adapter_base_dir()
    source = parse_adapter_source(spec or ADAPTER_PATTERN, base_dir)
    if spec or base_dir is None:
        return source
    return AdapterSource(source.kind, source.spec, shipped_adapter_for(base_dir, base_model))


def _adapter_base_dir():
    """Relative adapter patterns are read from the checkout when the demo runs from one, else the working folder."""
    here = os.path.dirname(os.path.abspath(__file__))
    return None if str(SHARED_CODE_ROOT) == here else SHARED_CODE_ROOT


class Demo:
    """The demo's state (the loaded model, the adapters found) and its request handlers."""

    def __init__(self, settings: DemoSettings):
        self.settings = settings
        self.interleaver = Interleaver(settings.base_model, settings.device)
        self.adapters: dict[str, Adapter] = {}
        self.scan_adapters()

    def scan_adapters(self) -> dict[str, Adapter]:
        self.adapters = {a.key: a for a in self.settings.adapters.find()}
        return self.adapters

    def model_choices(self) -> list[tuple[str, str]]:
        return [(f"base model ({self.base_name})", BASE_CHOICE)] + [(a.label, k) for k, a in self.adapters.items()]

    def default_choice(self) -> str:
        return list(self.adapters)[-1] if self.adapters else BASE_CHOICE

    def status(self) -> str:
        interleaver, base = self.interleaver, self.settings.base_model
        where = f" (`{base}`)" if base != self.base_name else ""
        line = (
            f"Base model **{self.base_name}**{where} on {interleaver.device}, loaded in "
            f"{interleaver.load_seconds:.1f} s. "
        )
        if not self.adapters:
            return line + (
                f"**No trained adapter found** in {self.settings.adapters.describe()}: showing the base "
                f"model only. Train one with `make train-stage N=1`, or set `INTERLEAVE_DEMO_ADAPTERS` to "
                f"a Hub model repo with `stage-N` branches."
            )
        shipped = next((a for a in self.adapters.values() if a.shipped), None)
        if shipped:  # a later stage continues the stages before it (model_cards.stage_card.curriculum_span)
            span = "curriculum stage 1 only" if shipped.stage == 1 else f"curriculum stages 1-{shipped.stage}"
            return line + (
                f"No stage adapter trained in {self.settings.adapters.describe()}: offering the **adapter shipped "
                f"with the project** (`{SHIPPED_ADAPTER}`), trained on {span}. "
                f"`make train-stage N=...` writes your own."
            )
        stages = ", ".join(str(a.stage) for a in self.adapters.values())
        return line + f"Stage adapters found in {self.settings.adapters.describe()}: stage {stages}."

    @property
    def base_name(self) -> str:
        """A folder's name, or the Hub id."""
        base = self.settings.base_model
        return os.path.basename(base.rstrip("/")) if os.path.isdir(base) else base

    def refresh(self):
        """On page load: look for adapters again (a training run may have written a new stage)."""
        self.scan_adapters()
        return gr.update(choices=self.model_choices(), value=self.default_choice()), self.status()

    def word_counts(self, text_a: str, text_b: str) -> str:
        limit = self.settings.max_words
        return (
            f"Text A: {len((text_a or '').split())} words, Text B: {len((text_b or '').split())} words "
            f"(at most {limit} each)."
        )

    def _adapter(self, choice: str) -> Adapter | None:
        if choice in (None, "", BASE_CHOICE):
            return None
        if choice not in self.adapters:
            raise ModelSourceProblem(f"{choice} is not available (any more): pick a model from the list.")
        return self.adapters[choice]

    def interleave(self, text_a: str, text_b: str, choice: str):
        """Stream the model's interleave of the two texts; at the end, its NW score and the alignment drawn."""
        try:
            words_a, words_b = check_texts(text_a, text_b, self.settings.max_words)
            adapter = self._adapter(choice)
        except (InputProblem, ModelSourceProblem) as exc:
            raise gr.Error(str(exc), print_exception=False) from None
        text_a, text_b = " ".join(words_a), " ".join(words_b)  # single spaces, as in the training data
        target = interleave_target(words_a, words_b)
        n_target = len(words_a) + len(words_b)
        max_new = self.interleaver.max_new_tokens(target)
        prompt_tokens = self.interleaver.prompt_ids(text_a, text_b)["input_ids"].shape[1]
        context = self.interleaver.context_length
        if context and prompt_tokens + max_new > context:
            raise gr.Error(
                f"The prompt ({prompt_tokens} tokens) and its answer (up to {max_new}) do not fit the "
                f"model's context of {context} tokens: shorten the texts.",
                print_exception=False,
            )
        model_name = adapter.label if adapter else f"the base model ({self.base_name})"
        note = f"{length_note(words_a, words_b)} Generating greedily with {model_name}, up to {max_new} tokens."
        yield "", target, "**NW score:** waiting for the model…", "", note
        logger.info("interleave request started: %d + %d words, %s", len(words_a), len(words_b), model_name)
        output = ""
        try:
            for output in self.interleaver.stream(text_a, text_b, adapter, max_new):
                yield output, target, f"**NW score:** generating… {len(output.split())} of {n_target} words", "", note
        except (AdapterUnusable, ModelSourceProblem) as exc:
            raise gr.Error(str(exc), print_exception=False) from None
        alignment = nw_alignment(output, target)
        n_output = len(output.split())
        score = normalize(alignment.score, n_target, n_output)
        score_text = (
            f"**NW score: {score:.3f}** (alignment score S = {alignment.score:g}: match +1, wrong word −1, "
            f"missing or extra word −1; max(0, S) / {n_target} target words). The model wrote {n_output} "
            f"words. {alignment_summary(alignment.pairs, len(words_a), len(words_b))}"
        )
        logger.info("interleave request finished: NW score %.3f", score)
        yield output, target, score_text, alignment_html(alignment.pairs, len(words_a), len(words_b)), note


INTRO = """# Interleave two texts, word by word
Paste **Text A** and **Text B** (or pick an example) and press **Interleave**: the model is asked to write
A1 B1 A2 B2 … (when one text runs out, the rest of the other follows alone). Its output streams on the left; the
ground truth, the normalized Needleman-Wunsch score and the word-by-word alignment show where it slipped or lost its
place. Greedy decoding, the prompt the stage checkpoints were trained on.
"""


def build_demo(demo_state: Demo) -> gr.Blocks:
    with gr.Blocks(title="Interleave two texts") as demo:
        gr.Markdown(INTRO)
        status = gr.Markdown(demo_state.status(), elem_id="model-status")
        with gr.Row():
            text_a = gr.Textbox(label="Text A", lines=5, placeholder="Paste the first text", elem_id="text-a")
            text_b = gr.Textbox(label="Text B", lines=5, placeholder="Paste the second text", elem_id="text-b")
        counts = gr.Markdown(demo_state.word_counts("", ""), elem_id="word-counts")
        with gr.Row():
            model = gr.Dropdown(
                demo_state.model_choices(),
                value=demo_state.default_choice(),
                label="Model",
                scale=3,
                allow_custom_value=True,
                elem_id="model-choice",
            )  # the app checks the choice
            run = gr.Button("Interleave", variant="primary", scale=1, elem_id="interleave-button")
            stop = gr.Button("Stop", scale=1)
        gr.Examples(EXAMPLES, inputs=[text_a, text_b], label="Examples (public-domain openings)")
        note = gr.Markdown(elem_id="note")
        with gr.Row():
            output = gr.Textbox(label="Model output (streaming)", lines=8, interactive=False, elem_id="output")
            target = gr.Textbox(label="Ground truth interleave", lines=8, interactive=False, elem_id="target")
        score = gr.Markdown(elem_id="score")
        alignment = gr.HTML(elem_id="alignment")

        for box in (text_a, text_b):
            box.change(
                demo_state.word_counts,
                [text_a, text_b],
                counts,
                queue=False,
                show_progress="hidden",
                api_visibility="private",
            )
        # preprocess=False: the texts reach the checks as sent (gradio's Textbox would turn any value into a string)
        event = run.click(
            demo_state.interleave,
            [text_a, text_b, model],
            [output, target, score, alignment, note],
            api_name="interleave",
            concurrency_limit=1,
            trigger_mode="once",
            preprocess=False,
        )
        stop.click(None, cancels=[event])
        demo.load(demo_state.refresh, None, [model, status], queue=False, api_visibility="private")
    return demo.queue(max_size=QUEUE_SIZE, default_concurrency_limit=1)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Interleave demo: a Gradio app streaming a model's interleave of two texts."
    )
    parser.add_argument(
        "--host",
        default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        help="address to listen on (default 127.0.0.1, loopback only; GRADIO_SERVER_NAME)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        help="port (default 7860; GRADIO_SERVER_PORT)",
    )
    parser.add_argument(
        "--base_model",
        "--base-model",
        default=None,
        help="model folder or Hub id (INTERLEAVE_DEMO_BASE_MODEL; default: the converted embedded "
        "SmolLM2-135M-Instruct in the project cache, else HuggingFaceTB/SmolLM2-135M-Instruct)",
    )
    parser.add_argument(
        "--adapters",
        default=None,
        help=f"stage adapters: a folder pattern with {{n}} (default {ADAPTER_PATTERN!r} in the "
        f"checkout, and when it holds no stage, the adapter shipped with the checkout, {SHIPPED_ADAPTER}), a Hub "
        "model repo id with stage-N branches, or 'none' (INTERLEAVE_DEMO_ADAPTERS)",
    )
    parser.add_argument(
        "--max_words",
        "--max-words",
        type=int,
        default=None,
        help="word limit per text (INTERLEAVE_DEMO_MAX_WORDS; default 500)",
    )
    parser.add_argument("--device", default=None, help="cpu or cuda (default: cuda when there is a GPU)")
    return parser.parse_args(argv)


def settings_from(args: argparse.Namespace) -> DemoSettings:
    max_words = args.max_words if args.max_words is not None else max_words_per_text()
    if max_words < 1:
        raise ModelSourceProblem("--max_words must be at least 1")
    base_model = args.base_model or default_base_model()
    return DemoSettings(
        base_model=base_model,
        adapters=adapter_source(args.adapters, base_model),
        max_words=max_words,
        device=args.device,
    )


def port_taken_message(host: str, port: int) -> str:
    return (
        f"error: port {port} on {host} is in use (another demo or server?): stop it, or pick another port with "
        "--port (make space SPACE_PORT=...)"
    )


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args = parse_args(argv)
    try:
        settings = settings_from(args)
        if port_in_use(args.host, args.port):  # before the model loads
            print(port_taken_message(args.host, args.port), file=sys.stderr)
            return 2
        state = Demo(settings)
    except (ModelSourceProblem, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"interleave demo: {state.status()}", flush=True)
    print(
        f"interleave demo: shared code from {SHARED_CODE_ROOT}: "
        f"{sys.modules[interleave_target.__module__].__file__}, "
        f"{sys.modules[nw_alignment.__module__].__file__}",
        flush=True,
    )
    app = build_demo(state)
    try:
        _, local_url, _ = app.launch(server_name=args.host, server_port=args.port, prevent_thread_lock=True)
    except OSError:  # taken since the check
        print(port_taken_message(args.host, args.port), file=sys.stderr)
        return 2
    url = local_url.rstrip("/")
    if not wait_until_answering(url + "/"):
        print(f"error: the demo started but {url} does not answer", file=sys.stderr)
        app.close()
        return 1
    print(f"demo Space: {url}  (Ctrl-C stops it)", flush=True)
    app.block_thread()
    return 0


if __name__ == "__main__":
    sys.exit(main())
