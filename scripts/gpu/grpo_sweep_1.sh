# GPU batch 1 of issue 17 (written before it ran; results/grpo/README.md records the outcome):
#  1. a supervised format start of the adapter: 100 SFT steps of 16 problems on texts of 4-10 words (well under the
#     issue's 1 H100-minute), then its greedy score on 256 stage-1 validation problems (must be <= 0.5 NW);
#  2. four GRPO stage-1 runs from it, side by side on the one GPU, each for at most MINUTES, promotion at 0.99 on
#     validation (64 problems every 20 steps), the non-finite probe on:
#       lr1e-4  lr 1e-4 (the last session's best, 0.68 NW after 200 steps)
#       lr3e-4  lr 3e-4
#       lr1e-3  lr 1e-3
#       lr3e-4-t0.7  lr 3e-4 at temperature 0.7
#  3. each run's final adapter on 256 stage-1 validation problems, greedy.
# bash scripts/gpu/grpo_sweep_1.sh   (after the set-up calls; see scripts/gpu/setup.sh)
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete"; exit 2; }
MINUTES=${MINUTES:-5.5}
train_log() { grep -v "it/s\]\|{'loss\|warnings.warn\|FutureWarning" | tail -${1:-6}; }
start=$(date +%s)
python3 -m training.warm_start --config training/recipes/warm-start.yaml --model $M --report_to none \
  --words 4-10 --max_steps 100 --max_length 512 --max_train_minutes 1 \
  --output_dir $LAB/runs/sft-start --results_dir $LAB/results/sft-start 2>&1 | train_log 4
python3 -m training.evaluation --model $M --adapter $LAB/runs/sft-start/final --stages 1 --n 256 --split validation \
  --arithmetic false --baseline false --out $LAB/results/sft-start/eval-validation 2>&1 | tail -3
echo "sft start done after $(( $(date +%s) - start )) s"
grpo() {  # NAME FLAGS...
  local name=$1; shift
  python3 -m training.train --config training/recipes/stage-1.yaml --model $M --report_to none \
    --init_adapter $LAB/runs/sft-start/final --max_steps 3000 --max_train_minutes $MINUTES \
    --nonfinite_probe_dir $LAB/results/$name/nonfinite "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/$name.log 2>&1
  python3 -m training.evaluation --model $M --adapter $LAB/runs/$name/final --stages 1 --n 256 --split validation \
    --arithmetic false --baseline false --out $LAB/results/$name/eval-validation >> $LAB/$name.log 2>&1
}
grpo lr1e-4 --learning_rate 1e-4 &
grpo lr3e-4 --learning_rate 3e-4 &
grpo lr1e-3 --learning_rate 1e-3 &
grpo lr3e-4-t0.7 --learning_rate 3e-4 --temperature 0.7 &
wait
for name in lr1e-4 lr3e-4 lr1e-3 lr3e-4-t0.7; do
  echo "== $name"; grep -h "promot\|non-finite\|collapse\|Error\|error" $LAB/$name.log | tail -4
  tail -4 $LAB/$name.log
  cp $LAB/$name.log $LAB/results/$name/train.log
done
echo "all done after $(( $(date +%s) - start )) s"
best=$(python3 - <<'PY'
import json, os, pathlib
lab = pathlib.Path(os.environ["LAB"])
scores = {}
for name in ("lr1e-4", "lr3e-4", "lr1e-3", "lr3e-4-t0.7"):
    f = lab / "results" / name / "eval-validation" / "eval.json"
    if f.exists():
        rows = json.loads(f.read_text())["rows"]
        scores[name] = max(r.get("nw_score") or 0 for r in rows)
print(max(scores, key=scores.get) if scores else "")
PY
)
echo "best on validation: $best"
pack_out lab results runs/sft-start/final ${best:+runs/$best/final}
ls -la $OUT
