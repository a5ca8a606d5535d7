#!/usr/bin/env bash
# GPU batch 42 of issues 17 and 18 (written 2026-11-27, session 36, after batch 41 and before this batch ran).
# Batch 41 (results/grpo/batch-41/README.md; two H200s, its 2-GPU plan): stage 6's identifier part annealed to zero
# beat the constant rate at both paired draws from one first part (s6a): +0.020 and +0.027 at 500 words on
# validation (mean +0.023), +0.060 and +0.093 on OORV; its rule adopted the anneal (sft-stage-6-help-identifiers:
# lr_scheduler_type cosine). Three annealed runs end at 0.927-0.937. Batch 40's idc (idc40) met every goal on
# validation and scored 0.897 at 500 words on test (not shipped: goal 0.90). Batch 41's 4-GPU-only arms, the shorter
# stage 6, did not run; their rule applied only if the anneal was adopted, and it now is.
#   item 2, the chain's minutes: by the recipes of now (results/grpo/chain-minutes.md) the chain trains 55.4 minutes
#           on H200s, ~60.5 on one H100, and the runner's clock adds ~6: ~67 H100-minutes, over the 60.
#           Stage 6 is its longest stage (1,500 + 613 steps, ~21 H100-minutes). s6a-r repeats the first part from
#           l5-5e4 (a third draw of it), saving a checkpoint every 200 steps; at a constant rate the step-1,000
#           checkpoint is what a first part of 1,000 steps ends at if its recipe pins problems: 24000 (its draw of
#           now, 1,500 x 16): the length-grouped sampler's order depends on how many rows there are, not on
#           max_steps, as sft-stage-6-help-identifiers.yaml pins its own. From it, the identifier part as committed
#           now (annealed over 613 steps: c1000-idc, ~4.4 H100-minutes less) and the same in 400 steps, annealed over
#           them (c1000-idc400: ~7.2 less; the recipe's pinned draw keeps its rows the first 6,400 of the 613-step
#           run's). Batch 28 read a step-742 checkpoint of the first part at -0.046 against its 1,500 steps, before
#           the identifier part existed.
#   issue 18, the candidate's out-of-register profile: idc40 on OOR (test) and OORV at stages 1-5 (batch 41 scored
#           stage 6 only): the goal is within 0.03 of in-register at every stage; reported, no rule (4 GPUs only).
#   item 2, the chain as one run, in pieces: issue 17's acceptance is `make curriculum` training runs/stage-1..6 in
#           ~60 H100-minutes, which 30 device minutes a session cannot hold. chain-a is its first piece, `make
#           curriculum UNTIL=stage-2` from nothing (the format start, stage 1's GRPO, stage 2's help and GRPO; ~19
#           minutes on H200s in batch 32), its records and stage 2's float32 adapter brought back to be carried on
#           (setup.sh's chain_piece); stages 1-2's recipes have not changed since batch 32. Its stage 2 is scored on
#           validation at stages 1-2 (reported). The later pieces (stages 3-5, then 6 by the recipe batch 42 leaves)
#           follow in the next sessions, each carrying the one before.
#   4 GPUs only: the third paired draw of the anneal (idk-s2 again from s6a and scored; the rule is decided: reported).
#   Not here: the numeric register weighted in stage 6's first part, rgrpo-w, item 1's i1-rep.
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_42.sh`:
# CARRY l5-5e4-fp32 dcb479f:adapters/batch-38/l5-5e4-fp32
# CARRY idc a286234:adapters/batch-40/idc
# CARRY s6a a286234:adapters/batch-40/s6a
# what they are: batch 38's stage 5 at lr 5e-4 from h4-steps (float32, as trained); batch 40's annealed identifier
# part from s6a (bf16, as it came back); batch 40's stage-6 first part (bf16; idk-s2's start, 4 GPUs only).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB), with room for l5-5e4-fp32 (38 MB) in its call.
# Calls (nvidia-h200-x4 where lent, else nvidia-h200-x2; a multi-GPU lease counts in full whatever its size):
# .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/l5-5e4-fp32: the start_lanes command
# below; .carry/idc (+ .carry/s6a on 4 GPUs) with `WAIT=20 PART=wait bash THIS`; then `WAIT=540 PART=wait bash THIS`
# calls until every part has ended. Paces from batches 40-41 (H200s): stage 6's first part 1,500 steps in ~700 s of
# training (checkpoint 1,000 ~470 s in), the identifier part 613 steps in 460-493 s, a stage-6 score of validation
# and OORV at once ~3 minutes; chain-a ~19 minutes (batch 32). The lanes end ~20-25 minutes after they start (~170 s
# into the lease): ~1,650 s on H200s; on H100s (x1.09) the c1000 lane's last score may not finish.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; c1000-idc and
# c1000-idc400 come back in bf16 (one file each); chain-a as piece-chain-a.tar.gz.part-* (stage 2's adapter in
# float32, 39 MB: three parts), which collect_batch.py puts in adapters/batch-42/chain-a/ for the next piece's
# `# CARRY-TREE` line; s6a-r's checkpoint and final stay there.
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation,
# OOR = out_of_register (its test split):
# PART=s6a-r            sft-stage-6-help-long-texts as committed (1,500 steps) from l5-5e4-fp32, --save_steps 200.
# PART=c1000-idc400     from s6a-r's step-1,000 checkpoint, sft-stage-6-help-identifiers as committed but 400 steps
#                       (annealed over them; back in bf16).
# PART=c1000            s6a-r's step-1,000 checkpoint on validation at stages 5-6 and s6a-r's final adapter at 500
#                       words (the first part's third draw), and from the checkpoint sft-stage-6-help-identifiers as
#                       committed (c1000-idc: 613 steps, annealed; back in bf16).
# PART=X-score          (X c1000-idc or c1000-idc400) X on validation at stages 5-6 and on OORV, at once.
# PART=idc40-oor-score  batch 40's idc (carried) on OOR and on OORV at stages 1-5, at once.
# PART=chain-a          `make curriculum UNTIL=stage-2` from nothing (setup.sh's chain_piece), stage 2 scored on
#                       validation at stages 1-2, its records and adapter back.
# PART=idk-s2           sft-stage-6-help-identifiers at a constant rate (lr_scheduler_type constant_with_warmup, as
#                       before batch 41) from s6a at --seed 2, as batch 41's idk-s2; PART=idk-s2-score: its score.
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py; idc40 is
# batch 40's idc: 0.934 at 500 words on validation, 0.972 at 200 words (batch 41), OORV 0.603):
#   item 2, a shorter stage 6: stage 6's first part (sft-stage-6-help-long-texts) takes max_steps 1000 and problems
#     24000 if c1000-idc scores 0.90 or more at 500 words on validation, no more than 0.02 below idc40 there (paired)
#     and on OORV, and no more than 0.02 below it at 200 words on validation; if c1000-idc400 meets the same, the
#     identifier part also takes max_steps 400. chain_minutes.py's stage-6 row then moves to these runs' records
#     (s6a-r's summary covers 1,500 steps: the first part's minutes are read as its training time to step 1,000
#     from its metrics, said so in the row). Reported either way: the first part's third draw at 500 words (s6a-r's
#     final; batch 40's s6a 0.899, batch 38's 0.904) and its step-1,000 checkpoint at 200 and 500 words.
#   issue 18: idc40's OOR and OORV at stages 1-5 against its test and validation scores (batch 41), reported.
#   item 2, the chain's first piece: no rule; chain-a's stage 2 goes on to the next piece whatever it scores (the
#     chain is run as one, as issue 17 asks), and its time ledger is read with the pieces after it.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first):
#   4 GPUs: "s6a-r c1000-idc400 c1000-idc400-score" "idc40-oor-score c1000 c1000-idc-score" "chain-a"
#           "idk-s2 idk-s2-score"
#           (~21, ~22, ~20 and ~12 minutes: c1000 and c1000-idc400 wait for s6a-r's step-1,000 checkpoint, ~9
#           minutes in; c1000's score of s6a-r's final adapter waits for it, ~13 minutes in)
#   2 GPUs: "s6a-r c1000 c1000-idc-score" "chain-a" (~25 and ~20 minutes; c1000-idc400 waits for the next batch)
#   1 GPU:  "chain-a" (~20 minutes: on an H100 its minutes are H100-minutes as the issue counts them)
# The .gpu/3 call's command (2 GPUs; 4: the four lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && start_lanes scripts/gpu/grpo_sweep_42.sh
#   "s6a-r c1000 c1000-idc-score" "chain-a"; sleep 20; WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_42.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 42 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules (scripts/paired_scores.py against
# results/grpo/batch-40/scores/idc-validation, idc-out_of_register_validation and batch-41/scores/idc40-validation).
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
L5=$LAB/carry/l5-5e4-fp32               # batch 38's stage 5 at lr 5e-4 (float32, as trained)
IDC=$LAB/carry/idc                      # batch 40's annealed identifier part from s6a (bf16)
S6A=$LAB/carry/s6a                      # batch 40's stage-6 first part (bf16)
R=$LAB/runs/s6a-r                       # the first part again, its checkpoints every 200 steps
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_42.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  s6a-r) wait_for $L5/adapter_model.safetensors &&
    NO_BACK=1 help_alone s6a-r sft-stage-6-help-long-texts $L5 14 --max_steps 1500 --save_steps 200 ;;
  c1000) wait_for $R/checkpoint-1000/adapter_model.safetensors || exit 1
    score c1000 $R/checkpoint-1000 validation 5-6 &
    (wait_for $R/final/adapter_model.safetensors && score s6a-r $R/final validation 6) &
    help_alone c1000-idc sft-stage-6-help-identifiers $R/checkpoint-1000 10 --max_steps 613  # help_alone gives 5000
    wait ;;
  c1000-idc400) wait_for $R/checkpoint-1000/adapter_model.safetensors &&
    help_alone c1000-idc400 sft-stage-6-help-identifiers $R/checkpoint-1000 10 --max_steps 400 ;;
  c1000-idc-score | c1000-idc400-score) A=$LAB/runs/${PART%-score}/final
    wait_for $A/adapter_model.safetensors || exit 1
    score ${PART%-score} $A validation 5-6 &
    score ${PART%-score} $A out_of_register_validation 6 &
    wait ;;
  chain-a) chain_piece chain-a stage-2 ;;
  idk-s2) wait_for $S6A/adapter_model.safetensors &&
    NO_BACK=1 help_alone idk-s2 sft-stage-6-help-identifiers $S6A 10 --max_steps 613 --seed 2 \
      --lr_scheduler_type constant_with_warmup ;;
  idk-s2-score) at_once idk-s2 $LAB/runs/idk-s2/final validation out_of_register_validation ;;
  idc40-oor-score) wait_for $IDC/adapter_model.safetensors || exit 1
    score idc40 $IDC out_of_register 1-5 &
    score idc40 $IDC out_of_register_validation 1-5 &
    wait ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
