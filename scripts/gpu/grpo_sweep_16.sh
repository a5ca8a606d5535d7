# GPU batch 16 of issue 17 (written 2026-11-23, session 12, before it ran). It replaces batch 14's PART=average and
# PART=arith and batch 15 (none of which ran), with the trainer's own weight average (--weight_average_decay,
# training/callbacks/weight_average.py) in place of averaging snapshots by hand.
# Why: stage 1's late misses churn (results/grpo/slip-probe/at-*); the tensor-wise mean of two adapters of one run
# scored 0.979 / 89.5% exact on validation where each scored 0.955 / 73.8-79.3% (results/grpo/averaging/).
# Since the recipe took the average from step 120 (after this batch), the runs that averaged from their start
# (s1, s1-cont, s1c-cont) pass --weight_average_start 0, so that each part runs as it ran.
# Two processes at most per H100 (an interleave arm peaks at 31-34 GB; three processes died of OOM twice).
#
# PART=a (~9.5 min), item 1's clock, item 4 beside it:
#   s1        format start (~1 min), then stage 1 with --warmup_steps 30 --weight_average_decay 0.98 for 7 minutes,
#             checkpoints every 10 steps, each checkpoint's adapter copied as it is saved ($LAB/snap/N)
#   arith16   arithmetic 2x2 from a fresh adapter, lr 1e-4 (batch 11's best), + --weight_average_decay 0.98, 8 min;
#             greedy exact on 512 test problems (base and trained): the goal is +10 points over the base
# PART=b (~9.5 min), item 1's pick, then items 2-3:
#   candidates at stage 1, each scored on validation (256, greedy):
#     s1-ema      the run's final adapter (the weight average, decay 0.98: ~50 steps)
#     s1-raw      the run's last weights (final-raw: what every earlier batch shipped)
#     avg-last4   the uniform mean of the last 4 snapshots (40 steps) and the last weights
#     avg-last8   the uniform mean of the last 8 snapshots (80 steps) and the last weights
#   picked on validation (exact match, then NW); the pick and s1-raw are scored on test and out_of_register (256);
#   then stage 2 from the pick, two arms side by side, 7 minutes each (batch 15's design, from the new stage 1):
#     help-grpo  stage-2.yaml + --supervised_help sft-stage-2-help (2 min SFT on 4-25 words), then GRPO for 5 min;
#                + --weight_average_decay 0.98 when the pick is an average (s1-raw picked: without)
#     sft-only   the same help recipe for the whole 7 minutes (item 3's supervised-only arm)
#   each scored on validation and test (256) at stages 1-2. The stage-1 pick and help-grpo come back in bfloat16.
# What happened (session 12): PART=a ran as written. PART=b hit the 600 s limit: help-grpo died of CUDA OOM at its
#   first GRPO step (stage 2's 25-word completions at batch 128 took 70 GB beside sft-only's 9 GB), so stage 2 at
#   batch 128 must run alone; its scores of the stage-1 candidates and s1-raw's test/out_of_register came back (a
#   later call). PART=b's snapshot list was changed before it ran to the regular saves only (multiples of 10: the
#   reward saves fall between them). Then, ad hoc (run before it was written here, as the machine had 8 minutes
#   left): PART=cont below.
# PART=cont: s1-cont, 5.5 more minutes of stage 1 from s1-raw with --weight_average_decay 0.98 (the average from the
#   continuation's start), beside arith16-more, 5.5 more minutes of arithmetic from arith16's final adapter (the
#   same flags); each final adapter and its final-raw scored (validation 256; arithmetic test 512).
# PART=c (~9.7 min, written after PART=cont, before it ran): item 1 in its own clock, alone on the H100: the format
#   start, then stage 1 for 8 minutes with --warmup_steps 30 --weight_average_decay 0.98 --weight_average_start 120
#   (the average over the last ~110 of ~230 steps: s1-cont averaged 90 steps from step 178 and scored 0.976 / 86.3%
#   against its last weights' 0.951 / 81.2%).
# PART=d (~2 min, right after PART=c on the same machine): s1c's final (the average) and final-raw scored on
#   validation (256); the better (exact, then NW) on test and out_of_register (256), and both adapters come back in
#   bfloat16.
# PART=e (run ad hoc after PART=d, as the machine had ~7 minutes left; written here after it ran): s1c-cont, 4.5 more
#   minutes of stage 1 from s1c's average with the average from its start (this tree's recipe then had no
#   weight_average_start), validation of final and final-raw, the average back in bfloat16.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
case ${PART:?set PART=a, b, cont, c, d or e} in
  a)
    mkdir -p $LAB/results/arith16 $LAB/snap
    (python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none \
       --task arithmetic-2x2 --learning_rate 1e-4 --per_device_train_batch_size 128 --max_steps 5000 \
       --weight_average_decay 0.98 --max_train_minutes 8 --init_adapter base --output_dir $LAB/runs/arith16 \
       --results_dir $LAB/results/arith16 > $LAB/results/arith16/train.log 2>&1
     python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/arith16/final --stages "" \
       --arithmetic arithmetic-2x2 --n 512 --splits test --baseline true --out $LAB/results/arith16/eval-test \
       >> $LAB/results/arith16/train.log 2>&1) &
    format_start
    (while true; do  # each checkpoint's adapter, once its completion marker is written
       for c in $LAB/runs/s1/checkpoint-*/checkpoint_complete.json; do
         [ -f "$c" ] || continue; d=$(dirname $c); n=${d##*-}
         [ -d $LAB/snap/$n ] || { mkdir -p $LAB/snap/$n && cp $d/adapter_config.json $d/adapter_model.safetensors $LAB/snap/$n/; }
       done; sleep 2; done) &
    snapper=$!
    INIT=$LAB/runs/sft-start/final STAGE=1 MINUTES=7 EVAL_STAGES=1 bash scripts/gpu/grpo_arms.sh \
      s1="--warmup_steps 30 --weight_average_decay 0.98 --weight_average_start 0 --save_steps 10"
    kill $snapper
    wait
    echo "snapshots at steps: $(ls $LAB/snap | sort -n | tr '\n' ' ')"
    grep -h "^| arith" $LAB/results/arith16/train.log ;;
  b)
    steps=($(ls $LAB/snap | sort -n | awk '$1 % 10 == 0'))  # the regular saves (reward saves fall between)
    for k in 4 8; do
      python3 -m training.cli.average_adapters $LAB/runs/avg-last$k/final \
        $(for n in "${steps[@]: -$k}"; do echo $LAB/snap/$n; done) $LAB/runs/s1/final-raw | tail -1
    done
    declare -A adapter=([s1-ema]=$LAB/runs/s1/final [s1-raw]=$LAB/runs/s1/final-raw
                        [avg-last4]=$LAB/runs/avg-last4/final [avg-last8]=$LAB/runs/avg-last8/final)
    for name in "${!adapter[@]}"; do score $name ${adapter[$name]} validation 1 & done
    wait
    pick=$(python3 - $LAB/results/scores <<'PY'
import json, sys  # the best validation exact match, then NW
rows = {n: json.load(open(f"{sys.argv[1]}/{n}-validation/eval.json"))["rows"][0] for n in ("s1-ema", "s1-raw", "avg-last4", "avg-last8")}
print(max(rows, key=lambda n: (rows[n]["exact_match"], rows[n]["nw_score"])))
PY
)
    echo "picked on validation: $pick"
    for split in test out_of_register; do
      score $pick ${adapter[$pick]} $split 1 &
      [ $pick = s1-raw ] || score s1-raw ${adapter[s1-raw]} $split 1 &
    done
    wait
    average=$([ $pick = s1-raw ] || echo "--weight_average_decay 0.98")
    START=${adapter[$pick]}
    mkdir -p $LAB/results/help-grpo $LAB/results/sft-only
    (python3 -m training.cli.warm_start --config training/recipes/sft-stage-2-help.yaml --model $M --report_to none \
       --init_adapter $START --max_train_minutes 7 --max_steps 5000 --output_dir $LAB/runs/sft-only \
       --results_dir $LAB/results/sft-only > $LAB/results/sft-only/train.log 2>&1) &
    python3 -m training.cli.train --config training/recipes/stage-2.yaml --model $M --report_to none \
      --init_adapter $START --supervised_help sft-stage-2-help --max_train_minutes 5 --max_steps 3000 $average \
      --output_dir $LAB/runs/help-grpo --results_dir $LAB/results/help-grpo > $LAB/results/help-grpo/train.log 2>&1
    wait
    for split in validation test; do
      score help-grpo $LAB/runs/help-grpo/final $split 1-2 & score sft-only $LAB/runs/sft-only/final $split 1-2 & wait
    done
    mkdir -p $LAB/out/stage1-pick
    cp ${adapter[$pick]}/adapter_config.json ${adapter[$pick]}/adapter_model.safetensors $LAB/out/stage1-pick/
    echo $pick > $LAB/out/stage1-pick/picked.txt
    bf16 $LAB/out/stage1-pick; bf16 $LAB/runs/help-grpo/final
    pack_out adapter-stage1-pick out/stage1-pick
    pack_out adapter-help-grpo runs/help-grpo/final/adapter_config.json runs/help-grpo/final/adapter_model.safetensors ;;
  cont)
    mkdir -p $LAB/results/arith16-more $LAB/results/s1-cont
    (python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M --report_to none \
       --task arithmetic-2x2 --learning_rate 1e-4 --per_device_train_batch_size 128 --max_steps 5000 \
       --weight_average_decay 0.98 --max_train_minutes 5.5 --init_adapter $LAB/runs/arith16/final \
       --output_dir $LAB/runs/arith16-more --results_dir $LAB/results/arith16-more > $LAB/results/arith16-more/train.log 2>&1
     for a in final final-raw; do
       python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/arith16-more/$a --stages "" \
         --arithmetic arithmetic-2x2 --n 512 --splits test --baseline false \
         --out $LAB/results/arith16-more/eval-test$([ $a = final ] || echo -raw) >> $LAB/results/arith16-more/train.log 2>&1
     done) &
    python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M --report_to none \
      --init_adapter $LAB/runs/s1/final-raw --max_steps 3000 --max_train_minutes 5.5 --weight_average_decay 0.98 \
      --weight_average_start 0 \
      --output_dir $LAB/runs/s1-cont --results_dir $LAB/results/s1-cont > $LAB/results/s1-cont/train.log 2>&1
    for a in final final-raw; do
      python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/s1-cont/$a --stages 1 --n 256 --split validation \
        --arithmetic false --baseline false --out $LAB/results/s1-cont/eval-validation-$a 2>&1 | grep "^| stage" | sed "s/^/$a /"
    done
    wait
    grep -h "^| arith" $LAB/results/arith16-more/train.log ;;
  c)
    format_start
    mkdir -p $LAB/results/s1c
    python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M --report_to none \
      --init_adapter $LAB/runs/sft-start/final --max_steps 3000 --max_train_minutes 8 --warmup_steps 30 \
      --weight_average_decay 0.98 --weight_average_start 120 \
      --output_dir $LAB/runs/s1c --results_dir $LAB/results/s1c > $LAB/results/s1c/train.log 2>&1
    cp $LAB/runs/s1c/promotion.jsonl $LAB/results/s1c/ 2>/dev/null
    grep -h "time budget\|promoted\|rror" $LAB/results/s1c/train.log | tail -3 ;;
  d)
    declare -A adapter=([s1c-average]=$LAB/runs/s1c/final [s1c-raw]=$LAB/runs/s1c/final-raw)
    for name in "${!adapter[@]}"; do score $name ${adapter[$name]} validation 1 & done
    wait
    pick=$(python3 - $LAB/results/scores <<'PY'
import json, sys  # the best validation exact match, then NW
rows = {n: json.load(open(f"{sys.argv[1]}/{n}-validation/eval.json"))["rows"][0] for n in ("s1c-average", "s1c-raw")}
print(max(rows, key=lambda n: (rows[n]["exact_match"], rows[n]["nw_score"])))
PY
)
    echo "picked on validation: $pick"
    for split in test out_of_register; do score $pick ${adapter[$pick]} $split 1 & done
    wait
    for name in "${!adapter[@]}"; do
      mkdir -p $LAB/out/$name && cp ${adapter[$name]}/adapter_* $LAB/out/$name/ && bf16 $LAB/out/$name
    done
    pack_out adapters-s1c out/s1c-average out/s1c-raw ;;
  e)  # run ad hoc after PART=d (the machine had ~7 minutes left), written down here after it ran
    mkdir -p $LAB/results/s1c-cont
    python3 -m training.cli.train --config training/recipes/stage-1.yaml --model $M --report_to none \
      --init_adapter $LAB/runs/s1c/final --max_steps 3000 --max_train_minutes 4.5 --weight_average_decay 0.98 \
      --weight_average_start 0 \
      --output_dir $LAB/runs/s1c-cont --results_dir $LAB/results/s1c-cont > $LAB/results/s1c-cont/train.log 2>&1
    for a in final final-raw; do
      python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/s1c-cont/$a --stages 1 --n 256 --split validation \
        --arithmetic false --baseline false --out $LAB/results/s1c-cont/eval-validation-$a 2>&1 | grep "^| stage" | sed "s/^/$a /" &
    done
    wait
    mkdir -p $LAB/out2/s1c-cont-average && cp $LAB/runs/s1c-cont/final/adapter_* $LAB/out2/s1c-cont-average/
    bf16 $LAB/out2/s1c-cont-average
    pack_out s1c-cont out2 ;;
esac
(cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
