# GPU batch 26 of issue 17 (written 2026-11-26, session 20, before it ran; for the next session's device minutes).
# Batch 25 (results/grpo/batch-25/README.md) carried the chain to stage 4: stages 3 and 4 are their 7-minute helps
# alone now (GRPO on top added +0.009 at 50 words and +0.000 at 100, under the 0.01 bar), and n4-eq3 scores 1.000 /
# 0.984 / 0.972 / 0.913 at stages 1-4 on validation after 34.8 minutes of chain. At equal minutes the help alone beat
# help + GRPO at stage 2 (n2-eq12, 0.978 against 0.973). This batch takes the chain to stages 5 and 6 in the ~25
# minutes item 2's budget has left, tests the collapse hypothesis through the curriculum (item 3), and gives stage
# 1's 512-a-step arm a GPU of its own (item 1).
#
# Start: n4-eq3 (stage 4 by the recipes of now, from the shipped stage 2) is adapters/shipped since session 20
# (3d52931), in the tree (also in eac22b5:adapters/batch-25/n4-eq3/); results/ moved out of the tree for the bundle
# calls (4 calls, as batches 24-25). Nothing is carried beside the bundles.
#
# Parts (PART=bg / PART=wait as in batch 24; start_lanes gives each lane its GPU):
# PART=n5-eq      stage 5's help (sft-stage-5-help-long: texts of 4-400 words) alone for 7 minutes from n4-eq3;
#                 n5-eq-score: validation, stages 1-5. Batch 21's h5 (2 min of help + 17 GRPO steps, from a weaker
#                 chain): 0.700 at 200 words.
# PART=n5-grpo    GRPO polish from n5-eq (stage-5.yaml, lr 3e-5, the average from step 20, 5 minutes, no help);
#                 n5-grpo-score. Rule, as at stages 3-4: stage-5.yaml takes help + polish if n5-grpo beats n5-eq by
#                 0.01 or more at 200 words on validation and loses no earlier stage more than 0.02; else the help
#                 alone for 7 minutes (max_steps 0), if it beats h5's 0.700.
# PART=n5-eq12    item 3 at equal minutes: stage 5's help alone for 12 minutes from n4-eq3 (n5-grpo's 7 + 5);
#                 n5-eq12-score: validation, stages 1-5. Reported either way; it changes no recipe.
# PART=n6-eq      stage 6's help (sft-stage-6-help-long: texts of 4-500 words) alone for 8 minutes from n5-eq (it
#                 waits for n5-eq's adapter); n6-eq-score: validation, stages 1-6. Rule: stage-6.yaml takes the help
#                 alone (max_steps 0) if it beats s6-chain at 500 words and loses no earlier stage more than 0.02;
#                 else the report says which stage lost what.
# PART=s6-chain   item 3's collapse test through the curriculum: stage-6.yaml (GRPO, no help) from n5-eq for 6
#                 minutes, in micro-batches of 16 (8 accumulated: 16 prompts x 8 a step, as batch 24's s6-direct-2
#                 from stage 1: reward ~0.001, 12-25% zero-variance groups, 4 steps in 5 minutes). It waits for
#                 n5-eq's adapter. s6-chain-score: validation, stages 5-6. The per-step zero-variance fraction,
#                 identical groups and reward come from its metrics.jsonl.
# PART=i1-b512    item 1: stage-1.yaml at 512 a step from the format start, 8 minutes, alone on its GPU (batch 25's
#                 ran beside three lanes: 205 steps, 0.992 / 94.1%, still rising); i1-b512-score. Adopted if its
#                 average reaches 0.993 on validation (0.990 + 0.003, the rule of batches 24-25); then i1-report.
# PART=a2-b512   item 4 (the arithmetic control, 2x2): arith16's recipe (setup.sh's arith: a fresh adapter, lr 1e-4,
#                 the average at 0.98) at 512 a step, the lever that lifted stage 1 most, for 7 minutes; then base and
#                 adapter on 512 validation and 512 test problems. Batch 23: +8.9 / +6.7 points at 128 a step
#                 (validation / test), +9.3 / +8.8 at lr 3e-4; item 4 asks +10. Rule: arithmetic.yaml takes 512 a
#                 step if its validation gain beats a2-ctl's +8.9 by 2 points or more; item 4 is met if the test
#                 gain is +10 or more as well.
# PART=start-in   the format start (for i1-b512).
# PART=i1-report  NAMES="a b": test and out_of_register for the named stage-1 arms.
# Plan: one machine of 4 GPUs (nvidia-h200-x4). The format start on GPU 0 in the last bundle's call, then:
#   source scripts/gpu/setup.sh; export BACK_RAW=0; start_lanes scripts/gpu/grpo_sweep_26.sh \
#     "n5-eq n5-eq-score n5-grpo n5-grpo-score" "n5-eq12 n5-eq12-score" "a2-b512 n6-eq n6-eq-score" \
#     "i1-b512 i1-b512-score s6-chain s6-chain-score"
# Commit each n-adapter as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
STAGE4=adapters/shipped       # batch 25's n4-eq3: stage 4 by stage-3.yaml and stage-4.yaml of now
# after_n5_eq: wait until n5-eq's adapter is there (its score part has started)
after_n5_eq() { while [ ! -e $LAB/results/bg-n5-eq-score.log ]; do sleep 5; done; }
case ${PART:?set PART=start-in, n5-eq, n5-grpo, n5-eq12, n6-eq, s6-chain, i1-b512 (each also NAME-score), i1-report, a2-b512, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_26.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n5-eq) help_alone n5-eq sft-stage-5-help-long $STAGE4 7 ;;
  n5-grpo) polish n5-grpo 5 $LAB/runs/n5-eq/final ;;
  n5-eq12) help_alone n5-eq12 sft-stage-5-help-long $STAGE4 12 ;;
  n5-eq-score | n5-grpo-score | n5-eq12-score) score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-5 ;;
  n6-eq) after_n5_eq; help_alone n6-eq sft-stage-6-help-long $LAB/runs/n5-eq/final 8 ;;
  n6-eq-score) score n6-eq $LAB/runs/n6-eq/final validation 1-6 ;;
  s6-chain)
    after_n5_eq
    chain_stage s6-chain 6 $LAB/runs/n5-eq/final --supervised_help none --max_train_minutes 6 --max_steps 3000 \
      --per_device_train_batch_size 16 --gradient_accumulation_steps 8 ;;
  s6-chain-score) score s6-chain $LAB/runs/s6-chain/final validation 5-6 ;;
  i1-b512) stage1 i1-b512 --per_device_train_batch_size 512 ;;
  i1-b512-score) score_both i1-b512 ;;
  i1-report) report_stage1 ${NAMES:?} ;;
  a2-b512) arith a2-b512 --per_device_train_batch_size 512 --max_steps 3000 --max_train_minutes 7 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
