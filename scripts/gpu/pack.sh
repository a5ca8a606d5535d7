#!/usr/bin/env bash
# Here (no GPU): build the bundles scripts/gpu/setup.sh installs on a lent GPU machine: .gpu/a (the first half of the
# model) and .gpu/b (the wheels and the second half) from ../shared/gpu/pack.sh, and .gpu/c/corpus.tar.xz, the corpus
# `make corpus` built.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
../shared/gpu/pack.sh "$@"
mv .gpu/a/wheels .gpu/b/wheels   # with the working tree, .gpu/a would pass the 64 MiB of one call
corpus=$(.venv/bin/python -c 'from dataset_builders.corpus import load_corpus; print(load_corpus().path)' 2>/dev/null \
  || ls -d .cache/corpus/*/ | head -1)
mkdir -p .gpu/c && tar cJf .gpu/c/corpus.tar.xz -C "$(dirname "$corpus")" "$(basename "$corpus")"
du -sh .gpu/a .gpu/b .gpu/c
