# GPU batch 33 of issues 17 and 18 (written 2026-11-27, session 27, before it ran; for a later session's GPU minutes).
# Batch 32 (results/grpo/batch-32/README.md): the same identifier part of stage 6 from the same first part scored
# 0.908 (s6-lt) and 0.879 (s6-ctl) at 500 words on validation (s6-ctl from a bf16 copy of the start, on another
# machine): ~0.03, more than s6-lt's 0.007 shortfall from the test goal.
# Both end on the last weights of a constant-rate supervised run; GRPO's runs ship a weight average (stage 1, i1-fs:
# 0.992 against 0.963 for its last weights). Supervised runs take --weight_average_decay since commit 61c7f05
# (final/ the average, final-raw/ the last weights; training itself is unchanged). The chain ran its first two stages
# as one `make curriculum UNTIL=stage-2` (chain-stage-1, chain-stage-2-fp32 in commit 19bbba0). This batch:
#   item 2 + run spread: stage 6's identifier part with the weight average, twice (s6-ema99: decay 0.99, ~100 steps;
#           s6-ema995: 0.995, ~200; a supervised run's average starts at step 0, so after 613 steps it keeps 0.2% and
#           4.6% of the start's weights), from s6-lt-a as s6-ctl ran, each average against its own last weights on the same
#           problems. The last weights of each are two more runs of the committed recipe (the average only reads the
#           weights), so with s6-lt and s6-ctl four runs of it say how far one run moves.
#   item 2, stage 5: stage 5's long-text help with the average (n5-ema: decay 0.99, 759 steps as committed, from
#           n4-eq3 as n5-lt ran), the average against its last weights at 200 words.
#   item 1: the largest kind of stage 1's first slips on test is a number's trailing zeros cut (7 of 32 for the
#           chain's stage 1: `$30,000` -> `$30,0`; results/grpo/batch-32/cpu-eval/first-slip-kinds.md), in half the
#           stage-1 runs since batch 23, and GRPO made it (the format start's recipe copies those zeros at p ~1; the
#           chain's stage 1 at p 0.000). Per-word credit scores the token that ended a cut word (` fed`) by the next
#           word, so it rewarded cutting; --cut_word_credit (session 27) charges it the cut word's score.
#           i1-cut: stage-1.yaml with it, from a fresh format start. i1-num: with the numeric register three times as
#           often in its train problems. (i1-ema99, decay 0.99, was planned here and replaced by i1-cut before the
#           batch ran.)
#   item 2's chain (the same `make curriculum`, carried on): stages 3-5 from chain-stage-2 (chain-35: `make
#           curriculum UNTIL=stage-5`, the runner skipping stages 1-2, whose finals are carried); stage 5's adapter back
#           as trained (float32) for the next session's stage 6 and eval; each stage's own test scores.
#
# Starts, carried (each rides a call of its own or shares one, see Calls; at most 64 MiB a call):
#   s6-lt-a:                mkdir -p .carry/s6-lt-a && for f in adapter_config.json adapter_model.safetensors; do
#                             git show 198b87e:adapters/batch-31/s6-lt-a/$f > .carry/s6-lt-a/$f; done
#   chain-stage-1, chain-stage-2-fp32: the same from 19bbba0:adapters/batch-32/NAME/
#   n4-eq3:                 the same from eac22b5:adapters/batch-25/n4-eq3/
# Each run of this script first copies every carried adapter (.carry/NAME/) to $LAB/carry/NAME/, so that a start
# carried by an earlier call stays on the machine whatever later calls carry; a part that needs one waits for it.
# Calls: results/ moved out of the tree (mv results /work/results-hidden; back before any commit) but for the slip
# probe that probe-report reads (mkdir -p results/grpo/slip-probe && cp /work/results-hidden/grpo/slip-probe/
# batch-32-chain-stage-1-test.json results/grpo/slip-probe/); .gpu/1, .gpu/2,
# .gpu/3 alone, each `source scripts/gpu/setup.sh`; .gpu/4 with .carry/chain-stage-1: the start_lanes command below;
# then .carry/chain-stage-2-fp32 alone with `WAIT=20 PART=wait bash THIS` (the chain starts on it); then
# .carry/s6-lt-a and .carry/n4-eq3 with `WAIT=540 PART=wait bash THIS`; then `WAIT=540 PART=wait bash THIS` calls back
# to back, the last sized to the budget. A call carries at most 64 MiB with the tree (~21 MB without results/):
# .gpu/4 14 MB, each bf16 start ~20 MB, chain-stage-2-fp32 39 MB.
#
# Parts (start_lanes gives each lane its GPU). Scores: 256 problems a stage, greedy; OOR = out_of_register:
# PART=s6-ema99    sft-stage-6-help-identifiers as committed (613 steps) from s6-lt-a with --weight_average_decay 0.99.
#                  s6-ema99-score: the average on validation and OOR, its last weights on validation, stages 1-6, at
#                  once. s6-ema99-report: the average on test, stages 1-6.
# PART=s6-ema995   the same with --weight_average_decay 0.995; s6-ema995-score, s6-ema995-report likewise.
# PART=n5-ema      sft-stage-5-help-long-texts as committed (759 steps) from n4-eq3 with --weight_average_decay 0.99.
#                  n5-ema-score: the average and its last weights on validation, stages 1-5, at once.
# PART=start       a fresh format start (sft-format-start.yaml as committed) into $LAB/runs/sft-start.
# PART=i1-cut     stage-1.yaml from it with --cut_word_credit true (CLOCK=10 guards; the recipe's 310 steps and its
#                  promotion checks decide); the average back. i1-cut-score: average and last weights on validation;
#                  i1-cut-report: the average on test and OOR.
# PART=i1-num     stage-1.yaml from the same format start with --register_weights numeric=3 (CLOCK=10 guards); the
#                  average back. i1-num-score: average and last weights on validation; i1-num-report: test and OOR.
# PART=probe-report scripts/analysis/slip_probe.py --at the chain's stage-1 first slips on test (batch 32, session 27:
#                  at all 7 of its digit cuts the reference `0` had probability 0.000 and no sample of 8 was exact,
#                  so GRPO had nothing to learn from there): the format start and i1-cut at the same places, the
#                  reference token's probability and their greedy answers (is the habit there before GRPO, and does
#                  either recipe lose it?); probe-num-report: i1-num the same way (in its own lane). Reported, no rule.
# PART=chain-35    `python -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml --until stage-5`
#                  (make curriculum UNTIL=stage-5) into $LAB/chain, where chain-stage-1 and chain-stage-2-fp32 are
#                  stage-1/final and stage-2/final (the runner skips them); stage 5's adapter back as trained (float32,
#                  three parts). chain-35-score: stage 5 on validation and test, stages 1-5, at once.
# PART=chain-3-score, chain-4-score: stage 3 on test (stages 1-3), stage 4 on test (stages 1-4), each once the chain
#                  has written it (other lanes, so that the chain's lane ends with its stage 5).
# Rules, written before the run:
#   item 2, stage 6: sft-stage-6-help-identifiers takes weight_average_decay D, the decay whose average scores higher
#     at 500 words on validation, if (a) that average beats its own last weights there by 0.01 or more (paired,
#     scripts/paired_scores.py), (b) the other decay's average is not below its own last weights at 500 words (the
#     gain is not one run's luck), and (c) no stage 1-5 of the picked average is more than 0.01 below its last
#     weights. Then the average is the chain's stage 6 by the recipes of now (from n5-lt's first part), and it ships in
#     place of idf-more if it meets every stage's goal on test (0.99 / 0.98 / 0.97 / 0.95 / 0.93 / 0.90) and no stage
#     is more than 0.02 below n5-lt's on validation (batch 31's rule for s6-lt). Its out of register is reported.
#   run spread (reported, not picked): the last weights of s6-ema99 and s6-ema995, with s6-lt and s6-ctl, are four
#     runs of the committed identifier part; their range at 500 words on validation, and the two averages' range.
#   item 2, stage 5: sft-stage-5-help-long-texts takes weight_average_decay 0.99 if n5-ema's average beats its own
#     last weights by 0.01 or more at 200 words on validation and no stage 1-4 is more than 0.01 below them. n5-ema's
#     last weights against n5-lt (batch 30) is one more measure of run spread, at stage 5.
#   item 1, cut words: stage-1.yaml takes cut_word_credit: true if i1-cut's average scores 0.993 or more on validation
#     (batches 24-32's bar); item 1 is met if it then scores 0.99 and 90% exact on test. Reported either way: its first
#     slips on comma numbers (first_slip_kinds.py --thousands) and its probability of the reference `0` at the chain's
#     7 digit cuts (probe-report); one run says little alone, since half the runs of the committed recipe cut.
#   item 1, numbers: stage-1.yaml takes register_weights numeric=3 if i1-num's average scores 0.993 or more on
#     validation; item 1 is met if it then scores 0.99 and 90% exact on test. Reported either way: its first slips on
#     a number with a thousands comma (first_slip_word in problems.jsonl) against the chain's stage 1 (batch 32: 2 on
#     validation, 7 on test). If both i1 runs pass, the higher average on validation is taken.
#   item 2's chain: chain-35's stages 3-5 are the chain's if no recipe they ran changes by this batch's rules; a change
#     to stage 5's help (n5-ema) means stage 5 runs again from chain-35's stage 4 in the next batch (stage 4's adapter
#     is then needed: chain-4-score's part brings it back). Each stage's own test score is reported against its goal.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Paces from batches 31-32 on four H200s: the identifier part
# 613 steps ~8.5 minutes, a score of stages 1-6 on one split ~3.5, on three at once ~6.5; stage 5's help ~6.5 + ~1
# of loading; the chain's stages 3-4 ~8 each (7-minute helps), a stage-1 run ~8, its scores ~1 each.
#   4 GPUs: "chain-35 chain-35-score" "s6-ema99 s6-ema99-score chain-3-score s6-ema99-report"
#           "s6-ema995 s6-ema995-score chain-4-score i1-num i1-num-score probe-num-report s6-ema995-report
#           i1-num-report"
#           "start i1-cut i1-cut-score n5-ema n5-ema-score i1-cut-report probe-report" (~27, ~22, ~30, ~24
#           minutes, and the starts come 1-2 minutes into the lanes: lane 3's last two reports may not fit, nor
#           chain-35-score; the chain's adapter comes back before its scores, which would then lead the next batch)
#   2 GPUs: "chain-35 chain-35-score" "s6-ema99 s6-ema99-score chain-3-score chain-4-score s6-ema99-report" (~27,
#           ~22 minutes); the second decay, stage 5's average and item 1 lead the batch after.
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 33 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py), and ablation.py.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
FIRST=$LAB/carry/s6-lt-a   # batch 31's first part of stage 6 (from n5-lt)
N4=$LAB/carry/n4-eq3       # batch 25's stage 4 by stage-4.yaml (n5-lt's start)
IDF="sft-stage-6-help-identifiers"
CHAIN_SLIPS=results/grpo/slip-probe/batch-32-chain-stage-1-test.json  # the chain's stage-1 first slips on test
# ema_scores NAME STAGES SPLIT...: NAME's average (final) on each SPLIT and its last weights (final-raw) on
# validation, stages STAGES, all at once
ema_scores() {
  local name=$1 stages=$2; shift 2
  for split in "$@"; do score $name $LAB/runs/$name/final $split $stages & done
  score $name-raw $LAB/runs/$name/final-raw validation $stages &
  wait
}
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_33.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  s6-ema99) wait_for $FIRST/adapter_model.safetensors || exit 1
    help_alone s6-ema99 $IDF $FIRST 12 --max_steps 613 --weight_average_decay 0.99 ;;
  s6-ema99-score) ema_scores s6-ema99 1-6 validation out_of_register ;;
  s6-ema99-report) score s6-ema99 $LAB/runs/s6-ema99/final test 1-6 ;;
  s6-ema995) wait_for $FIRST/adapter_model.safetensors || exit 1
    help_alone s6-ema995 $IDF $FIRST 12 --max_steps 613 --weight_average_decay 0.995 ;;
  s6-ema995-score) ema_scores s6-ema995 1-6 validation out_of_register ;;
  s6-ema995-report) score s6-ema995 $LAB/runs/s6-ema995/final test 1-6 ;;
  n5-ema) wait_for $N4/adapter_model.safetensors || exit 1
    help_alone n5-ema sft-stage-5-help-long-texts $N4 12 --max_steps 759 --weight_average_decay 0.99 ;;
  n5-ema-score) ema_scores n5-ema 1-5 validation ;;
  start) format_start ;;
  i1-cut) wait_for $LAB/runs/sft-start/final/adapter_model.safetensors || exit 1
    CLOCK=10 stage1 i1-cut --cut_word_credit true ;;
  i1-cut-score) score_both i1-cut ;;
  i1-cut-report) report_stage1 i1-cut ;;
  i1-num) wait_for $LAB/runs/sft-start/final/adapter_model.safetensors || exit 1
    CLOCK=10 stage1 i1-num --register_weights numeric=3 ;;
  i1-num-score) score_both i1-num ;;
  i1-num-report) report_stage1 i1-num ;;
  probe-report) probe_at_slips $CHAIN_SLIPS sft-start i1-cut ;;
  probe-num-report) probe_at_slips $CHAIN_SLIPS i1-num ;;
  chain-35) wait_for $LAB/carry/chain-stage-2-fp32/adapter_model.safetensors || exit 1
    wait_for $LAB/carry/chain-stage-1/adapter_model.safetensors || exit 1
    mkdir -p $CHAIN/stage-1 $CHAIN/stage-2 $LAB/results/chain-35
    [ -d $CHAIN/stage-1/final ] || cp -r $LAB/carry/chain-stage-1 $CHAIN/stage-1/final
    [ -d $CHAIN/stage-2/final ] || cp -r $LAB/carry/chain-stage-2-fp32 $CHAIN/stage-2/final
    timeout -s TERM 1740 python3 -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml \
      --runs_dir $CHAIN --model $M --step_args=--report_to=none --until stage-5 \
      > $LAB/results/chain-35/chain.log 2>&1
    for n in 3 4 5; do   # stages 3-5 are their helps alone: the help's records, and the stage's own if any
      cp -r $CHAIN/stage-$n/supervised-help/results $LAB/results/chain-stage-$n-help 2>/dev/null
      cp -r $CHAIN/stage-$n/results $LAB/results/chain-stage-$n 2>/dev/null
    done
    mkdir -p $LAB/out/chain-stage-5-fp32 && cp $CHAIN/stage-5/final/adapter_config.json \
      $CHAIN/stage-5/final/adapter_model.safetensors $LAB/out/chain-stage-5-fp32/ \
      && pack_out adapter-chain-stage-5-fp32 out/chain-stage-5-fp32 ;;
  chain-35-score)
    score chain-stage-5 $CHAIN/stage-5/final validation 1-5 & score chain-stage-5 $CHAIN/stage-5/final test 1-5 &
    wait ;;
  chain-3-score) wait_for $CHAIN/stage-3/final/adapter_model.safetensors || exit 1
    score chain-stage-3 $CHAIN/stage-3/final test 1-3 ;;
  chain-4-score) wait_for $CHAIN/stage-4/final/adapter_model.safetensors || exit 1
    back chain-stage-4 $CHAIN/stage-4/final
    score chain-stage-4 $CHAIN/stage-4/final test 1-4 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
