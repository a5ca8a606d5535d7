#!/usr/bin/env bash
# The training pipeline on one GPU with the embedded SmolLM2-135M-Instruct, recipe defaults except the step
# counts: stage 1 and the arithmetic control for a few dozen steps, stage 4 (100 words) for a few steps to size
# the completion log at longer texts. On the lent GPU machine, with .gpu/ carried (scripts/gpu/pack.sh) for
# scripts/gpu/setup.sh:
#   bash scripts/gpu/pipeline_run.sh PART   (PART: stage-1, arithmetic or stage-4)
# Results (metrics, summary, plots, sample outputs, completion-log size) land in $OUT/<run>.tar.gz.
set -euo pipefail
part=$1
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
model=$M
work=/tmp/pipeline
case "$part" in
  stage-1) args=(--config training/recipes/stage-1.yaml --max_steps 40) ;;
  arithmetic) args=(--config training/recipes/arithmetic.yaml --max_steps 40) ;;
  stage-4) args=(--config training/recipes/stage-4.yaml --init_adapter base --max_steps 4) ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
rm -rf "$work/runs/$part" "$work/results/$part"
mkdir -p "$work"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$work/gpu.txt" || true
status=0
python3 -m training.cli.train "${args[@]}" --model "$model" --report_to none \
  --output_dir "$work/runs/$part" --results_dir "$work/results/$part" || status=$?
python3 -m training.callbacks.completion_log "$work/runs/$part/completions.jsonl.gz" --json "$work/results/$part/completion_log.json"
cp "$work/runs/$part/sample_outputs.log" "$work/gpu.txt" "$work/results/$part/"
tar czf "${OUT:-/tmp}/$part.tar.gz" -C "$work/results" "$part"
exit $status
