# GPU batch 13 of issue 17 (written 2026-11-23, session 11, before it ran): a first look, with the ~4 device-minutes
# the session had left, at --negative_boost_cap (training.trainer.confident_negatives). The slip probe of batch 12 found
# stage 1's missed problems to be sure slips (right token at median p 0.003) that on-policy samples never correct and
# whose policy-gradient push shrinks with 1 - p. One arm, alone: the shipped stage-1 adapter (batch 8: validation
# 0.951 / 77.0%) + the stage-1 recipe with --negative_boost_cap 10 for 2.3 minutes, then greedy validation (256).
# Compare: batch 12's cont (the same start recipe-wise, + 72 steps without the boost, 3 processes side by side):
# 0.955 / 73.0%. A first look, not a pick: one short arm, no control run in the same conditions.
source scripts/gpu/setup.sh
ready || { echo "set-up incomplete: carry each bundle of scripts/gpu/pack.sh (.gpu/1, .gpu/2, ...) first"; exit 2; }
INIT=$PWD/adapters/shipped STAGE=1 MINUTES=${MINUTES:-2.3} EVAL_STAGES=1 bash scripts/gpu/grpo_arms.sh \
  boost10="--negative_boost_cap 10"
