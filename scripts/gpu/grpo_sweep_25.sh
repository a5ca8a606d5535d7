# GPU batch 25 of issue 17 (written 2026-11-26, session 19, before it ran; for the next session's device minutes).
# Batch 24 (results/grpo/batch-24/README.md) found at stage 2: the help alone for 7 minutes (c2-eq, 0.962 at 25 words
# on validation) beats 2 minutes of help + GRPO at lr 3e-4 (c2, 0.860) at equal minutes, and GRPO at lr 3e-5 on top of
# the 7-minute help adds +0.011 (c2-eq-grpo, 0.973), which stage-2.yaml now runs. This batch carries that design to
# stage 3, asks whether GRPO's +0.011 beats 5 more minutes of the help (item 3 at equal minutes), and reruns item 1's
# 512-a-step arm on a GPU of its own.
#
# Starts: c2-eq-grpo is adapters/shipped since session 19 (7918836), in the tree. Batch 23's stage 1 (the start of
# n2-eq12, as of c2-eq) is carried as .carry/stage-1 (git show f739a38:adapters/shipped/FILE for adapter_config.json
# and adapter_model.safetensors), in the last bundle's call; results/ moved out of the tree for the bundle calls (4
# calls instead of 6, batch 24).
#
# Parts (PART=bg / PART=wait as in batch 24; start_lanes gives each lane its GPU):
# PART=n3-eq      stage 3's help (sft-stage-3-help-long: texts of 4-100 words) alone for 7 minutes from c2-eq-grpo;
#                 n3-eq-score: validation, stages 1-3. Batch 24's c3 (2 min of help + 29 GRPO steps, from c2): 0.762;
#                 c2-eq-grpo itself, untrained at 50 words: 0.840 (results/grpo/batch-24/shipped-eval).
# PART=n3-grpo    GRPO polish from n3-eq (stage-3.yaml, lr 3e-5, the average from step 20, 5 minutes, no help);
#                 n3-grpo-score. Rule: stage-3.yaml takes the design (7-minute help + polish) if n3-grpo beats n3-eq
#                 by 0.01 or more on validation at 50 words and loses no earlier stage more than 0.02; else the help
#                 alone for 7 minutes, if it beats c3's 0.762.
# PART=n4-eq, n4-grpo  the same at stage 4 (sft-stage-4-help-long; stage-4.yaml's base is already lr 3e-5) from
#                 n3-grpo, if the machine has 15 minutes left after n3-grpo-score.
# PART=n2-eq12    item 3 at equal minutes: stage 2's help alone for 12 minutes from batch 23's stage 1 (c2-eq-grpo's
#                 7 + 5); n2-eq12-score: validation, stages 1-2. GRPO's share at stage 2 = c2-eq-grpo (0.973) minus
#                 this; reported either way, it changes no recipe.
# PART=n2-num     issue 18 at stage 2: c2-eq's help (7 minutes from batch 23's stage 1) with the train texts drawn
#                 twice as often from the numeric and reference registers (--register_weights numeric=2,reference=2:
#                 the registers nearest the held-out technical docs in numbers, identifiers and punctuation; never
#                 measured). n2-num-score: validation and out_of_register, stages 1-2. Rule: stage 2's help takes
#                 the weights if the out-of-register gap at 25 words (out_of_register - validation) shrinks by 0.01
#                 or more against c2-eq's (validation 0.962 on an H200; out_of_register scored on CPU in session 19,
#                 results/grpo/batch-24/cpu-eval/c2-eq-oor) and validation at 25 words loses under 0.005.
# PART=i1-b512    item 1: stage-1.yaml at 512 a step from the format start, 8 minutes (batch 24's ran 181 steps beside
#                 three other runs, still rising: 0.984 / 89.8%); i1-b512-score. Same rule as batch 24: adopted if its
#                 average beats 0.990 by 0.003 on validation, then scored on test and out of register (i1-report).
# PART=i1-d99     batch 24's unfinished arm: the weight average at decay 0.99; i1-d99-score, same rule.
# PART=start-in   the format start (for i1-b512, i1-d99).
# PART=i1-report  NAMES="a b": test and out_of_register for the named stage-1 arms.
# Plan: one machine of 4 GPUs (nvidia-h200-x4). The format start on GPU 0 in the last bundle's call, then:
#   source scripts/gpu/setup.sh; export BACK_RAW=0; start_lanes scripts/gpu/grpo_sweep_25.sh \
#     "n3-eq n3-eq-score n3-grpo n3-grpo-score" "n2-eq12 n2-eq12-score" "i1-b512 i1-b512-score" \
#     "n2-num n2-num-score i1-d99 i1-d99-score"
# then, on GPU 1 once n2-eq12-score is back and 15 minutes remain: "n4-eq n4-eq-score n4-grpo n4-grpo-score" (with
# n3-grpo's adapter: it waits for it). Added during the run (GPU 2 idle after i1-b512-score, too little time left for
# the n4 lane): n4-eq3, stage 4's help alone for 7 minutes from n3-eq, then n4-eq3-score (stages 1-4); after it, in
# the machine's last 8 minutes, n4-grpo3 (the polish from n4-eq3 for 3.5 minutes) and n4-grpo3-score. Commit each
# n-adapter as it comes back (then drop it from the tree).
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
STAGE1=.carry/stage-1         # batch 23's stage 1, the shipped adapter until session 19
STAGE2=adapters/shipped       # batch 24's c2-eq-grpo: stage 2 by stage-2.yaml's recipe of now, in the tree
case ${PART:?set PART=start-in, n3-eq, n3-grpo, n4-eq, n4-grpo, n2-eq12, n2-num, i1-b512, i1-d99 (each also NAME-score), i1-report, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_25.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  n3-eq) help_alone n3-eq sft-stage-3-help-long $STAGE2 7 ;;
  n3-grpo) polish n3-grpo 3 $LAB/runs/n3-eq/final ;;
  n4-eq)
    while [ ! -e $LAB/results/bg-n3-grpo-score.log ] || [ -e $LAB/running/n3-grpo-score ]; do sleep 5; done
    help_alone n4-eq sft-stage-4-help-long $LAB/runs/n3-grpo/final 7 ;;
  n4-grpo) polish n4-grpo 4 $LAB/runs/n4-eq/final ;;
  n4-eq3) help_alone n4-eq3 sft-stage-4-help-long $LAB/runs/n3-eq/final 7 ;;
  n4-grpo3) polish n4-grpo3 4 $LAB/runs/n4-eq3/final --max_train_minutes 3.5 ;;  # the time left: 3.5 minutes, not 5
  n2-eq12) help_alone n2-eq12 sft-stage-2-help-scrambled $STAGE1 12 ;;
  n3-eq-score | n3-grpo-score) score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-3 ;;
  n4-eq-score | n4-grpo-score | n4-eq3-score | n4-grpo3-score)
    score ${PART%-score} $LAB/runs/${PART%-score}/final validation 1-4 ;;
  n2-eq12-score) score n2-eq12 $LAB/runs/n2-eq12/final validation 1-2 ;;
  n2-num) help_alone n2-num sft-stage-2-help-scrambled $STAGE1 7 --register_weights numeric=2,reference=2 ;;
  n2-num-score)
    score n2-num $LAB/runs/n2-num/final validation 1-2 & score n2-num $LAB/runs/n2-num/final out_of_register 1-2 &
    wait ;;
  i1-b512) stage1 i1-b512 --per_device_train_batch_size 512 ;;
  i1-d99) stage1 i1-d99 --weight_average_decay 0.99 ;;
  i1-b512-score | i1-d99-score) score_both ${PART%-score} ;;
  i1-report) report_stage1 ${NAMES:?} ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
