# GPU batch 24 of issue 17 (written 2026-11-26, session 18, before it ran; for the next session's device minutes).
# Batch 23 (results/grpo/batch-23/README.md) found: 256 completions a step lift stage 1 to 0.990 / 93% on validation
# (three seeds), 0.976-0.987 NW and 90-92% exact on test: item 1's exact match is met, its NW score (0.99) is not.
# Its seed 0 is the shipped adapter (adapters/shipped/, stage 1), which is in every checkout, so the chain can start
# from it without a carried adapter. Batch 22's adapters were lost with session 17; this batch's chain adapters must
# be committed as they come back (commit them, then remove them from the tree in the next commit: the history keeps
# them, and `git show SHA:PATH > .carry/NAME/adapter_model.safetensors` brings one back for a later batch).
#
# Parts (each one call, or in the background with PART=bg / PART=wait, scripts/gpu/setup.sh's start_parts; on a machine
# of several GPUs, CUDA_VISIBLE_DEVICES=N before PART=bg gives a lane its GPU):
# PART=c2        item 2: make train-stage N=2 as committed (stage-2.yaml: the scrambled 4-50-word help, 2 min, then 138
#                GRPO steps) from the shipped adapter; c2-score: validation, stages 1-2. Batch 21's scr, the same recipe
#                from e-ent: 0.875 / 58.2% at 25 words.
# PART=c3        stage-3.yaml as committed from c2; c3-score: validation, stages 1-3 (batch 20's h3: 0.811 at 50 words).
# PART=c4        stage-4.yaml as committed from c3; c4-score: validation, stages 1-4 (batch 21's h4n-lr03: 0.796).
# PART=c2-eq     item 3 at stage 2, equal minutes: c2's help recipe alone (sft-stage-2-help-scrambled) from the shipped
#                adapter for 7 minutes (c2's help and GRPO together took ~7 on batch 21's H100); c2-eq-score:
#                validation, stages 1-2. GRPO's share at stage 2 = c2 minus c2-eq.
# PART=i1-b512   item 1's NW score: stage-1.yaml (256 a step since batch 23) at 512 a step (64 prompts x 8), from the
#                format start, 8 minutes; needs an H200 (~125 GiB: batch 23 peaked at 63 GiB at 256). i1-b512-score.
# PART=i1-d99    the same at 256 a step with a longer weight average (--weight_average_decay 0.99: ~100 steps instead
#                of ~50); i1-d99-score. Controls: batch 23's three seeds, 0.989-0.991 / 92.6-93.4% on validation.
#                Rule for both: stage-1.yaml takes a setting whose average beats 0.990 NW on validation by 0.003 or
#                more (one run; batch 23's seeds spread 0.002), and only then is it scored on test.
# PART=i1-scr    the same at 256 a step with --scrambled_fraction 0.3 (30% of the train problems have each text's words
#                shuffled): batch 23's misses cluster in the numeric and dialogue registers, at words that repeat
#                within or across the texts (results/grpo/batch-23/README.md), where copying by place is the skill.
#                Same rule; i1-scr-score, and if it passes, test and out_of_register (issue 18's gap at stage 1).
# PART=s6-direct item 3, the collapse hypothesis: stage-6.yaml straight from the shipped stage-1 adapter, no help
#                (--supervised_help none), 5 minutes of GRPO: its zero-variance fraction and reward a step
#                (metrics.jsonl) against the chain's stage 6 later. Needs an H200 (stage 6's longest completions:
#                ~100 GiB estimated). s6-direct-score: validation, stages 1 and 6.
# PART=sup2      item 3 on today's corpus (batch 22's part, never run): the supervised chain's first two steps
#                (sft-every-length.yaml, 7 min; sft-long-weighted.yaml, ~5.5 min) from a fresh adapter; sup2-score:
#                test, stages 1-6.
# PART=start-in  the format start (for i1-b512, i1-scr and i1-d99).
# PART=i1-report NAMES="a b": the named stage-1 arms' averages on test and out_of_register (256 each): reports.
# Plan: one machine of 4 GPUs (nvidia-h200-x4: s6-direct and i1-b512 need its memory), the five bundles, the format
# start on GPU 0 in the last bundle's call, then four lanes in the background:
#   GPU 0 "c2 c2-score c3 c3-score" (then c4 c4-score if the machine has 10 minutes left), GPU 1 "i1-b512 i1-b512-score
#   i1-scr i1-scr-score", GPU 2 "s6-direct s6-direct-score c2-eq c2-eq-score", GPU 3 "sup2 sup2-score i1-d99
#   i1-d99-score" (i1-d99 last: the least likely to matter).
# The lanes in one command, after the format start (its own call, or the last bundle's):
#   source scripts/gpu/setup.sh; start_lanes scripts/gpu/grpo_sweep_24.sh "c2 c2-score c3 c3-score" \
#     "i1-b512 i1-b512-score i1-scr i1-scr-score" "s6-direct s6-direct-score c2-eq c2-eq-score" \
#     "sup2 sup2-score i1-d99 i1-d99-score"
# PART=wait brings each lane's files back as they end (the adapters as bf16 tar.gz, ~15 MB each). Commit c2's and
# c3's adapters as soon as they are here.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
mkdir -p $LAB/results/scores
# s6_direct FLAGS...: item 3's collapse test, stage-6.yaml straight from the shipped stage 1, no help, 5 minutes
s6_direct() { chain_stage s6-direct 6 $SHIPPED --supervised_help none --max_train_minutes 5 --max_steps 3000 "$@"; }
SHIPPED=adapters/shipped   # batch 23's stage-1 adapter, in the tree then (since 7918836 it is c2-eq-grpo: to rerun, use f739a38's)
case ${PART:?set PART=start-in, s6-direct-2, c2-eq-grpo, c2, c3, c4, c2-eq, i1-b512, i1-d99, i1-scr, s6-direct, sup2 (each also NAME-score), i1-report, bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_24.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  start-in) format_start ;;
  c2) chain_stage c2 2 $SHIPPED ;;
  c2-score) score c2 $LAB/runs/c2/final validation 1-2 ;;
  c3) chain_stage c3 3 $LAB/runs/c2/final ;;
  c3-score) score c3 $LAB/runs/c3/final validation 1-3 ;;
  c4) chain_stage c4 4 $LAB/runs/c3/final ;;
  c4-score) score c4 $LAB/runs/c4/final validation 1-4 ;;
  c2-eq) help_alone c2-eq sft-stage-2-help-scrambled $SHIPPED 7 ;;  # (ran inline as the same command, timeout 540 s)
  c2-eq-score) score c2-eq $LAB/runs/c2-eq/final validation 1-2 ;;
  i1-b512) stage1 i1-b512 --per_device_train_batch_size 512 ;;
  i1-d99) stage1 i1-d99 --weight_average_decay 0.99 ;;
  i1-scr) stage1 i1-scr --scrambled_fraction 0.3 ;;
  i1-b512-score | i1-d99-score | i1-scr-score) score_both ${PART%-score} ;;
  i1-report) report_stage1 ${NAMES:?} ;;
  s6-direct) s6_direct ;;
  s6-direct-mb)  # added after s6-direct died at its first step (CUDA OOM: 70.9 GiB of logits for 128 completions
    # of ~2,800 tokens at once); the same run in micro-batches of 16 (8 accumulated: still 16 prompts x 8 a step), on
    # GPU 2 once its lane's c2-eq-score has ended
    while [ ! -e $LAB/results/bg-c2-eq-score.log ] || [ -e $LAB/running/c2-eq-score ]; do sleep 5; done
    s6_direct --per_device_train_batch_size 16 --gradient_accumulation_steps 8 ;;
  # Machine 2 (one H200, after machine 1's results: c2 lost to c2-eq, its help alone, by 0.10 at 25 words; s6-direct
  # and s6-direct-mb died of CUDA OOM in the sampler's prefill, since fixed in graph_sampler.py). Both at once on it:
  s6-direct-2) s6_direct --per_device_train_batch_size 16 --gradient_accumulation_steps 8 ;;
  # c2-eq-grpo: does GRPO add on top of a strong supervised start? stage-2.yaml from c2-eq (0.962 / 87.9% at 25 words
  # on validation; adapter in commit e715af4, carried as .carry/c2-eq) with no further help, at the long stages'
  # lr 3e-5 (stage 2's 3e-4 went 0.82 -> 0.88 -> 0.82 on the promotion checks of c2), 5 minutes, the average from step
  # 20; c2-eq-grpo-score: validation, stages 1-2. GRPO adds at stage 2 if it beats c2-eq by 0.01 or more.
  c2-eq-grpo) polish c2-eq-grpo 2 .carry/c2-eq --per_device_train_batch_size 32 --gradient_accumulation_steps 4 ;;
  c2-eq-grpo-score) score c2-eq-grpo $LAB/runs/c2-eq-grpo/final validation 1-2 ;;
  s6-direct-score) score s6-direct $LAB/runs/s6-direct/final validation 1,6 ;;
  sup2) supervised_chain_start ;;
  sup2-score) score sup-2 $LAB/runs/sup-2/final test 1-6 ;;
esac
[ -z "$BG" ] && (cd $LAB && tar czf $OUT/results.tar.gz --exclude=inputs.pt results)
