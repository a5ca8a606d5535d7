#!/usr/bin/env bash
# GPU batch 44 of issue 17 (written 2026-11-27, session 38, after batch 43 and before this batch ran).
# Batch 43 (results/grpo/batch-43/README.md; two H200s): long identifiers in the annealed identifier part moved OORV
# by +0.005 over two paired draws (not adopted). chain-b, `make curriculum UNTIL=stage-5` from chain-a's piece, scored
# 0.999 / 0.979 / 0.911 / 0.873 / 0.825 on validation at stages 1-5 with its stage 5: it misses stage 5's goal (0.93)
# by 0.105 and stages 3-4's too (which step lost them is not known), its answers derailing (47 of 256 at 200 words).
# Of three stage-5 checkpoints of the recipe (constant 5e-4) measured, one met 0.93: 0.935 (batch 38) and 0.765
# (batch 39) from the batch-34 chain's stage 4, 0.825 from chain-b's own (unscored) stage 4. Batch 40 annealed
# it on the failed draw (l5-cos-s2: 0.941, +0.176, stages 2-4 held) and did not adopt it, because stage 6's first
# part built 0.046 less on it (0.802 against 0.847 at 500 words). Item 5 makes each stage's checkpoint the product,
# so the anneal is read again, on two more draws, with stage 6's first part on one.
#   item 2, stage 5 annealed: l5-cos is sft-stage-5-help-long-texts as committed (5e-4, 759 steps) with
#           --lr_scheduler_type cosine from h4-steps (the batch-34 chain's stage 4, carried) at the sampler's seeds
#           (draw 1: batch 38's l5-5e4 is its constant-rate pair), then stage 6's first part from it (l5-cos-s6a,
#           1,500 steps as committed; its pair: batch 40's s6a from l5-5e4). l5-cos-s3 and l5-5e4-s3: the annealed
#           and the constant rate at --seed 2 --problem_seed 2 (draw 3; draw 2 is batch 39-40's).
#   item 2, stage 2's promotion check (s2-p256, from sweep 43, not run there: 4 GPUs only): chain-a's stage 2 was
#           promoted at its first check (0.993 on 64 validation problems) and scored 0.968 at 25 words on 256, under
#           the goal of 0.98; a 64-problem check passes an adapter at 0.968 one time in four. s2-p256: stage-2.yaml's
#           GRPO from chain-a's stage 2 (no help: it had it), its 84 steps, with 256-problem checks
#           (--promotion_problems 256, problems 512-767).
#   issue 18, the lineage's OORV (4 GPUs only, from sweep 43): l5-5e4 on OORV at stage 4 (h4-steps' at stages 3-4 and
#           l5-5e4's at stage 5 ran on CPU after batch 43: batch-43/cpu-eval/).
#   Not here: chain-c (stage 6 from chain-b's stage 5). Sweep 43 said the chain goes on whatever its stage 5 scores;
#           changed after seeing 0.825: stage 6 from a stage 5 already failing item 2 would spend ~25 device-minutes,
#           and the chain's next piece waits for stage 5's recipe; stage 6 whole from l5-cos (~31 minutes, over a
#           lane); issue 18's next lever.
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_44.sh`:
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# CARRY-TREE chain 141db99:adapters/batch-42/chain-a
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# what they are: batch 34's stage 4 (the chain's; bf16; every stage-5 arm's start, as in batches 38-40); chain-a's
# piece (stages 1-2's records, stage 2's float32 adapter: s2-p256's start); batch 38's stage 5 (4 GPUs only).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB).
# Calls (nvidia-h200-x2; nvidia-h200-x4 where lent; a multi-GPU lease counts in full whatever its size): .gpu/1,
# .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/h4-steps: the start_lanes command below;
# .carry/chain with `WAIT=20 PART=wait bash THIS`; on 4 GPUs .carry/l5-5e4-fp32 with `WAIT=20 PART=wait bash THIS`;
# then `WAIT=540 PART=wait bash THIS` calls until every part has ended, the last sized to end 20-40 s before the
# budget. Paces (H200s): stage 5's help 759 steps in 300-350 s (+~60 s loading), stage 6's first part 1,500 steps in
# 700-745 s, a score of validation at stages 1-5 ~2.5 minutes, at 5-6 with OORV at once ~3, s2-p256 ~5 with its score.
# The lanes start ~170 s into the lease; the 2-GPU plan's lanes end ~1,500-1,610 s in on H200s (~1,700 on H100s:
# near the budget, so its last parts, l5-5e4-s3-score and s2-p256, may not end; batch 43's second lane did not).
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins. No adapter
# comes back (every part NO_BACK): the rules read scores.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation:
# PART=l5-cos             sft-stage-5-help-long-texts as committed (759 steps, 5e-4) with --lr_scheduler_type cosine
#                         from h4-steps; l5-cos-s3 the same at --seed 2 --problem_seed 2; l5-5e4-s3 as committed
#                         (constant) at --seed 2 --problem_seed 2 (none back).
# PART=l5-cos-s6a         stage 6's first part (sft-stage-6-help-long-texts, 1,500 steps) from l5-cos, l5-cos scored
#                         on validation at stages 1-5 beside it.
# PART=l5-cos-s6a-score   l5-cos-s6a on validation at stages 5-6 and on OORV at 6, at once.
# PART=X-score            (X l5-cos, l5-cos-s3, l5-5e4-s3) X on validation at stages 1-5.
# PART=s2-p256            stage-2.yaml's GRPO (84 steps at most) from chain-a's stage 2 with --supervised_help none
#                         --promotion_problems 256, scored on validation at stages 1-2 (the adapter not back).
# PART=lineage-oorv-score l5-5e4 on OORV at stage 4.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   item 2, stage 5 annealed: sft-stage-5-help-long-texts takes lr_scheduler_type: cosine if all three hold:
#     (a) stage 5's own checkpoint at 200 words on validation, over the three paired draws that ran (draw 1: l5-cos
#         against batch-38/scores/l5-5e4-validation; draw 2: batch-40/scores/l5-cos-s2-validation against
#         batch-39/scores/l5-5e4-s2-validation, +0.176; draw 3: l5-cos-s3 against l5-5e4-s3): mean difference +0.03 or
#         more, and every annealed draw 0.93 or more;
#     (b) at 25, 50 and 100 words on validation (draw 1 against batch-40/scores/l5-5e4-validation, draw 3 against
#         l5-5e4-s3): the annealed runs no more than 0.01 below on average at each length;
#     (c) stage 6's first part at 500 words on validation, over draws 1 and 2 (l5-cos-s6a against
#         batch-40/scores/s6a-validation; batch 40's l5-cos-s2-s6a against batch 39's l5-5e4-s2-s6a, -0.046): no
#         more than 0.02 below on average.
#     If (a) and (b) hold and (c) does not: not adopted, and the record says stage 5's checkpoint and stage 6's start
#     pull apart; the batch after runs stage 6 whole (first part and identifier part) from l5-cos to read the final
#     stage against idc40. If adopted, the recipe's comment says so and chain_minutes.py's stage-5 row needs a run of
#     it (l5-cos's summary).
#   item 2, s2-p256: stage-2.yaml takes promotion_problems: 256 if s2-p256 scores 0.98 or more at 25 words on
#     validation (problems 0-255, apart from its checks) and keeps 10 words at 0.99 or more; otherwise GRPO at 25
#     words does not lift this stage by itself, and the record says so (stage 2's help is then the lever).
#   issue 18, the lineage's OORV: reported.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   2 GPUs: "l5-cos l5-cos-s6a l5-cos-s6a-score" "l5-cos-s3 l5-5e4-s3 l5-cos-s3-score l5-5e4-s3-score s2-p256"
#           (~22-24 minutes each)
#   4 GPUs: "l5-cos l5-cos-s6a l5-cos-s6a-score" "l5-cos-s3 l5-cos-s3-score" "l5-5e4-s3 l5-5e4-s3-score"
#           "s2-p256 lineage-oorv-score"
#   1 GPU:  "l5-cos l5-cos-score l5-cos-s3 l5-cos-s3-score s2-p256" (~21 minutes: draw 1 paired, draw 3's annealed run
#           alone for (a)'s 0.93 floor; (b) on draw 1; (c) not read)
# The .gpu/3 call's command (2 GPUs; 4: the four lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_44.sh
#   "l5-cos l5-cos-s6a l5-cos-s6a-score" "l5-cos-s3 l5-5e4-s3 l5-cos-s3-score l5-5e4-s3-score s2-p256"; sleep 20;
#   WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_44.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 44 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
H4=$LAB/carry/h4-steps                  # batch 34's stage 4 (the chain's)
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_44.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  l5-cos) stage5_arm l5-cos $H4 --lr_scheduler_type cosine ;;
  l5-cos-s3) stage5_arm l5-cos-s3 $H4 --lr_scheduler_type cosine --seed 2 --problem_seed 2 ;;
  l5-5e4-s3) stage5_arm l5-5e4-s3 $H4 --seed 2 --problem_seed 2 ;;
  l5-cos-s6a) first_part l5-cos 1-5 ;;
  l5-cos-s6a-score) A=$LAB/runs/l5-cos-s6a/final
    wait_for $A/adapter_model.safetensors || exit 1
    score l5-cos-s6a $A validation 5-6 &
    score l5-cos-s6a $A out_of_register_validation 6 &
    wait ;;
  l5-cos-score | l5-cos-s3-score | l5-5e4-s3-score) A=$LAB/runs/${PART%-score}/final
    wait_for $A/adapter_model.safetensors && score ${PART%-score} $A validation 1-5 ;;
  s2-p256) wait_for $CHAIN/stage-2/final/adapter_model.safetensors || exit 1
    (back() { :; }; chain_stage s2-p256 2 $CHAIN/stage-2/final --supervised_help none --promotion_problems 256)
    score s2-p256 $LAB/runs/s2-p256/final validation 1-2 ;;
  lineage-oorv-score) wait_for $L5/adapter_model.safetensors && score l5-5e4 $L5 out_of_register_validation 4 ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
