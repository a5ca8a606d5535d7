# GPU batch 22 of issues 17 and 18 (written 2026-11-24, session 16, before it ran; for the next session's device
# minutes). Batch 21 (results/grpo/batch-21/README.md) found: (1) the long helps carry the chain: h5 (e-ent -> h50 ->
# h3 -> stage 4's help -> 60 GRPO steps at 3e-5 -> stage 5's help -> 17 GRPO steps) scores 0.995 / 0.985 / 0.927 /
# 0.884 / 0.700 at stages 1-5 on validation; (2) at stage 4, GRPO from the help collapsed at lr 3e-4 without the
# bonus too, lost 0.07 at 1e-4 and gained 0.008 at 3e-5 (now bases/interleave-long.yaml for stages 4-6); (3) 30%
# scrambled problems in stage 2's help and GRPO (scr) shrank the out-of-register gap at 25 words from 0.057 to 0.033
# (now in stage-2.yaml); (4) arithmetic GRPO from its SFT adapter gained 1.8 points (negative).
# Parts (each one call, or in the background with PART=bg / PART=wait, scripts/gpu/setup.sh's start_parts):
#
# PART=carry-in  CARRY=NAME: copy the carried .carry/NAME (an adapter) to $LAB/NAME. Batch 22 carries h5, h3 and scr
#                (batch 21's h5 and scr, batch 20's h3: /work/keep/batch-21/m24/out/h5, /work/keep/batch-21/m18/out/scr,
#                /work/keep/batch-20/out/h3; 19.6 MB each, a call each).
# PART=h6        item 2, the last stage: stage-6.yaml (bases/interleave-long.yaml: lr 3e-5, no bonus) from $LAB/h5 with
#                the help sft-stage-6-help-long (texts of 4-500 words, 2 min), then 5 minutes of GRPO alone. Its
#                metrics are also item 3's collapse numbers after the curriculum (zero-variance fraction and reward a
#                step at 500 words); h6-score: validation, stages 1-6. Stage 6's goal: 0.90 on test.
# PART=h4-eq     item 3 at stage 4, equal minutes: from $LAB/h3, stage 4's help alone (sft-stage-4-help-long) for 8.6
#                minutes, h4-help's 2 plus h4n-lr03's 6.6 (batch 21). h4-eq-score: validation, stages 1-4. GRPO's share
#                at stage 4 at equal minutes = h4n-lr03's 0.796 / 52.0% minus h4-eq's (one run each; n=256).
# PART=h5-report h5 on test and out_of_register, stages 1-5 (reports only: item 2's test numbers so far and issue
#                18's gaps at 50-200 words, where batch 20's h3 was 0.217 behind at 50 words).
# PART=h3s       issue 18 and item 2: stage-3.yaml as committed (29 GRPO steps) from $LAB/scr (batch 21's scr, the new
#                stage 2) with the help sft-stage-3-help-scrambled and --scrambled_fraction 0.3. h3s-score: validation
#                stages 1-3, test and out_of_register at stage 3. h3-oor: the control h3 (batch 20; from h50, plain
#                help) on test and out_of_register at stage 3. The rule: stage-3.yaml takes the scrambled help if
#                validation at 50 words is no more than 0.01 under h3's 0.811 and the out-of-register gap at 50 words
#                is 0.02 or more smaller than h3's (both on this GPU, n=256). Like batch 21's, the rule looks at the
#                out_of_register split, which stops being a clean report for this one choice. The chain differs
#                (scr vs h50 as the stage-2 start): that is the question, the scrambled chain against the plain one.
# PART=a2-long   item 4's fallback (the 135M model on 2x2 digits): batch 16's arith16 (fresh adapter, lr 1e-4, batch
#                128, the average at 0.98), which gained +8.4 points in 518 steps, for 1000 steps. Step-limited, so it
#                may run beside others. a2-long-score: base and trained, 512 validation and 512 test problems. Item
#                4's bar: +10 points over the start (the base model) on test.
# PART=s6-direct item 3, the collapse hypothesis: stage-6.yaml straight from stage 1's adapter (e-ent's average,
#                carried as .carry/start), no help (--supervised_help none), 5 minutes of GRPO alone: its zero-variance
#                fraction and reward a step against h6's (through the curriculum). s6-direct-score: validation at
#                stages 1 and 6.
# PART=sup2      item 3 on today's corpus: the supervised chain's first two steps (make curriculum's warm-start,
#                sft-every-length.yaml, 7 min; then warm-start-long, sft-long-weighted.yaml, 800 steps ~5.5 min) from a
#                fresh adapter, alone. sup2-score: test, stages 1-6 (report: results/curriculum's 12.5-minute point
#                was on corpus version 1, and batch 21 set it beside the help + GRPO chain).
# PART=g16       item 1 (deferred from batch 21): stage-1.yaml with --num_generations 16 (8 prompts x 16 samples),
#                313 steps (CLOCK=25 beside others); g16-score (average and last weights, validation). Controls: e-ent
#                0.979 / 86.7%, seed1 0.976 / 85.2%.
# Memory: GRPO's peak grows with the longest completion of a step, ~0.045 GiB a token at batch 128 (batch 21: 23 GiB
# at stage 4's 465 tokens, 43 GiB at stage 5's 963). Stage 6's longest completions should reach ~2,400 tokens (2.5x
# stage 5's): ~100-110 GiB, over an H100's 80. So h6 and s6-direct run on an H200 (kind nvidia-h200, 139 GiB; one
# chip, counted like the H100). If h6 still runs out of memory there, rerun it with --per_device_train_batch_size 64.
# Plan (one machine is taken back after 30 minutes held; write any change down before the first call):
# machine 1 (nvidia-h200): the five bundles; carry-in h5 with bg "h6 h6-score" (clocked, alone); then TOGETHER bg "h5-report" and
# "a2-long a2-long-score". Machine 2: the bundles; carry-in h3 with bg "h4-eq h4-eq-score h3-oor" (clocked, alone);
# carry-in scr; then bg "h3s h3s-score". Priority if time runs short: h6, h4-eq, h3s (+h3-oor), h5-report, sup2,
# a2-long, s6-direct, g16.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
ARITH_STEPS=${ARITH_STEPS:-1000}  # a2-long's steps
case ${PART:?set PART=carry-in, h6, h6-score, h4-eq, h4-eq-score, h5-report, h3s, h3s-score, h3-oor, a2-long, a2-long-score, s6-direct, s6-direct-score, sup2, sup2-score, start-in, g16, g16-score, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_22.sh ;;  # PARTS="a b ..." [TOGETHER=1]
  wait) wait_parts ;;
  carry-in) mkdir -p $LAB/${CARRY:?} && cp .carry/$CARRY/adapter_config.json .carry/$CARRY/adapter_model.safetensors $LAB/$CARRY/ && ls $LAB/$CARRY ;;
  h6) helped h6 6 $LAB/h5 sft-stage-6-help-long ;;
  h6-score) score h6 $LAB/runs/h6/final validation 1-6 ;;
  h4-eq)
    mkdir -p $LAB/results/h4-eq
    timeout -s TERM 660 python3 -m training.cli.warm_start --config training/recipes/sft-stage-4-help-long.yaml \
      --model $M --report_to none --init_adapter $LAB/h3 --max_train_minutes 8.6 --max_steps 5000 \
      --output_dir $LAB/runs/h4-eq --results_dir $LAB/results/h4-eq > $LAB/results/h4-eq/train.log 2>&1
    back h4-eq $LAB/runs/h4-eq/final ;;
  h4-eq-score) score h4-eq $LAB/runs/h4-eq/final validation 1-4 ;;
  h5-report) score h5 $LAB/h5 test 1-5; score h5 $LAB/h5 out_of_register 1-5 ;;
  h3s) chain_stage h3s 3 $LAB/scr --supervised_help sft-stage-3-help-scrambled --scrambled_fraction 0.3 ;;
  h3s-score)
    score h3s $LAB/runs/h3s/final validation 1-3; score h3s $LAB/runs/h3s/final test 3
    score h3s $LAB/runs/h3s/final out_of_register 3 ;;
  h3-oor) score h3 $LAB/h3 test 3; score h3 $LAB/h3 out_of_register 3 ;;
  a2-long)
    mkdir -p $LAB/results/a2-long
    timeout -s TERM 1560 python3 -m training.cli.train --config training/recipes/arithmetic.yaml --model $M \
      --report_to none --task arithmetic-2x2 --init_adapter base --learning_rate 1e-4 --per_device_train_batch_size 128 \
      --weight_average_decay 0.98 --max_steps $ARITH_STEPS --max_train_minutes 25 --output_dir $LAB/runs/a2-long \
      --results_dir $LAB/results/a2-long > $LAB/results/a2-long/train.log 2>&1 ;;
  a2-long-score)
    python3 -m training.cli.evaluate --model $M --adapter $LAB/runs/a2-long/final --stages "" --arithmetic arithmetic-2x2 \
      --n 512 --splits validation,test --baseline true --out $LAB/results/a2-long/eval 2>&1 | grep "^| arith" ;;
  s6-direct) chain_stage s6-direct 6 $LAB/start --supervised_help none --max_train_minutes 5 --max_steps 3000 ;;
  s6-direct-score) score s6-direct $LAB/runs/s6-direct/final validation 1,6 ;;
  sup2) supervised_chain_start ;;
  sup2-score) score sup-2 $LAB/runs/sup-2/final test 1-6 ;;
  start-in) format_start ;;
  g16) stage1 g16 --num_generations 16 ;;
  g16-score) score_both g16 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
