# Issue 6: one GRPO step, TRL's generate vs --fast_generation, at the 10-word stage (8 steps each), same machine.
set -o pipefail
source scripts/gpu/setup.sh   # the one set-up (model, wheels, corpus); exports PYTHONPATH, M, LAB, ...
rm -rf /tmp/r /tmp/res; mkdir -p /tmp/res
for fast in false true; do
  timeout 200 python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M --report_to none --max_steps 8 --fast_generation $fast --output_dir /tmp/r/s1-$fast --results_dir /tmp/res/stage1-$fast > /tmp/res/stage1-$fast.log 2>&1; echo "stage-1 fast=$fast rc=$?"
done
tar czf $OUT/res.tar.gz -C /tmp res
