"""The TRL contract: every TRL method the GRPO trainer overrides has the signature the override was written for,
the attributes it reads exist, and a run on an untested TRL version stops at start-up with a message."""

import inspect
from collections import defaultdict

import pytest
from trl import GRPOTrainer

from training.core.arguments import RecipeError
from training.core.trl_version import TESTED_TRL, check_trl_version
from training.trainer.grpo_trainer import TRL_ATTRIBUTES, TRL_OVERRIDES, ObservedGRPOTrainer


def parameters(function) -> str:
    """A signature as its parameter names, kinds and defaults, without annotations: ``(self, a, b=1, *args)``."""
    signature = inspect.signature(function)
    return str(
        signature.replace(
            parameters=[p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()],
            return_annotation=inspect.Signature.empty,
        )
    )


def test_every_override_of_a_trl_method_is_in_the_contract():
    overridden = {
        name
        for name, value in vars(ObservedGRPOTrainer).items()
        if callable(value) and name != "__init__" and hasattr(GRPOTrainer, name)
    }
    assert overridden == set(TRL_OVERRIDES), "add the new override (or remove the old one) in TRL_OVERRIDES"


@pytest.mark.parametrize("name", sorted(TRL_OVERRIDES))
def test_trl_methods_have_the_signatures_the_overrides_expect(name):
    assert parameters(getattr(GRPOTrainer, name)) == TRL_OVERRIDES[name], f"TRL's {name} changed"
    assert parameters(getattr(ObservedGRPOTrainer, name)) == TRL_OVERRIDES[name]


def test_parameters_ignore_annotations_but_not_names_or_defaults():
    def a(self, x: int, y: str = "1") -> None: ...
    def b(self, x, y="2"): ...

    assert parameters(a) == "(self, x, y='1')" != parameters(b)


def test_the_attributes_the_overrides_read_exist(tiny_model_dir, tmp_path):
    from datasets import Dataset

    from tests.training.tiny_run import tiny_grpo_config

    rows = [{"prompt": [{"role": "user", "content": f"say {i}"}], "target": str(i)} for i in range(2)]
    args = tiny_grpo_config(tmp_path, per_device_train_batch_size=2, max_completion_length=4)
    trainer = ObservedGRPOTrainer(
        model=str(tiny_model_dir),
        args=args,
        train_dataset=Dataset.from_list(rows),
        reward_funcs=[lambda completions, **kw: [0.0] * len(completions)],
    )
    missing = [name for name in TRL_ATTRIBUTES if not hasattr(trainer, name)]
    assert not missing, f"TRL's GRPOTrainer no longer has {missing}"
    assert isinstance(trainer._metrics["train"], defaultdict) and trainer._metrics["train"].default_factory is list


def test_an_untested_trl_version_stops_with_a_message():
    assert check_trl_version(f"{TESTED_TRL}.3") == f"{TESTED_TRL}.3"
    assert check_trl_version().startswith(TESTED_TRL + ".")  # the installed one is the tested one
    with pytest.raises(RecipeError, match=r"TRL 1\.99\.0 is installed, .* --allow_untested_trl true"):
        check_trl_version("1.99.0")
    assert check_trl_version("1.99.0", allow_untested=True) == "1.99.0"


def test_the_cli_checks_the_trl_version_at_start_up(in_process, no_model_load, monkeypatch):
    monkeypatch.setattr("training.core.trl_version.TESTED_TRL", "0.1")
    proc = in_process("-m", "training.cli.train", "--config", "training/recipes/stage-1.yaml")
    assert proc.returncode == 2 and "but the GRPO trainer overrides private methods of TRL 0.1.*" in proc.stderr


def test_trls_prepare_inputs_shuffles_through_the_name_shared_prompt_loss_replaces():
    """--shared_prompt_loss keeps groups together by replacing trl.trainer.grpo_trainer.shuffle_sequence_dict while
    TRL's _prepare_inputs runs: a TRL that shuffles another way would silently scatter the groups again."""
    import trl.trainer.grpo_trainer as trl_grpo
    from trl import GRPOTrainer

    prepare = inspect.unwrap(GRPOTrainer._prepare_inputs)  # under TRL's profiling decorator
    assert "shuffle_sequence_dict" in prepare.__code__.co_names
    assert callable(trl_grpo.shuffle_sequence_dict)
