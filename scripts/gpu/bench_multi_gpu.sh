# Issue 6 scale-out on nvidia-h200-x2, after the .gpu set-up: bash scripts/gpu/bench_multi_gpu.sh [STEPS]
# Stage 1 (project recipe) on 1 GPU, then on 2 GPUs with training/accelerate/multi_gpu.yaml (DDP); steps/s and
# completions/s after the first 2 steps (compilation), from each run's metrics.jsonl.
set -o pipefail
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
STEPS=${1:-12}
# dynamic sampling is single-process (off under DDP): off for both runs, so both generate one round per step
ARGS="--config training/recipes/stage-1.yaml --model $M --init_adapter base --report_to none --max_steps $STEPS --save_steps 1000 --dynamic_sampling_rounds 0"
mkdir -p /tmp/res/multi; rm -rf /tmp/multi
CUDA_VISIBLE_DEVICES=0 python3 -m training.cli.train $ARGS --output_dir /tmp/multi/gpus-1 --results_dir /tmp/res/multi/gpus-1 > /tmp/res/multi/gpus-1.log 2>&1; echo "1 GPU rc=$?"
python3 -m accelerate.commands.launch --config_file training/accelerate/multi_gpu.yaml --num_processes 2 -m training.cli.train $ARGS --output_dir /tmp/multi/gpus-2 --results_dir /tmp/res/multi/gpus-2 > /tmp/res/multi/gpus-2.log 2>&1; echo "2 GPUs rc=$?"
python3 - <<'PY' | tee /tmp/res/multi/summary.md
import json, statistics
from training.callbacks.run_metrics import read_metrics
print("| GPUs | completions per step | step time, s | steps/s | completions/s |\n| --- | --- | --- | --- | --- |")
for gpus in (1, 2):
    rows = [r for r in read_metrics(f"/tmp/multi/gpus-{gpus}/metrics.jsonl") if "reward" in r][2:]
    step = statistics.mean(r["step_time"] for r in rows)
    per_step = 64 * gpus
    print(f"| {gpus} | {per_step} | {step:.2f} | {1 / step:.2f} | {per_step / step:.0f} |")
PY
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 > /tmp/res/multi/gpu.txt
tar czf $OUT/res.tar.gz -C /tmp res
