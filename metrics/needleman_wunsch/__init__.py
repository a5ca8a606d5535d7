"""The Needleman-Wunsch metric folder; project code imports its core as `metrics.needleman_wunsch.nw_alignment`."""
