#!/usr/bin/env bash
# GPU batch 43 of issues 17 and 18 (written 2026-11-27, session 37, after batch 42 and before this batch ran).
# Batch 42 (results/grpo/batch-42/README.md; four H200s, every part): stage 6's first part cut to 1,000 steps kept
# 500 words on validation (c1000-idc 0.926, -0.008 paired against idc40) and lost out of register (OORV 0.532,
# -0.071): not adopted. The anneal's third paired draw tied (seed 2: -0.000; three draws +0.016 on average). idc40's
# out-of-register gap opens at 50 words and grows with each length: test - OOR 0.001 / 0.010 / 0.028 / 0.046 /
# 0.119 / 0.298; half (OORV) to two thirds (OOR) of its out-of-register first slips from 100 words on fall on an
# identifier or the word after one, and the longer the identifier the likelier (slip-hazard-idc40-stages-3-6.md).
# chain-a, `make curriculum UNTIL=stage-2` from nothing, trained stages 1-2 in 15.4 minutes by the runner's clock
# (stage 1's GRPO 0.30 -> 0.99 on its checks in 180 steps, promoted); its stage 2 scored 0.968 at 25 words on 256
# validation problems (0.965 on test, on CPU).
#   item 2, the chain as one run, in pieces: chain-b, the second piece, `make curriculum UNTIL=stage-5` from chain-a's
#           piece (carried whole: every step's records and stage 2's float32 adapter): stages 3-5 by their helps (no
#           GRPO steps: max_steps 0), stage 5 scored on validation at stages 1-5, the piece packed for chain-c (stage 6
#           and the eval) in the session after. ~20 minutes on H200s (batch 33's stages 3-5 by the runner's clock:
#           22.2 beside three lanes). No rule: it goes on whatever it scores, as a chain run as one would.
#   issue 18, long identifiers in the annealed identifier part: batch 31 (idf-long, +0.038 out of register at 500
#           words) and batch 32 (s6-long, +0.029; -0.027 at 200 words on validation) read them before the anneal and
#           on OOR's test side. idc-long is the identifier part as committed now (annealed, 613 steps) from s6a with
#           --long_identifier_share 0.5 (half the synthetic identifiers 3-4 components), at the sampler's seeds 0, 1
#           and 2: each pairs with an annealed run from s6a at that seed (idc40 = batch 40's idc, batch 41's idc-s1
#           and idc-s2). Its minutes guard is 13 (the recipe's 10 is an H200's ~8 alone; four lanes slowed batch 42's
#           613 steps to 568 s, and long identifiers lengthen the rows): the 613 steps, and the cosine's length, stay.
#   issue 18, where the gap opens in the lineage (4 GPUs only): h4-steps (the chain's stage 4, batch 34) on OORV at
#           stages 3-4 and l5-5e4 (its stage 5, batch 38) on OORV at stages 4-5, beside their validation scores.
#   item 2, stage 2's promotion check (4 GPUs only): chain-a's stage 2 was promoted at its first check (0.993 on 64
#           validation problems, 512-575) and scored 0.968 at 25 words on 256 (0-255), under the goal of 0.98; from
#           those 256 answers a 64-problem mean has a standard deviation of 0.016, and an adapter at 0.968 passes a
#           check at 0.98 one time in four (batch-42/promotion-check-noise-stage-2.md). s2-p256: stage-2.yaml's
#           GRPO from chain-a's stage 2 (no help: it had it), its 84 steps, with 256-problem checks
#           (--promotion_problems 256, problems 512-767): whether GRPO at 25 words lifts a stage under its goal
#           once the check cannot pass by chance (batch 32's chain ran all 84 steps at 0.968-0.970 on 64-problem
#           checks).
#   Not here: a stage-5 help with identifiers (it needs stage 6 after it to be read: ~28 minutes, over a lane);
#           item 1's stage-1 draws; the numeric register weighted in stage 6's first part.
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_43.sh`:
# CARRY-TREE chain 141db99:adapters/batch-42/chain-a
# CARRY s6a a286234:adapters/batch-40/s6a
# CARRY h4-steps c7e47e8:adapters/batch-34/h4-steps
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# what they are: chain-a's piece (stages 1-2's records, stage 2's float32 adapter); batch 40's stage-6 first part
# (bf16; every idc-long's start); batch 34's stage 4 and batch 38's stage 5 (4 GPUs only).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB), with room for .carry/chain (39 MB) in its call.
# Calls (nvidia-h200-x4 where lent, else nvidia-h200-x2; a multi-GPU lease counts in full whatever its size):
# .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/chain: the start_lanes command below;
# .carry/s6a (+ .carry/h4-steps on 4 GPUs) with `WAIT=20 PART=wait bash THIS`; on 4 GPUs .carry/l5-5e4-fp32 with
# `WAIT=20 PART=wait bash THIS`; then `WAIT=540 PART=wait bash THIS` calls until every part has ended, the last sized
# to end 20-40 s before the budget. Paces (H200s): the identifier part 613 steps in 460-568 s (longer rows here), a
# score of validation at stages 5-6 with OORV at once ~3 minutes, chain-b ~20-22 minutes and its score of stages 1-5
# ~2. The lanes start ~170 s into the lease; chain-b's ends ~1,650 s in on H200s (on H100s, x1.09: near the budget).
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; idc-long (seed
# 0) comes back in bf16 (one file); chain-b as piece-chain-b.tar.gz.part-* (stage 5's adapter in float32, 39 MB:
# three parts), which collect_batch.py puts in adapters/batch-43/chain-b/ for chain-c's `# CARRY-TREE` line.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation:
# PART=chain-b            `make curriculum UNTIL=stage-5` from chain-a's piece (setup.sh's chain_piece: stage 5
#                         scored on validation at stages 1-5, the piece back).
# PART=idc-long           sft-stage-6-help-identifiers as committed (annealed, 613 steps) from s6a with
#                         --long_identifier_share 0.5 (back in bf16); idc-long-s1, idc-long-s2: the same at --seed 1, 2
#                         (not back).
# PART=X-score            (X idc-long, idc-long-s1, idc-long-s2) X on validation at stages 5-6 and on OORV at 6,
#                         at once.
# PART=s2-p256           stage-2.yaml's GRPO (84 steps at most) from chain-a's stage 2 with --supervised_help none
#                         --promotion_problems 256, scored on validation at stages 1-2 (the adapter not back).
# PART=lineage-oorv-score h4-steps on OORV and validation at stages 3-4, l5-5e4 on OORV at stages 4-5, at once.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   issue 18, long identifiers: sft-stage-6-help-identifiers takes long_identifier_share: 0.5 if, over the seeds that
#     ran (each idc-long-sN against the annealed run from s6a at its seed: batch-40/scores/idc-*, batch-41/scores/
#     idc-s1-*, idc-s2-*), the mean OORV difference is +0.03 or more with idc-long ahead at more draws than behind,
#     the mean difference at 500 words on validation is -0.01 or more, and at 200 words on validation (each draw
#     paired against idc40, batch-41/scores/idc40-validation: the only 200-word score of the annealed part) -0.01 or
#     more on average. If adopted, the recipe's comment says so and chain-c's stage 6 runs it.
#   item 2, chain-b: no rule; its stage 5 goes on to chain-c whatever it scores, its ledger read with the pieces.
#   issue 18, the lineage's OORV: reported.
#   item 2, s2-p256: stage-2.yaml takes promotion_problems: 256 if s2-p256 scores 0.98 or more at 25 words on
#     validation (problems 0-255, apart from its checks) and keeps 10 words at 0.99 or more; otherwise GRPO at 25
#     words does not lift this stage by itself, and the record says so (stage 2's help is then the lever).
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   4 GPUs: "chain-b" "idc-long idc-long-score lineage-oorv-score" "idc-long-s1 idc-long-s1-score s2-p256"
#           "idc-long-s2 idc-long-s2-score"
#           (~24, ~16, ~18 and ~13 minutes)
#   2 GPUs: "chain-b" "idc-long idc-long-score idc-long-s1 idc-long-s1-score" (~24 and ~26 minutes: two draws)
#   1 GPU:  "chain-b"
# The .gpu/3 call's command (2 GPUs; 4: the four lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_43.sh
#   "chain-b" "idc-long idc-long-score idc-long-s1 idc-long-s1-score"; sleep 20; WAIT=10 PART=wait bash
#   scripts/gpu/grpo_sweep_43.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 43 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
S6A=$LAB/carry/s6a                      # batch 40's stage-6 first part (bf16)
H4=$LAB/carry/h4-steps                  # batch 34's stage 4 (the chain's)
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
# long_identifiers NAME FLAGS...: the identifier part as committed from s6a with half its identifiers long
long_identifiers() {
  local name=$1; shift
  wait_for $S6A/adapter_model.safetensors &&
    help_alone $name sft-stage-6-help-identifiers $S6A 13 --max_steps 613 --long_identifier_share 0.5 "$@"
}
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_43.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  chain-b) chain_piece chain-b stage-5 stage-2 ;;
  idc-long) long_identifiers idc-long ;;
  idc-long-s1) NO_BACK=1 long_identifiers idc-long-s1 --seed 1 ;;
  idc-long-s2) NO_BACK=1 long_identifiers idc-long-s2 --seed 2 ;;
  idc-long-score | idc-long-s1-score | idc-long-s2-score) A=$LAB/runs/${PART%-score}/final
    wait_for $A/adapter_model.safetensors || exit 1
    score ${PART%-score} $A validation 5-6 &
    score ${PART%-score} $A out_of_register_validation 6 &
    wait ;;
  s2-p256) wait_for $CHAIN/stage-2/final/adapter_model.safetensors || exit 1
    (back() { :; }; chain_stage s2-p256 2 $CHAIN/stage-2/final --supervised_help none --promotion_problems 256)
    score s2-p256 $LAB/runs/s2-p256/final validation 1-2 ;;
  lineage-oorv-score) wait_for $H4/adapter_model.safetensors || exit 1
    score h4-steps $H4 out_of_register_validation 3-4 &
    score h4-steps $H4 validation 3-4 &
    (wait_for $L5/adapter_model.safetensors && score l5-5e4 $L5 out_of_register_validation 4-5) &
    wait ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
