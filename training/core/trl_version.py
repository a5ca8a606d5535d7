"""The TRL version the GRPO trainer is written against: its overrides of private TRL methods (``training.trainer.
grpo_trainer.TRL_OVERRIDES``) are checked by the tests on this version only, so another one stops a run at start-up.
"""

from __future__ import annotations

from training.core.arguments import RecipeError

TESTED_TRL = "1.16"  # major.minor; the pin in pyproject.toml (trl==1.16.*)


def check_trl_version(installed: str | None = None, allow_untested: bool = False) -> str:
    """The installed TRL version; a RecipeError when it is not ``TESTED_TRL``.* (unless ``allow_untested``)."""
    if installed is None:
        from importlib.metadata import version

        installed = version("trl")
    if installed.split(".")[:2] == TESTED_TRL.split(".") or allow_untested:
        return installed
    raise RecipeError(
        f"TRL {installed} is installed, but the GRPO trainer overrides private methods of TRL "
        f"{TESTED_TRL}.* (training/trainer/grpo_trainer.py: TRL_OVERRIDES), tested on that version only. "
        f"Install trl=={TESTED_TRL}.* (make setup), or pass --allow_untested_trl true to try anyway, "
        "then "
        "run tests/training/trainer/test_trl_contract.py on that version"
    )
