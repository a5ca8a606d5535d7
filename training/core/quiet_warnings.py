"""Warnings filters for the training entry points: the deprecations that the installed libraries raise themselves.

transformers 5 renamed ``gradient_checkpointing*`` to ``activation_checkpointing*``, but TRL 1.16 still sets and calls
the old names: ``GRPOConfig``/``SFTConfig`` set ``gradient_checkpointing`` (a FutureWarning when the config is built),
and ``trl.models.utils`` (``unwrap_model_for_generation``, ``disable_gradient_checkpointing``, around the rollouts and
the no-grad log-probabilities of every step) calls ``is_gradient_checkpointing``, ``gradient_checkpointing_disable``
and ``gradient_checkpointing_enable``: three more FutureWarnings, again at each step.
Nothing a user can change causes them, so they are dropped by message and category, and nothing else is.
"""

from __future__ import annotations

import warnings

# The three kinds, as transformers words them: "`<old name>` is deprecated and will be removed in v6. Use `...`".
LIBRARY_DEPRECATIONS = (
    r"`gradient_checkpointing(_kwargs)?` is deprecated",  # TrainingArguments.__post_init__ (TRL's config default)
    r"`is_gradient_checkpointing` is deprecated",  # PreTrainedModel property, read by TRL before generating
    r"`gradient_checkpointing_(enable|disable)` is deprecated",  # PreTrainedModel methods, called by TRL
)


def silence_library_deprecations() -> None:
    """Ignore the FutureWarnings of :data:`LIBRARY_DEPRECATIONS` (each matched from the start of its message)."""
    for message in LIBRARY_DEPRECATIONS:
        warnings.filterwarnings("ignore", message=message, category=FutureWarning)
