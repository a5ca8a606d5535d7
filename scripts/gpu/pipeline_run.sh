#!/usr/bin/env bash
# The training pipeline on one GPU with the embedded SmolLM2-135M-Instruct, recipe defaults except the step
# counts: stage 1 and the arithmetic control for a few dozen steps, stage 4 (100 words) for a few steps to size
# the completion log at longer texts. On the lent GPU machine (see ../shared/gpu/README.md), after
# `bash .gpu/a/setup.sh` and `bash .gpu/b/finish.sh`, with the built corpus carried as .gpu/c/corpus.tar.gz:
#   bash results/pipeline-gpu/run.sh PART   (PART: stage-1, arithmetic or stage-4)
# Results (metrics, summary, plots, sample outputs, completion-log size) land in $OUT/<run>.tar.gz.
set -euo pipefail
part=$1
[ -d /tmp/gpu/corpus ] || { mkdir -p /tmp/gpu && tar xzf .gpu/c/corpus.tar.gz -C /tmp/gpu; }
export PYTHONPATH=/tmp/gpu/site:$PWD INTERLEAVE_GRPO_CORPUS=/tmp/gpu/corpus HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
model=/tmp/gpu/smollm2-135m-instruct
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
