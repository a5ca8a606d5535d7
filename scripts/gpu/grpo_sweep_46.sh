#!/usr/bin/env bash
# GPU batch 46 of issues 17 and 18 (written 2026-11-28, session 40, after batch 45 and before this batch ran).
# Batch 45 (results/grpo/batch-45/README.md; four H200s): stage 5's help by warmup-stable-decay (597 steps at 5e-4,
# a cosine to 0 over the last 152) met stage 5's goal at all three paired draws (0.952 / 0.933 / 0.951 at 200 words on
# validation against the constant rate's 0.935 / 0.765 / 0.834), held 25-100 words (+0.018 / +0.034 / +0.041), and
# stage 6's first part built as much on it at 500 words (-0.045, +0.040; mean -0.003): adopted, so
# sft-stage-5-help-long-texts decays now. Batch 44's l5-cos trained again read within 0.017 of itself everywhere.
#   item 2, the chain's second piece again (chain-b2): `make curriculum UNTIL=stage-5` from chain-a's piece (batch
#           42: stages 1-2), as batch 43's chain-b ran it, with stage 5's recipe as adopted; each of its stages scored
#           (3 and 4 at their own stage, 5 at 1-5). Its piece comes back (stage 5 in float32) for stage 6's piece.
#           chain-b's stage 5 (the constant rate) scored 0.825 at 200 words and lost 50-100 words (0.911, 0.873).
#   item 2, stage 6 whole from the adopted stage 5 (idw): the identifier part (sft-stage-6-help-identifiers as
#           committed: annealed, 613 steps) from l5-wsd-s6a (batch 45's first part from l5-wsd, back), scored on
#           validation at 1-6 and OORV at 6, against idc40 (batch 40's idc: the same part from s6a, the constant-rate
#           lineage) as sweep 45's rule said.
#   item 2, stage 2's help step-bound (s2-an): stage 2's help (sft-stage-2-help-7m: a cosine 5,000 steps long that
#           its 7-minute clock cuts at ~1,468 steps on an H200, where the rate is still 0.80 of its peak) with its
#           cosine run to its end at those 1,468 steps (--max_steps 1468, the same 32,000 problems, so the same rows in
#           the same order), then stage-2.yaml's GRPO (84 steps at most) from it, from batch 32's chain stage 1. The
#           change that lifted stage 3 by +0.039 in batch 34; batch 36's s2-steps cut the steps to 1,000 as well and
#           read -0.009, which mixed the two. Draw 1 (the seeds of the recipes) is paired with batch 32's chain stage
#           2 (the 7-minute help then GRPO, from the same stage 1); draw 2 (--seed 1 --problem_seed 1 for the help,
#           --seed 1 --data_seed_problems 1 for GRPO) with s2-7m-s1, the committed help at the same seeds.
#   item 2, stage 2's GRPO on repeated words (4 GPUs; a screen at one draw): read on CPU in session 40, chain-a's
#           stage 2 on test (batch-42/cpu-eval, its completions; results/grpo/stage2-after-slip.md): of the 0.035 it
#           loses at 25 words, 0.031 is 17 answers of 256 in which, after the first slip, one text runs ahead (8) or
#           behind (9) of its place to the end of the answer while the other holds. Their first slips write a word
#           twice or one that occurs elsewhere in the texts, or one like it but for its punctuation ("them" twice;
#           "and," for "and"; "is" for "is't"). A phrase planted in 25-word validation pairs costs the same adapter
#           0.163 (0.966 -> 0.803, CPU; results/grpo/repeat-stress/stress25), 35 of its 60 misses of that kind.
#           GRPO on planted repeats taught stage 3 to keep its place (batch 37's
#           rgrpo: +0.179 on the repeat stress test at 50 words). From s2-7m-s1's help (the same adapter),
#           stage-2.yaml's GRPO at draw 2's seeds for all its 84 steps (--promotion_every 1000: no check, so no
#           promotion, stops it) with a phrase repeated in half its problems (--repeated_fraction 0.5; s2-rep-s1),
#           against the same without (s2-84-s1); s2-7m-s1 itself (promotion as committed) is the recipe.
#   item 2, the chain's minutes (~66 H100-minutes against 60; results/grpo/chain-minutes.md): where a help's step spends
#           its time (profile): three helps (stages 3, 5 and 6's identifier part, as committed, 60 steps each from
#           l5-wsd-s6a, any start does for speed) with --profile_steps 41-50 (torch.profiler: seconds a step, the GPU's
#           share of the time in kernels, the costliest operators). A help ran ~6% slower beside another run on its
#           card (batches 28-29), so its steps may wait on the host; this says on what, before anything is changed.
#   Not here: the chain's stage 6 piece (chain-c) waits for chain-b2's stage 5; stage 6 whole from l5-cos is moot
#           (sweep 45's header: warmup-stable-decay replaced the cosine).
#
# Starts, carried. Rebuilt into .carry/ by `.venv/bin/python scripts/gpu/carry_starts.py scripts/gpu/grpo_sweep_46.sh`:
# CARRY-TREE chain 141db99:adapters/batch-42/chain-a
# CARRY l5-wsd-s6a 8df3d45:adapters/batch-45/l5-wsd-s6a
# CARRY chain-stage-1 19bbba0:adapters/batch-32/chain-stage-1
# what they are: chain-a's piece (stages 1-2's records, stage 2's float32 adapter); batch 45's first part from l5-wsd
# (bf16); batch 32's chain stage 1 (bf16; every s2 arm's start).
# Bundles: move results/ AND adapters/shipped/ out of the tree first (mv results /work/results-hidden;
# mv adapters/shipped /work/shipped-hidden; both back before any commit), then `bash scripts/gpu/pack.sh`: .gpu/1 and
# .gpu/2 hold the model, .gpu/3 the wheels and corpus (14 MB), with room for .carry/chain (39 MB) in its call.
# Calls (nvidia-h200-x4 where lent, else nvidia-h200-x2; a multi-GPU lease counts in full whatever its size):
# .gpu/1, .gpu/2 alone, each `source scripts/gpu/setup.sh`; .gpu/3 with .carry/chain: the start_lanes command below;
# .carry/l5-wsd-s6a + .carry/chain-stage-1 with `WAIT=20 PART=wait bash THIS`; then `WAIT=540 PART=wait bash THIS`
# calls until every part has ended (~1,650 s into the lease on H200s, chain-b2 the last), the last sized to end 20-40 s
# before the budget. Check each call's size with
# scripts/gpu/call_size.py (results hidden).
# Paces (H200s): chain-b ~20-22 minutes of training, 1,419 s by the runner's clock, and its score ~2 (batch 43: it ended
# ~1,650 s into the lease); the identifier part 613 steps in 460-568 s, a score of validation at 1-6 with OORV at 6 at
# once ~4 minutes; stage 2's help 1,468 steps in 423 s (batch 32), its GRPO 66-166 s, its score at 1-2 ~1.5 minutes:
# an s2 arm ~13 minutes with model loading and problem building.
# Results come back as results.tar.gz.part-* (setup.sh's results_back), which collect_batch.py joins; chain-b2 as
# piece-chain-b2.tar.gz.part-* (stage 5 in float32 with every step's records), which collect_batch.py puts in
# adapters/batch-46/chain-b2/ for chain-c's `# CARRY-TREE` line. No other adapter comes back (NO_BACK).
#
# Parts (start_lanes gives each lane its GPU). Scores greedy on 256 problems; OORV = out_of_register_validation:
# PART=chain-b2           `make curriculum UNTIL=stage-5` from chain-a's piece (setup.sh's chain_piece), stages 3-4
#                         scored at their own stage, stage 5 at 1-5 on validation; the piece back.
# PART=idw                sft-stage-6-help-identifiers as committed (613 steps, annealed) from l5-wsd-s6a.
# PART=idw-score          idw on validation at stages 1-6 and on OORV at 6, at once.
# PART=s2-an              sft-stage-2-help-7m for 1,468 steps, its cosine to its end (--max_steps 1468, 12-minute
#                         guard), from chain-stage-1; then stage-2.yaml's GRPO from it (--supervised_help none); scored
#                         on validation at stages 1-2. s2-an-s1: the same at draw 2's seeds.
# PART=s2-7m-s1           the committed help (its 7-minute clock), then the same GRPO at draw 2's seeds (s2-an-s1's
#                         pair).
# PART=s2-84-s1           stage-2.yaml's GRPO from s2-7m-s1's help (waits for it) at draw 2's seeds, all 84 steps
#                         (--promotion_every 1000: no check); scored on validation at 1-2 and on the repeat stress
#                         test at 25 words (as drawn and with a phrase repeated, 128 each). s2-rep-s1: the same with
#                         --repeated_fraction 0.5.
# PART=profile            sft-stage-3-help-steps, sft-stage-5-help-long-texts and sft-stage-6-help-identifiers, 60 steps
#                         each on 960 problems from l5-wsd-s6a, profiled at steps 41-50 (results/profile-*/profile.md).
# Rules, written before the run (paired differences on the same 256 problems, scripts/paired_scores.py):
#   item 2, stage 2's help step-bound: stage-2.yaml's help becomes sft-stage-2-help-7m run for 1,468 steps to the end
#   of its cosine (a recipe of its own, sft-stage-2-help-anneal: max_steps 1468, problems 32,000, max_train_minutes 12
#   as a guard) if both hold:
#     (a) at 25 words on validation, over the two paired draws (draw 1: s2-an against
#         batch-32/scores/chain-stage-2-validation; draw 2: s2-an-s1 against s2-7m-s1): mean difference +0.005 or more;
#     (b) each s2-an draw meets stage 2's goal on validation: 0.98 or more at 25 words and 0.99 or more at 10 words.
#     If only draw 1 ran: not adopted on one draw; the next batch runs draw 2. The minutes: the same 1,468 steps on an
#     H200 as the clock's; on an H100 the steps take ~0.6 minutes more than the clock would allow (chain_minutes.py's
#     stage-2 row reads the recipe's run). If adopted, the chain trains its stages 1-2 again (chain-a2) before its
#     stage 6 piece is read as the product.
#   item 2, chain-b2: no rule; its stage 5 goes on to chain-c (stage 6's piece) in the next batch whatever it scores.
#     Reported: each stage against its goal on validation (0.98 / 0.97 / 0.95 / 0.93 at 25 / 50 / 100 / 200 words),
#     against chain-b's stage 5 (paired at 1-5), and each stage's loss on the stages before it (no more than 0.02).
#   item 2, stage 2's GRPO on repeated words, a screen: if s2-rep-s1 scores +0.010 or more over s2-84-s1 at 25 words
#     on validation (paired) and 0.99 or more at 10 words, the next batch runs the pair at draws 1 and 3, where
#     stage-2.yaml's GRPO would take --repeated_fraction 0.5 and its 84 steps (no promotion) on a two-draw rule;
#     otherwise the record says so and stage 2's help stays the lever. Reported: both on the repeat stress test
#     (chain-a's stage 2 there: 0.966 as drawn, 0.803 with a phrase repeated, CPU), s2-84-s1 against s2-7m-s1 (what
#     stopping at promotion costs or saves), and each GRPO's zero-variance fraction.
#   item 2, profile: no rule, a measurement: it says where a help's step goes, and so what could cut the chain's
#     minutes without changing what it trains; a change it suggests gets its own sweep and rule.
#   item 2, idw: no rule (stage 6's recipes are as committed); reported: 500 words on validation and OORV against idc40
#     (batch-40/scores/idc-validation, idc-out_of_register_validation), and stages 1-5 on validation against
#     l5-wsd (batch 45) for the cost of stage 6 to the stages before it.
# Plans (setup.sh's start_lanes; export BACK_RAW=0 first). Two step-bound stage-2 arms share one GPU (LANE_GPUS): a
# step-bound help of this model ran ~6% slower beside another run on its card (batches 28-29), so sharing costs
# minutes, not steps. s2-7m-s1, bound by its 7-minute clock, runs alone: beside another it would train fewer steps than
# its pair's 1,468 and favour the anneal. chain-b2 runs alone too, so that its minutes read as the chain's.
#   4 GPUs: LANE_GPUS="0 1 2 2 3 3 3": "chain-b2" "idw idw-score profile" "s2-an" "s2-an-s1" "s2-7m-s1" "s2-84-s1"
#           "s2-rep-s1" (~25, ~18, ~14, ~14, ~13, ~18 and ~18 minutes; the profile has its GPU alone; s2-84-s1 and
#           s2-rep-s1 wait for s2-7m-s1's help, so its clock runs alone, and then share GPU 3 with its GRPO: three
#           step-bound GRPOs at once, each slower, none with fewer steps)
#   2 GPUs: LANE_GPUS="0 1 1": "chain-b2" "idw idw-score" "s2-an profile" (~25, ~15 and ~18 minutes; draw 1 of stage 2
#           only: not adopted on one draw; the profile may share its GPU with idw-score's last minute)
#   1 GPU:  "chain-b2"
# The .gpu/3 call's command (4 GPUs; 2 GPUs: LANE_GPUS="0 1 1" and the three lanes above):
#   source scripts/gpu/setup.sh; ready && export BACK_RAW=0 && LANE_GPUS="0 1 2 2 3 3 3" start_lanes
#   scripts/gpu/grpo_sweep_46.sh "chain-b2" "idw idw-score profile" "s2-an" "s2-an-s1" "s2-7m-s1" "s2-84-s1"
#   "s2-rep-s1"; sleep 20;
#   WAIT=10 PART=wait bash scripts/gpu/grpo_sweep_46.sh
# After the calls, here: .venv/bin/python scripts/gpu/collect_batch.py 46 /work/.device/N ... (each call's folder,
# oldest first) --note "...", then the paired comparisons of the rules.
source scripts/gpu/setup.sh
sweep_ready  # the carried starts kept, the set-up checked
L5W=$LAB/carry/l5-wsd-s6a               # batch 45's stage-6 first part from l5-wsd (bf16)
S1=$LAB/carry/chain-stage-1             # batch 32's chain stage 1 (bf16)
DRAW2_HELP=(--seed 1 --problem_seed 1)
DRAW2_GRPO=(--seed 1 --data_seed_problems 1)
# stage2_grpo NAME HELP FLAGS...: stage-2.yaml's GRPO from runs/HELP/final (once it exists) into runs/NAME, FLAGS
# over it, scored at stages 1-2 (not brought back)
stage2_grpo() {
  local name=$1 help=$2; shift 2
  wait_for $LAB/runs/$help/final/adapter_model.safetensors || return 1
  (back() { :; }; chain_stage $name 2 $LAB/runs/$help/final --supervised_help none "$@")
  score $name $LAB/runs/$name/final validation 1-2
}
# stage2_arm NAME HELP_FLAGS GRPO_FLAGS: stage 2's help (sft-stage-2-help-7m, its 7-minute clock unless HELP_FLAGS
# say otherwise) from S1 into runs/NAME-help, then stage2_grpo from it (neither adapter back). HELP_FLAGS and
# GRPO_FLAGS: the names of bash arrays.
stage2_arm() {
  local name=$1 help="$2[@]" grpo="$3[@]"
  wait_for $S1/adapter_model.safetensors || return 1
  NO_BACK=1 help_alone $name-help sft-stage-2-help-7m $S1 12 --max_train_minutes 7 "${!help}"
  stage2_grpo $name $name-help "${!grpo}"
}
# repeat_screen NAME FLAGS...: the screen's arms: stage2_grpo from s2-7m-s1's help at draw 2's seeds, FLAGS over it,
# then the repeat stress test at 25 words (setup.sh's stress_score: the 128 pairs of
# results/grpo/repeat-stress/stress25, rebuilt here)
repeat_screen() {
  local name=$1; shift
  stage2_grpo $name s2-7m-s1-help "${DRAW2_GRPO[@]}" "$@" && stress_score $name $LAB/runs/$name/final 25 2
}
ANNEAL=(--max_steps 1468 --max_train_minutes 12)  # the cosine's length at the steps the clock reaches; a guard
ANNEAL_S1=("${ANNEAL[@]}" "${DRAW2_HELP[@]}")
NONE=()
case ${PART:?set PART=NAME or NAME-score, a part named in the header, or bg or wait} in
  bg) start_parts scripts/gpu/grpo_sweep_46.sh ;;  # PARTS="a b ..." [TOGETHER=1] [CUDA_VISIBLE_DEVICES=N]
  wait) wait_parts ;;
  chain-b2) chain_piece chain-b2 stage-5 stage-2 ;;
  idw) wait_for $L5W/adapter_model.safetensors &&
    NO_BACK=1 help_alone idw sft-stage-6-help-identifiers $L5W 13 --max_steps 613 ;;
  idw-score) A=$LAB/runs/idw/final
    wait_for $A/adapter_model.safetensors || exit 1
    score idw $A validation 1-6 &
    score idw $A out_of_register_validation 6 &
    wait ;;
  s2-an) stage2_arm s2-an ANNEAL NONE ;;
  s2-an-s1) stage2_arm s2-an-s1 ANNEAL_S1 DRAW2_GRPO ;;
  s2-7m-s1) stage2_arm s2-7m-s1 DRAW2_HELP DRAW2_GRPO ;;
  s2-84-s1) repeat_screen s2-84-s1 --promotion_every 1000 ;;
  s2-rep-s1) repeat_screen s2-rep-s1 --promotion_every 1000 --repeated_fraction 0.5 ;;
  profile) wait_for $L5W/adapter_model.safetensors || exit 1
    for recipe in sft-stage-3-help-steps sft-stage-5-help-long-texts sft-stage-6-help-identifiers; do
      NO_BACK=1 help_alone profile-${recipe#sft-} $recipe $L5W 5 --max_steps 60 --problems 960 --profile_steps 41-50
    done ;;
esac
[ -z "$BG" ] && results_back  # results.tar.gz.part-* (collect_batch.py joins them)
