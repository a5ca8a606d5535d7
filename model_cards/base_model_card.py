"""The model card of a base model the project publishes (the embedded model, or the tiny test model)."""

from __future__ import annotations

from pathlib import Path

from huggingface_hub import ModelCard, ModelCardData

TEMPLATE = Path(__file__).resolve().parent / "templates" / "base_model.md"


def render_base_model_card(
    repo_id: str,
    description: str,
    architecture: str,
    license: str,
    base_model: str | None = None,
    tags: list[str] | None = None,
) -> ModelCard:
    """README.md of a published base model: what the weights are, where they come from, how to load them."""
    data = ModelCardData(
        license=license,
        library_name="transformers",
        pipeline_tag="text-generation",
        base_model=base_model,
        tags=tags or None,
        language="en",
    )
    return ModelCard.from_template(
        data,
        template_path=str(TEMPLATE),
        repo_id=repo_id,
        repo_name=repo_id.split("/")[-1],
        description=description.strip(),
        architecture=architecture,
    )
