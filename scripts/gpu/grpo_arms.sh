# GRPO arms side by side on one GPU, each from the same adapter, then each final adapter's greedy validation score.
#   bash scripts/gpu/grpo_arms.sh NAME="FLAGS" [NAME="FLAGS" ...]
# Environment: INIT (adapter folder, default .carry/sft-start), STAGE (1), MINUTES (time guard per arm, 5.5),
# N_EVAL (validation problems, 256), EVAL_STAGES (stages scored at the end, default STAGE).
# Writes $LAB/results/NAME/ (metrics, summary, plots, train.log, promotion.jsonl, completions-early.jsonl.gz: the
# completions of the first 60 steps, eval-validation/) and packs
# $LAB/results into $OUT/results.tar.gz (the probe's inputs.pt left out). scripts/gpu/setup.sh must be ready.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
INIT=${INIT:-$PWD/.carry/sft-start}; STAGE=${STAGE:-1}; MINUTES=${MINUTES:-5.5}
arm() {  # NAME FLAGS...
  local name=$1; shift
  python3 -m training.cli.train --config training/recipes/stage-$STAGE.yaml --model $M --report_to none \
    --init_adapter $INIT --max_steps 3000 --max_train_minutes $MINUTES \
    --nonfinite_probe_dir $LAB/results/$name/nonfinite "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name.log 2>&1
  python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/$name/final --stages ${EVAL_STAGES:-$STAGE} \
    --n ${N_EVAL:-256} --split validation --arithmetic false --baseline false \
    --out $LAB/results/$name/eval-validation >> $LAB/results/$name.log 2>&1
  cp $LAB/runs/$name/promotion.jsonl $LAB/results/$name/ 2>/dev/null
  python3 - $LAB/runs/$name/completions.jsonl.gz $LAB/results/$name/completions-early.jsonl.gz <<'PY' 2>/dev/null
import gzip, json, sys  # the first 60 steps' completions (the early phase, where runs lose ~40 steps), ~1 MB
with gzip.open(sys.argv[1], "rt") as src, gzip.open(sys.argv[2], "wt") as out:
    for line in src:
        if json.loads(line).get("step", 0) <= 60:
            out.write(line)
PY
  mv $LAB/results/$name.log $LAB/results/$name/train.log
}
start=$(date +%s)
names=()
for spec in "$@"; do
  name=${spec%%=*}; flags=${spec#*=}; names+=($name)
  mkdir -p $LAB/results/$name
  arm $name $flags &
done
wait
for name in "${names[@]}"; do
  echo "== $name: $(grep -c 'non-finite gradient' $LAB/results/$name/train.log) non-finite steps"
  grep -h "promotion\|collapse\|rror" $LAB/results/$name/train.log | grep -v "it/s" | tail -3
  grep -h "^| stage" $LAB/results/$name/train.log
done
echo "arms done after $(( $(date +%s) - start )) s"
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
