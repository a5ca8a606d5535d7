"""An adapter's fit to a base model, read from its files: the modules it adapts and their sizes."""

from tests.training.cli.test_evaluate import _adapter, _other_base_model
from training.core.adapter_fit import adapter_base_model, adapter_mismatch


def test_an_adapter_fits_its_own_base_model_and_not_another(tiny_model_dir, tmp_path):
    from base_models.models import load_model

    adapter = _adapter(tiny_model_dir, tmp_path / "adapter")
    model, _ = load_model(str(tiny_model_dir), device="cpu")
    assert adapter_mismatch(model, adapter) is None
    assert adapter_base_model(adapter) == str(tiny_model_dir)
    other, _ = load_model(str(_other_base_model(tiny_model_dir, tmp_path / "other")), device="cpu")
    assert (
        adapter_mismatch(other, adapter)
        == "model.layers.0.mlp.down_proj has 64 input features in the model, 128 in the adapter (lora_A)"
    )


def test_a_module_the_model_lacks_is_named(tiny_model_dir, tmp_path):
    from base_models.models import load_model

    adapter = _adapter(tiny_model_dir, tmp_path / "adapter")
    model, _ = load_model(str(tiny_model_dir), device="cpu")
    del model.model.layers[1]  # a model of one layer: the adapter's layer-1 modules have no place
    assert adapter_mismatch(model, adapter) == "it adapts model.layers.1.mlp.down_proj, which the model does not have"
