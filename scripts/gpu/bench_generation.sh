# Issue 6, first fast-generation measurement on the GPU machine: bash scripts/gpu/bench_generation.sh
set -o pipefail
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
timeout 200 python3 -m benchmarks.bench_generation --model $M --stages 1 --methods dynamic graph --out /tmp/res/gen 2>&1 | grep "^|\|rror" 
for fast in false true; do
  timeout 150 python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none --max_steps 15 --fast_generation $fast --output_dir /tmp/r/a-$fast --results_dir /tmp/res/arith-$fast > /tmp/r-a-$fast.log 2>&1; echo "arith fast=$fast rc=$?"; grep -i "error\|fast gen\|CUDA graph" /tmp/r-a-$fast.log | head -3
done
tar czf $OUT/res.tar.gz -C /tmp res
