# GPU batch 12 of issue 17 (written 2026-11-23, session 11, before it ran; after batch 11). One command of ~9.5 min on a
# warm H100 whose 4th set-up call also carried .carry/warm30b (batch 11's stage-1 adapter, in bfloat16: 0.950 / 77.0%
# validation after 210 steps, 8 minutes).
# Question 1 (item 1): is stage 1's end point (0.95 / 77%, the same for batch 8 and batch 11's warm30b) a time limit or
#   a ceiling of the recipe? Its slips are late skipped words (batch-11/README.md). Two continuations of warm30b side by
#   side (two ~33 GB arms fit an 80 GB H100; three did not), 8 minutes each, greedy validation (256) at the end:
#     cont         the same recipe (lr 3e-4): still climbing after 210 steps, or flat?
#     cont-lr1e-4  lr 1e-4: batch 8's dips (0.81 -> 0.68 at step 120, 0.96 -> 0.94 at 220) say 3e-4 is noisy late;
#                  does a smaller step turn the same time into precision?
#   Neither answers item 1 by itself (warm30b + 8 min is over 10 minutes); they say which lever the next batch pulls.
# Question 2 (item 4): batch 11's arithmetic run gained +7.1 points in 7.5 min at lr 1e-4 and +8.4 in 11.8 (goal +10).
#     arith-lr3e-4  2x2 from a fresh adapter at lr 3e-4 (the interleave batches: 3e-4 learnt ~3x faster than 1e-4),
#                   128 completions, 7.8 min, greedy exact on the same 512 test problems, base and trained.
#   Three processes: 2 x ~33 GB + ~9 GB; PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation.
# Brings back every adapter in bfloat16 (2 parts each) and results.tar.gz.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
[ -f .carry/warm30b/adapter_model.safetensors ] || { echo "carry .carry/warm30b first"; exit 2; }
mkdir -p $LAB/carry && cp -r .carry/warm30b $LAB/carry/
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
(python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none \
   --task arithmetic-2x2 --learning_rate 3e-4 --per_device_train_batch_size 128 --max_steps 5000 \
   --max_train_minutes 7.8 --output_dir $LAB/runs/arith-lr3e-4 --results_dir $LAB/results/arith-lr3e-4 \
   > $LAB/results/arith-lr3e-4.log 2>&1
 python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/arith-lr3e-4/final --stages "" \
   --arithmetic arithmetic-2x2 --n 512 --splits test --baseline true --out $LAB/results/arith-lr3e-4/eval-test \
   >> $LAB/results/arith-lr3e-4.log 2>&1; mv $LAB/results/arith-lr3e-4.log $LAB/results/arith-lr3e-4/train.log) &
INIT=$LAB/carry/warm30b STAGE=1 MINUTES=7.5 EVAL_STAGES=1 bash scripts/gpu/grpo_arms.sh \
  cont="" cont-lr1e-4="--learning_rate 1e-4"
wait
grep -h "^| arith" $LAB/results/arith-lr3e-4/train.log
python3 - $LAB/runs/cont/final $LAB/runs/cont-lr1e-4/final $LAB/runs/arith-lr3e-4/final <<'PY'
import sys, torch
from safetensors.torch import load_file, save_file
for folder in sys.argv[1:]:  # each adapter in bfloat16 (as adapters/shipped): half the bytes to bring back
    path = f"{folder}/adapter_model.safetensors"
    try:
        tensors = load_file(path)
    except FileNotFoundError:
        continue
    save_file({k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in tensors.items()}, path)
PY
for name in cont cont-lr1e-4 arith-lr3e-4; do
  pack_out adapter-$name runs/$name/final/adapter_config.json runs/$name/final/adapter_model.safetensors
done
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
