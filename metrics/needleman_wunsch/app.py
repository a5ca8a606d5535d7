"""The metric's widget: evaluate's Gradio widget, or an equivalent one where gradio has outgrown it."""

from pathlib import Path

import evaluate
import gradio as gr
from evaluate.utils import launch_gradio_widget

HERE = Path(__file__).resolve().parent
module = evaluate.load(str(HERE / "needleman_wunsch.py"))

if hasattr(gr, "inputs"):  # gradio < 4, which evaluate.utils.launch_gradio_widget was written for
    launch_gradio_widget(module)
else:
    from evaluate.utils.gradio import parse_readme

    def compute(prediction: str, reference: str, lowercase: bool, strip_punctuation: bool):
        return module.compute(
            predictions=[prediction],
            references=[reference],
            lowercase=lowercase,
            strip_punctuation=strip_punctuation,
            return_alignment=True,
        )

    gr.Interface(
        fn=compute,
        inputs=[
            gr.Textbox(label="prediction"),
            gr.Textbox(label="reference"),
            gr.Checkbox(label="lowercase"),
            gr.Checkbox(label="strip_punctuation"),
        ],
        outputs=gr.JSON(label=module.name),
        examples=[["a1 b1 a2 b2", "a1 b1 a2 b2", False, False], ["a1 a2 b1 b2", "a1 b1 a2 b2", False, False]],
        title=f"Metric: {module.name}",
        description=module.info.description,
        article=parse_readme(HERE / "README.md"),
    ).launch()
