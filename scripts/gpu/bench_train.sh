# Issue 6 on the lent GPU machine, after the .gpu set-up (../shared/gpu/README.md): bash scripts/gpu/bench_train.sh PART
# PART gen: rollouts only; s1: GRPO stage 1 + arithmetic; s4: GRPO stage 4. Parts merge into one bench.json.
set -o pipefail
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
B="python3 -m benchmarks.bench_train --model $M --out /tmp/res/bench --runs_dir /tmp/runs --merge"
mkdir -p /tmp/res
case "$1" in
  gen) $B --methods dynamic graph graph_compiled --grpo ${GRPO:-} ;;
  s1) $B --generation_stages --grpo ${GRPO:-1:8 arithmetic:15} ;;
  s4) $B --generation_stages --grpo ${GRPO:-4:3} ;;
esac 2>&1 | grep -v "Warning\|warn(" | tee /tmp/res/bench-$1.log | tail -40
tar czf $OUT/res.tar.gz -C /tmp res
