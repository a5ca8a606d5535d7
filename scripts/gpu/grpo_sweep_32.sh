# GPU batch 32 of issues 17 and 18 (written 2026-11-26, session 26, before it ran; for a later session's GPU minutes).
# Batch 31 (results/grpo/batch-31/README.md): stage 6 of the chain by the recipes of now (s6-lt: n5-lt, then
# sft-stage-6-help-long-texts for 1,500 steps, then sft-stage-6-help-identifiers for 613) scored 0.908 at 500 words on
# validation, 0.893 on test (goal 0.90) and 0.578 out of register: -0.026 / -0.007 / -0.095 against the shipped adapter,
# which is the same two parts from the stage 5 of before. Long synthetic identifiers (idf-long, from the shipped
# adapter) gained +0.038 out of register at 500 words and -0.004 at 200. The chain is ~62.1 training minutes. This batch:
#   issue 18 + item 2: the chain's identifier part with long identifiers (s6-long: s6-lt's second part, from s6-lt-a,
#           with --long_identifier_share 0.5), on validation, test and out of register, against its control s6-ctl
#           (the same part as committed from the same start: only the long identifiers differ). The starts carried
#           are bf16 copies; s6-lt started from the float32 s6-lt-a, so s6-ctl against s6-lt also says how far one
#           run of the identifier part moves (the bf16 start and the card's nondeterminism), to read batch 31's
#           -0.026 against the shipped adapter by.
#   item 3: from the chain's stage 6 (s6-lt), GRPO at its own slips (c6s-lt: batch 30's c6s-only recipe) against the
#           same minutes of its identifier help (idf-again-lt: batch 30's idf-again recipe), both on validation and test:
#           the second equal-minutes pair with test scores on both arms, and the first from the chain's own stage 6.
#   item 2's minutes: the supervised helps are ~48 of the chain's ~62 minutes. sft-bench times 150 steps of stage 6's
#           first part as committed (eager), with --torch_compile true, and eager again (A-B-A on one GPU, so that the
#           other lanes' load is the same on both sides): tokens a second from each run's metrics, and its losses.
#   item 1 (4 GPUs): a stronger format start inside the bounds (start-fs: sft-format-start.yaml at lr 1e-3
#           instead of 5e-4, the same 100 steps, < 1 minute; its NW at 10 words must stay at or below 0.5), then
#           stage-1.yaml's GRPO from it (i1-fs).
#   item 2's chain as one `make curriculum` (4 GPUs): its first two stages (chain-12: `make curriculum
#           UNTIL=stage-2`, the chain runner's commands exactly), their adapters back, so that later sessions carry
#           them and run `make curriculum` on (stages 3-5 in one session's minutes, stage 6 and the eval in the next):
#           the whole chain is ~62 training minutes, a session's device time 30.
#
# Starts, carried (each ~20 MB; each rides a call of its own, see Calls):
#   s6-lt-a, s6-lt: mkdir -p .carry/NAME && for f in adapter_config.json adapter_model.safetensors; do
#                     git show 198b87e:adapters/batch-31/NAME/$f > .carry/NAME/$f; done
# Each run of this script first copies every carried adapter (.carry/NAME/) to $LAB/carry/NAME/, so that a start
# carried by an earlier call stays on the machine whatever later calls carry; a part that needs one waits for it.
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit); .gpu/1, .gpu/2,
# .gpu/3 alone, each `source scripts/gpu/setup.sh`; .gpu/4 with .carry/s6-lt-a: the start_lanes command below; then
# .carry/s6-lt with `WAIT=540 PART=wait bash THIS`, then `WAIT=540 PART=wait bash THIS` calls back to back.
#
# Parts (start_lanes gives each lane its GPU). Scores: 256 problems a stage, greedy; OOR = out_of_register:
# PART=s6-long     sft-stage-6-help-identifiers as committed (613 steps) from s6-lt-a with --long_identifier_share 0.5.
#                  s6-long-score: validation, test and OOR, stages 1-6, at once.
# PART=s6-ctl      sft-stage-6-help-identifiers as committed from s6-lt-a (bf16, as s6-long): s6-long's control.
#                  s6-ctl-score: validation and OOR, stages 1-6, at once (its test, if the rule picks s6-long, in the
#                  batch after).
# PART=lt-train-score  s6-lt greedy on the first 320 train problems of stage 6: c6s-lt's cut points (as batch 30's
#                  ship-train for c6s-only).
# PART=c6s-lt      batch 30's c6s-only from s6-lt: GRPO on 40-word windows cut 4 words before s6-lt's own first slips,
#                  the slipped problems alone, lr 3e-5, 5 minutes. c6s-lt-score: validation and test, stages 1-6.
# PART=idf-again-lt  batch 30's idf-again from s6-lt: 6 more minutes of sft-stage-6-help-identifiers at problem seed 2.
#                  idf-again-lt-score: validation and test, stages 1-6.
# PART=sft-bench   150 steps of sft-stage-6-help-long-texts from s6-lt-a, three times in a row on one GPU: eager
#                  (bench-eager-1), --torch_compile true (bench-compile), eager (bench-eager-2); no adapter back.
# PART=chain-12    `python -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml --until stage-2`
#                  (make curriculum UNTIL=stage-2) into $LAB/chain; each stage's results copied to
#                  $LAB/results/chain-stage-N; stage 1's adapter back in bf16, stage 2's as trained (float32, three
#                  parts: the next stage starts from it). chain-12-score: stage 1 on validation and test (stage 1),
#                  stage 2 on validation and test (stages 1-2).
# PART=start-fs    sft-format-start.yaml at --learning_rate 1e-3 from a fresh adapter into $LAB/runs/sft-start-fs, then
#                  its score at 10 words (validation): the ceiling for a start is 0.5.
# PART=i1-fs       stage-1.yaml from start-fs (CLOCK=10 guards; the recipe's 310 steps and promotion decide), the
#                  average back. i1-fs-score: average and last weights on validation; i1-fs-report: test and OOR.
# Rules, written before the run:
#   issue 18 + item 2: sft-stage-6-help-identifiers takes long_identifier_share 0.5 if s6-long's OOR beats s6-ctl's
#     by 0.03 or more at 200 and 500 words and its validation at 500 words is no more than 0.01 below s6-ctl's (batch
#     31's rule for idf-long, against its control), and no stage 1-5 is more than 0.01 below s6-ctl's on validation
#     (added: here it becomes the chain's stage 6). Then s6-long is the chain's stage 6, and it ships in place of
#     idf-more if it meets every stage's goal on test (0.99 / 0.98 / 0.97 / 0.95 / 0.93 / 0.90) and no stage is more
#     than 0.02 below n5-lt's on validation (batch 31's rule for s6-lt).
#   item 2: s6-ctl is reported, not picked (a rerun of the same recipe is not a recipe): s6-lt against s6-ctl, paired
#     on validation, is one measure of how far one run of the identifier part moves at 500 words.
#   item 3: c6s-lt against idf-again-lt, paired on validation and test at every stage, into the ablation (comparison
#     6f). stage-6.yaml takes GRPO at the slips after its help only if c6s-lt beats both idf-again-lt and s6-lt by 0.01
#     or more at 500 words on validation and the chain's minutes allow it (today they do not: ~62.1 + ~7).
#   item 2's minutes: the step-bound SFT recipes (stage 5's and stage 6's helps: their steps are fixed, the clock only
#     guards, so a faster step trains the same and takes fewer minutes; the 7-minute helps of stages 2-4 would train
#     more steps instead) take torch_compile: true if bench-compile's tokens a second,
#     steps 50-150, are 10% or more above the mean of the two eager runs', its losses at steps 10-150 are within 2%
#     of bench-eager-1's (bf16's noise; the same problems in the same order), and its first logged step comes no
#     more than 60 s after the eager runs'. The chain's minutes are then re-estimated by the measured ratio (a
#     measurement of the steps' speed, not a run of the chain).
#   item 2's chain: chain-12's stages are the chain's stages 1 and 2 if the recipes they ran (stage-1.yaml,
#     stage-2.yaml and the recipes they name) are still those of the chain when its later stages run; a recipe change
#     by this batch's rules to stage 1 (i1-fs) means stage 1 and 2 run again. Their scores are reported either way
#     (stage 1's test score is one more run of item 1's recipe as committed, not a pick).
#   item 1: sft-format-start.yaml takes lr 1e-3 if start-fs scores 0.5 or less at 10 words on validation and i1-fs's
#     average scores 0.993 or more there (batches 24-31's bar); item 1 is met if i1-fs then scores 0.99 and 90% exact
#     on test. start-fs above 0.5 breaks the bound for a start: i1-fs is then reported and never adopted.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Paces from batch 31 on four H200s: the identifier part
# 613 steps ~8.4 minutes, a score of stages 1-6 on one split ~3.5, on three at once ~6.5; a stage-1 run ~8, its scores
# ~1; c6s-lt ~2 + 5.2 + its scores ~5.5; 150 steps of the first part ~1.3 minutes + ~1 of loading and tokenizing.
#   4 GPUs: "chain-12 chain-12-score" "s6-long s6-long-score start-fs i1-fs i1-fs-score i1-fs-report"
#           "lt-train-score c6s-lt c6s-lt-score idf-again-lt idf-again-lt-score" "s6-ctl s6-ctl-score sft-bench"
#           (~24, ~27.5, ~26.5, ~23 minutes: stage 1 ~8 + stage 2's 7-minute help, ~1 of tokenizing and its 84 GRPO
#           steps ~5, then ~2 of scores; s6-long and s6-ctl train side by side, on equal terms)
#   2 GPUs: "s6-long s6-long-score sft-bench" "s6-ctl s6-ctl-score start-fs i1-fs i1-fs-score"
#           (~24, ~25.5 minutes); item 3's pair (c6s-lt, idf-again-lt) and chain-12 lead the batch after.
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 32 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
FIRST=$LAB/carry/s6-lt-a   # batch 31's first part of stage 6 (from n5-lt)
S6=$LAB/carry/s6-lt        # batch 31's s6-lt: stage 6 of the chain
IDF="sft-stage-6-help-identifiers"
CUTS=$LAB/results/scores/lt-train/problems.jsonl
WINDOWS="--continuation_words 40 --word_credit 0 --keep_word_signal_groups false --per_device_train_batch_size 16
  --gradient_accumulation_steps 8 --promotion_every 1000 --max_completion_length 64"
# bench_sft NAME FLAGS...: 150 steps of stage 6's first part from s6-lt-a, FLAGS over it; its metrics, no adapter back
bench_sft() {
  local name=$1; shift
  mkdir -p $LAB/results/$name
  timeout -s TERM 480 python3 -m training.cli.warm_start --config training/recipes/sft-stage-6-help-long-texts.yaml \
    --model $M --report_to none --init_adapter $FIRST --max_steps 150 --max_train_minutes 6 "$@" \
    --output_dir $LAB/runs/$name --results_dir $LAB/results/$name > $LAB/results/$name/train.log 2>&1
  echo "$name: exit $?"
}
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_32.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  s6-long) wait_for $FIRST/adapter_model.safetensors || exit 1
    help_alone s6-long $IDF $FIRST 12 --max_steps 613 --long_identifier_share 0.5 ;;
  s6-long-score)
    for split in validation test out_of_register; do score s6-long $LAB/runs/s6-long/final $split 1-6 & done; wait ;;
  s6-ctl) wait_for $FIRST/adapter_model.safetensors || exit 1
    help_alone s6-ctl $IDF $FIRST 12 --max_steps 613 ;;
  s6-ctl-score)
    score s6-ctl $LAB/runs/s6-ctl/final validation 1-6 & score s6-ctl $LAB/runs/s6-ctl/final out_of_register 1-6 &
    wait ;;
  chain-12) mkdir -p $LAB/results/chain-12
    timeout -s TERM 1740 python3 -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml \
      --runs_dir $LAB/chain --model $M --step_args=--report_to=none --until stage-2 \
      > $LAB/results/chain-12/chain.log 2>&1
    for n in 1 2; do
      cp -r $LAB/chain/stage-$n/results $LAB/results/chain-stage-$n 2>/dev/null
      cp $LAB/chain/stage-$n/promotion.jsonl $LAB/results/chain-stage-$n/ 2>/dev/null
    done
    back chain-stage-1 $LAB/chain/stage-1/final
    mkdir -p $LAB/out/chain-stage-2-fp32 && cp $LAB/chain/stage-2/final/adapter_config.json \
      $LAB/chain/stage-2/final/adapter_model.safetensors $LAB/out/chain-stage-2-fp32/ \
      && pack_out adapter-chain-stage-2-fp32 out/chain-stage-2-fp32 ;;
  chain-12-score)
    score chain-stage-1 $LAB/chain/stage-1/final validation 1 & score chain-stage-1 $LAB/chain/stage-1/final test 1 &
    score chain-stage-2 $LAB/chain/stage-2/final validation 1-2 & score chain-stage-2 $LAB/chain/stage-2/final test 1-2 &
    wait ;;
  lt-train-score) wait_for $S6/adapter_model.safetensors || exit 1
    python3 -m training.cli.evaluate --model $M --adapter $S6 --stages 6 --n 320 --split train --arithmetic false \
      --baseline false --out $LAB/results/scores/lt-train 2>&1 | grep "^| stage" | sed "s/^/s6-lt train: /" ;;
  c6s-lt) wait_for $CUTS || exit 1
    polish c6s-lt 6 $S6 $WINDOWS --continuation_cuts $CUTS --continuation_slips_only true ;;
  c6s-lt-score)
    score c6s-lt $LAB/runs/c6s-lt/final validation 1-6 & score c6s-lt $LAB/runs/c6s-lt/final test 1-6 & wait ;;
  idf-again-lt) wait_for $S6/adapter_model.safetensors || exit 1
    help_alone idf-again-lt $IDF $S6 6 --max_steps 700 --problem_seed 2 ;;
  idf-again-lt-score)
    score idf-again-lt $LAB/runs/idf-again-lt/final validation 1-6 &
    score idf-again-lt $LAB/runs/idf-again-lt/final test 1-6 & wait ;;
  sft-bench) wait_for $FIRST/adapter_model.safetensors || exit 1
    bench_sft bench-eager-1; bench_sft bench-compile --torch_compile true; bench_sft bench-eager-2 ;;
  start-fs) mkdir -p $LAB/results/sft-start-fs
    python3 -m training.cli.warm_start --config training/recipes/sft-format-start.yaml --model $M --report_to none \
      --learning_rate 1e-3 --output_dir $LAB/runs/sft-start-fs --results_dir $LAB/results/sft-start-fs 2>&1 \
      | grep -v "it/s\]" | tail -1
    score start-fs $LAB/runs/sft-start-fs/final validation 1 ;;
  i1-fs) wait_for $LAB/runs/sft-start-fs/final/adapter_model.safetensors || exit 1
    CLOCK=10 stage1 i1-fs --init_adapter $LAB/runs/sft-start-fs/final ;;
  i1-fs-score) score_both i1-fs ;;
  i1-fs-report) report_stage1 i1-fs ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
