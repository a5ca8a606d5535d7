"""The curriculum: words per fragment (Text A and Text B each) at each stage."""

import numbers

STAGE_WORDS = {1: 10, 2: 25, 3: 50, 4: 100, 5: 200, 6: 500}


def stage_words(stage: int) -> int:
    """Words per fragment at ``stage`` (1-6)."""
    if isinstance(stage, bool) or not isinstance(stage, numbers.Integral):
        raise ValueError(
            f"stage must be an integer {min(STAGE_WORDS)}-{max(STAGE_WORDS)}, got {stage!r} ({type(stage).__name__})"
        )
    try:
        return STAGE_WORDS[stage]
    except KeyError:
        raise ValueError(
            f"unknown curriculum stage {stage}; stages are {min(STAGE_WORDS)}-{max(STAGE_WORDS)}"
        ) from None
