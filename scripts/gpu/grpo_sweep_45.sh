#!/usr/bin/env bash
# GPU batch 45 of issue 17 (written 2026-11-28, session 39, after batch 44 and before this batch ran).
# Batch 44 (results/grpo/batch-44/README.md; two H200s): stage 5's help annealed (cosine over its 759 steps at 5e-4)
# met stage 5's goal at all three paired draws (0.944 / 0.941 / 0.941 at 200 words on validation, against the constant
# rate's 0.935 / 0.765 / 0.834, mean +0.098) and held 25-100 words, but stage 6's first part (1,500 steps at 1e-4)
# built 0.058 less on it at 500 words over two draws (-0.070, -0.046): not adopted. Across the six stage-5 checkpoints
# carried through stage 6's first part (batches 38-40, 44), 500 words followed how much learning rate stage 5 spent
# (constant 5e-4: 0.899 / 0.847; cosine, half of it: 0.830 / 0.802; constant 1e-4, a fifth: 0.778 / 0.652), not
# stage 5's own score. This batch tests that reading with a schedule that keeps most of the constant rate's learning
# and still ends annealed: warmup-stable-decay (transformers' warmup_stable_decay: 10 warmup steps, 597 at 5e-4, then
# a cosine to 0 over the last 152, a fifth of the steps; summed over the steps, 0.90 of the constant rate's
# learning rate, against the cosine's 0.50, by transformers' schedules at 759 steps with 10 of warmup). Same 759 steps, so the same minutes.
#   item 2, stage 5 by warmup-stable-decay: l5-wsd is sft-stage-5-help-long-texts as committed with
#           --lr_scheduler_type warmup_stable_decay --lr_scheduler_kwargs '{"num_decay_steps": 152}' from h4-steps (the
#           batch-34 chain's stage 4, carried) at the sampler's seeds (draw 1: batch 38's l5-5e4 is its constant-rate
#           pair), then stage 6's first part from it (l5-wsd-s6a, 1,500 steps as committed; its pair: batch 40's s6a).
#           l5-wsd-s2 and l5-wsd-s2-s6a: the same at --seed 1 --problem_seed 1 (draw 2: batch 39's l5-5e4-s2 and
#           l5-5e4-s2-s6a are their pairs). 4 GPUs: l5-wsd-s3 at --seed 2 --problem_seed 2 too (draw 3: batch 44's
#           l5-5e4-s3), stage 5 only.
#   l5-wsd-s6a comes back (bf16, ~20 MB): if the schedule is adopted, the batch after runs stage 6's identifier part
#           from it to read stage 6 whole against idc40 without training stage 5 and the first part again.
#   Not here, a change of sweep 44's plan: its rule said the batch after a failed (c) runs stage 6 whole (first part
#           and identifier part) from l5-cos. That is ~34 minutes in sequence on an H200 (stage 5, 1,500 steps, 613
#           steps, the score) against a lane's ~24 (known when that rule was written: sweep 44 said ~31, over a
#           lane), and batch 44 brought no adapter back to start from, so it needs two batches. It waits on this one: if warmup-stable-decay keeps stage 6's first part level, it replaces
#           the cosine and the question is moot; if not, the batch after trains l5-cos's first part again with the
#           adapter brought back, and the one after runs the identifier part from it.
#   4 GPUs, the fourth lane (added in session 40, before the run, when four GPUs were lent): l5-cos-r, batch 44's l5-cos
#           trained again as it was (cosine, draw 1), then its first part (l5-cos-r-s6a), which comes back (bf16): the
#           start that stage 6 whole from l5-cos needs if (c) fails below, and, against batch 44's l5-cos and
#           l5-cos-s6a, how far one recipe at one seed reads apart when trained twice (reported, no rule).
#   Not here: chain-c (stage 6 from chain-b's stage 5, 0.105 under its goal) waits for stage 5's recipe. The lineage's
#           OORV at stage 4 (l5-5e4) ran on CPU in session 39 (batch-44/cpu-eval/).
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_45.sh`:
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# what it is: batch 34's stage 4 (the chain's; bf16; every stage-5 arm's start, as in batches 38-40 and 44).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB).
# Calls (nvidia-h200-x2; nvidia-h200-x4 where lent; a multi-GPU lease counts in full whatever its size): .gpu/1,
# .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/h4-steps: the start_lanes command below; then
# `WAIT=540 PART=wait bash THIS` calls until every part has ended, the last sized to end 20-40 s before the budget.
# Paces (H200s, batch 44): stage 5's help 759 steps in 369-379 s of wall time, stage 6's first part 1,500 steps in
# 787 s, a score of validation at stages 5-6 with OORV at 6 at once ~3 minutes. Batch 44's lane of the same shape
# (l5-cos l5-cos-s6a l5-cos-s6a-score) had ended by ~1,650 s into the lease.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; l5-wsd-s6a as
# adapter-l5-wsd-s6a.tar.gz.part-* (the wait call after its score).
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation:
# PART=l5-wsd             sft-stage-5-help-long-texts as committed (759 steps, 5e-4) with warmup-stable-decay (152
#                         decay steps) from h4-steps; l5-wsd-s2 the same at --seed 1 --problem_seed 1, l5-wsd-s3 at
#                         --seed 2 --problem_seed 2 (none back).
# PART=l5-wsd-s6a         stage 6's first part (sft-stage-6-help-long-texts, 1,500 steps) from l5-wsd, l5-wsd scored on
#                         validation at stages 1-5 beside it; l5-wsd-s2-s6a the same from l5-wsd-s2.
# PART=X-s6a-score        (X l5-wsd, l5-wsd-s2) X-s6a on validation at stages 5-6 and on OORV at 6, at once; l5-wsd-s6a
#                         then back in bf16.
# PART=l5-wsd-s3-score    l5-wsd-s3 on validation at stages 1-5.
# PART=l5-cos-r           batch 44's l5-cos again (sft-stage-5-help-long-texts, 759 steps, --lr_scheduler_type cosine,
#                         from h4-steps, draw 1); l5-cos-r-s6a and l5-cos-r-s6a-score as for l5-wsd, l5-cos-r-s6a back.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   item 2, stage 5 by warmup-stable-decay: sft-stage-5-help-long-texts takes lr_scheduler_type: warmup_stable_decay
#   with lr_scheduler_kwargs: {num_decay_steps: 152} if all three hold:
#     (a) stage 5's own checkpoint at 200 words on validation, over the paired draws that ran (draw 1: l5-wsd against
#         batch-38/scores/l5-5e4-validation; draw 2: l5-wsd-s2 against batch-39/scores/l5-5e4-s2-validation; draw 3
#         where it ran: l5-wsd-s3 against batch-44/scores/l5-5e4-s3-validation): mean difference +0.03 or more, and
#         every draw 0.93 or more (the anneal's three were 0.941-0.944);
#     (b) at 25, 50 and 100 words on validation (draw 1 against batch-40/scores/l5-5e4-validation; draw 3 where it ran
#         against l5-5e4-s3; batch 39 scored l5-5e4-s2 at 200 words only): no more than 0.01 below on average at each
#         length;
#     (c) stage 6's first part at 500 words on validation over draws 1 and 2 (l5-wsd-s6a against
#         batch-40/scores/s6a-validation; l5-wsd-s2-s6a against batch-39/scores/l5-5e4-s2-s6a-validation): no more
#         than 0.02 below on average.
#     If adopted: the recipe's comment says so (the steps, and so chain_minutes.py's stage-5 row, do not change), and
#     the batch after runs stage 6's identifier part from l5-wsd-s6a (back) against idc40; the chain then trains its
#     stages 3-6 again from chain-a's piece (chain-b's stage 4, the start stage 5 needs, did not come back).
#     If (c) fails: the reading "stage 6 builds on the learning stage 5 did" does not hold at 0.90 of the learning rate
#     summed: the decayed end state itself is what costs stage 6; the record says so, and stage 6's first part's
#     own schedule (a warmup back to a higher rate from a decayed start) is the next lever. If (a) fails and (c) holds:
#     a fifth of the steps does not anneal enough; the decay's length is the dial.
#   Reported, no rule: the anneal (batch 44's l5-cos, l5-cos-s2, l5-cos-s3) against warmup-stable-decay at each draw,
#   and OORV at 500 words of each first part against its constant-rate pair.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   2 GPUs: "l5-wsd l5-wsd-s6a l5-wsd-s6a-score" "l5-wsd-s2 l5-wsd-s2-s6a l5-wsd-s2-s6a-score" (~24 minutes each)
#   4 GPUs: the two above, "l5-wsd-s3 l5-wsd-s3-score" and "l5-cos-r l5-cos-r-s6a l5-cos-r-s6a-score"
#   1 GPU:  "l5-wsd l5-wsd-s6a l5-wsd-s6a-score" (~24 minutes on an H200, ~26 on an H100, where the last score may
#           not end in the budget: draw 1 alone; not adopted on one draw: the next batch runs draw 2)
# The .gpu/3 call's command (2 GPUs; 4: the three lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_45.sh
#   "l5-wsd l5-wsd-s6a l5-wsd-s6a-score" "l5-wsd-s2 l5-wsd-s2-s6a l5-wsd-s2-s6a-score"; sleep 20;
#   WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_45.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 45 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
H4=$LAB/carry/h4-steps                  # batch 34's stage 4 (the chain's)
WSD=(--lr_scheduler_type warmup_stable_decay --lr_scheduler_kwargs '{"num_decay_steps": 152}')
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_45.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  l5-wsd) stage5_arm l5-wsd $H4 "${WSD[@]}" ;;
  l5-wsd-s2) stage5_arm l5-wsd-s2 $H4 "${WSD[@]}" --seed 1 --problem_seed 1 ;;
  l5-wsd-s3) stage5_arm l5-wsd-s3 $H4 "${WSD[@]}" --seed 2 --problem_seed 2 ;;
  l5-cos-r) stage5_arm l5-cos-r $H4 --lr_scheduler_type cosine ;;
  l5-wsd-s6a | l5-wsd-s2-s6a | l5-cos-r-s6a) first_part ${PART%-s6a} 1-5 ;;
  l5-wsd-s6a-score | l5-wsd-s2-s6a-score | l5-cos-r-s6a-score) N=${PART%-score}; A=$LAB/runs/$N/final
    wait_for $A/adapter_model.safetensors || exit 1
    score $N $A validation 5-6 &
    score $N $A out_of_register_validation 6 &
    wait
    if [ $N != l5-wsd-s2-s6a ]; then back $N $A; fi ;;
  l5-wsd-s3-score) A=$LAB/runs/l5-wsd-s3/final
    wait_for $A/adapter_model.safetensors && score l5-wsd-s3 $A validation 1-5 ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
