"""A plain textbook Needleman-Wunsch DP, written independently of the code under test."""


def reference_score(a, b, match=1, mismatch=-1, gap=-1):
    """Optimal global alignment score with linear gaps, from the full (n+1) x (m+1) matrix."""
    h = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        h[i][0] = i * gap
    for j in range(1, len(b) + 1):
        h[0][j] = j * gap
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            pair = match if a[i - 1] == b[j - 1] else mismatch
            h[i][j] = max(h[i - 1][j - 1] + pair, h[i - 1][j] + gap, h[i][j - 1] + gap)
    return h[len(a)][len(b)]
