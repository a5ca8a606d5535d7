"""Find where a non-finite gradient comes from: replay the step's batch, row by row and op by op.

Diagnostic only (``--nonfinite_probe_dir DIR``): when the non-finite guard sees a NaN/inf gradient, the probe,
before the step is dropped, saves the step's micro-batches, then replays the loss forward and backward on
them: which rows give a non-finite loss or gradient, what those rows look like (prompt padding, completion
length, truncation, advantage, per-token log-probs), whether the same rows stay non-finite with eager attention
or without TRL's fused log-prob head, and the op ``torch.autograd.detect_anomaly`` names. Writes
``DIR/step-N/report.json`` (and ``anomaly.txt``, ``inputs.pt``).
"""

from __future__ import annotations

import contextlib
import json
import math
import traceback
import warnings
from pathlib import Path

import torch


def _finite(t: torch.Tensor) -> bool:
    return bool(torch.isfinite(t).all())


def _rows(inputs: dict, index: list[int]) -> dict:
    """The micro-batch restricted to rows ``index`` (per-row tensors sliced, the rest kept)."""
    n = inputs["completion_ids"].size(0)
    rows = torch.tensor(index, device=inputs["completion_ids"].device)
    out = {}
    for key, value in inputs.items():
        if isinstance(value, torch.Tensor) and value.dim() >= 1 and value.size(0) == n:
            out[key] = value.index_select(0, rows.to(value.device))
        else:
            out[key] = value
    mask = out["completion_mask"]
    out["num_items_in_batch"] = mask.sum()
    return out


class NonFiniteProbe:
    """Replays a micro-batch whose gradients were not finite; ``trainer`` is the running GRPOTrainer."""

    def __init__(self, trainer, out_dir: str | Path, max_reports: int = 3, report=print):
        self.trainer = trainer
        self.out_dir = Path(out_dir)
        self.max_reports = max_reports
        self.report = report
        self.reports = 0
        self.batches: list[dict] = []  # the micro-batches since the last optimizer step

    def remember(self, inputs: dict) -> None:
        """Called with each micro-batch the trainer trains on."""
        self.batches.append(inputs)

    def forget(self) -> None:
        self.batches = []

    def _trainable(self, model):
        return [(name, p) for name, p in model.named_parameters() if p.requires_grad]

    def _loss_and_grads(self, model, inputs: dict) -> tuple[float, bool, list[str]]:
        """(loss, loss finite, names of parameters whose gradient is not finite) of one forward/backward."""
        model.zero_grad(set_to_none=True)
        metrics = self.trainer._metrics["train"]
        kept = {key: len(values) for key, values in metrics.items()}
        try:
            loss = self.trainer.compute_loss(model, inputs)
            loss.backward()
        finally:  # the replays must not show up in the step's logged metrics
            for key, values in metrics.items():
                del values[kept.get(key, 0) :]
        bad = [name for name, p in self._trainable(model) if p.grad is not None and not _finite(p.grad)]
        value = float(loss.detach().float())
        return value, math.isfinite(value), bad

    def _plain_loss(self, model, inputs: dict) -> tuple[float, bool, int]:
        """Loss -mean(A * logp) from the model's own logits in float32 (no fused head); (loss, finite, bad grads)."""
        model.zero_grad(set_to_none=True)
        prompt_ids, completion_ids = inputs["prompt_ids"], inputs["completion_ids"]
        input_ids = torch.cat([prompt_ids, completion_ids], dim=1)
        attention_mask = torch.cat([inputs["prompt_mask"], inputs["completion_mask"]], dim=1)
        with self.trainer.accelerator.autocast():
            logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
        logits = logits[:, prompt_ids.size(1) - 1 : -1].float() / self.trainer.temperature
        logps = torch.log_softmax(logits, dim=-1).gather(-1, completion_ids.unsqueeze(-1)).squeeze(-1)
        mask = inputs["completion_mask"].float()
        adv = inputs["advantages"].float()
        adv = adv.unsqueeze(1) if adv.dim() == 1 else adv
        loss = -(logps * adv * mask).sum() / mask.sum().clamp(min=1)
        loss.backward()
        bad = sum(1 for _, p in self._trainable(model) if p.grad is not None and not _finite(p.grad))
        value = float(loss.detach())
        return value, math.isfinite(value), bad

    def _describe_row(self, model, inputs: dict, i: int) -> dict:
        row = _rows(inputs, [i])
        prompt_mask, completion_mask = row["prompt_mask"][0], row["completion_mask"][0]
        completion = row["completion_ids"][0][completion_mask.bool()].tolist()
        tokenizer = self.trainer.processing_class
        with torch.no_grad():
            input_ids = torch.cat([row["prompt_ids"], row["completion_ids"]], dim=1)
            attention_mask = torch.cat([row["prompt_mask"], row["completion_mask"]], dim=1)
            logps, entropies, _ = self.trainer._get_per_token_logps_and_entropies(
                model, input_ids, attention_mask, row["completion_ids"].size(1), compute_entropy=True
            )
        logps = logps[0][completion_mask.bool()].float()
        return {
            "row": i,
            "prompt_tokens": int(prompt_mask.sum()),
            "prompt_padding": int((prompt_mask == 0).sum()),
            "completion_tokens": int(completion_mask.sum()),
            "completion_width": int(completion_mask.numel()),
            "truncated": int(completion_mask.sum()) == int(completion_mask.numel()),
            "advantage": row["advantages"].flatten()[:4].tolist(),
            "logps_finite": _finite(logps),
            "logp_min": float(logps.min()) if logps.numel() else None,
            "logp_mean": float(logps.mean()) if logps.numel() else None,
            "entropy_max": float(entropies.max()) if entropies is not None else None,
            "completion_tail": tokenizer.decode(completion[-40:]) if tokenizer is not None else completion[-40:],
            "completion_head": tokenizer.decode(completion[:40]) if tokenizer is not None else completion[:40],
            "first_tokens": completion[:8],
            "last_tokens": completion[-8:],
        }

    @contextlib.contextmanager
    def _attention(self, model, implementation: str):
        base = self.trainer.accelerator.unwrap_model(model)
        setter = getattr(base, "set_attn_implementation", None) or base.get_base_model().set_attn_implementation
        config = base.config if hasattr(base, "config") else base.get_base_model().config
        before = config._attn_implementation
        setter(implementation)
        try:
            yield
        finally:
            setter(before)

    def __call__(self, model, step: int) -> None:
        """Diagnose step ``step`` (its gradients are not finite); the caller then drops the gradients."""
        if self.reports >= self.max_reports or not self.batches:
            return
        self.reports += 1
        folder = self.out_dir / f"step-{step}"
        folder.mkdir(parents=True, exist_ok=True)
        report: dict = {"step": step, "micro_batches": len(self.batches)}
        bad_grads_at_detection = [
            name for name, p in self._trainable(model) if p.grad is not None and not _finite(p.grad)
        ]
        report["nonfinite_params_after_clipping"] = len(bad_grads_at_detection)
        torch.save(
            [{k: (v.detach().cpu() if isinstance(v, torch.Tensor) else v) for k, v in b.items()} for b in self.batches],
            folder / "inputs.pt",
        )
        was_training = model.training
        try:
            for index, inputs in enumerate(self.batches):
                entry: dict = {"index": index, "rows": int(inputs["completion_ids"].size(0))}
                loss, loss_ok, bad = self._loss_and_grads(model, inputs)
                entry.update(
                    replay_loss=loss,
                    replay_loss_finite=loss_ok,
                    replay_bad_params=len(bad),
                    replay_bad_param_names=bad[:20],
                )
                if loss_ok and not bad:
                    report.setdefault("batches", []).append(entry)
                    continue
                culprits = []
                for i in range(entry["rows"]):
                    row_loss, row_ok, row_bad = self._loss_and_grads(model, _rows(inputs, [i]))
                    if not row_ok or row_bad:
                        culprits.append(
                            {
                                "row": i,
                                "loss": row_loss,
                                "loss_finite": row_ok,
                                "bad_params": len(row_bad),
                                "bad_param_names": row_bad[:10],
                            }
                        )
                entry["culprit_rows"] = culprits
                if culprits:
                    rows = [c["row"] for c in culprits]
                    entry["culprits"] = [self._describe_row(model, inputs, i) for i in rows[:4]]
                    sub = _rows(inputs, rows)
                    _, ok, plain_bad = self._plain_loss(model, sub)
                    entry["plain_logits_loss_finite"], entry["plain_logits_bad_params"] = ok, plain_bad
                    for implementation in ("eager", "sdpa"):
                        try:
                            with self._attention(model, implementation):
                                _, ok, bad = self._loss_and_grads(model, sub)
                            entry[f"{implementation}_loss_finite"], entry[f"{implementation}_bad_params"] = ok, len(bad)
                        except Exception as exc:  # noqa: BLE001 (a diagnostic: record, go on)
                            entry[f"{implementation}_error"] = repr(exc)
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        try:
                            with torch.autograd.detect_anomaly(check_nan=True):
                                self._loss_and_grads(model, sub)
                            entry["anomaly"] = "none raised"
                        except RuntimeError:
                            entry["anomaly"] = traceback.format_exc().strip().splitlines()[-1][:500]
                            forward = "\n\n".join(str(w.message) for w in caught)
                            anomaly = traceback.format_exc() + "\n--- forward ---\n" + forward
                            (folder / "anomaly.txt").write_text(anomaly)
                report.setdefault("batches", []).append(entry)
        except Exception:  # noqa: BLE001
            report["probe_error"] = traceback.format_exc()
        finally:
            model.zero_grad(set_to_none=True)
            model.train(was_training)
        (folder / "report.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
        self.report(f"non-finite probe: step {step} report in {folder}/report.json")
