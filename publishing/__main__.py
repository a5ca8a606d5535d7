"""``python -m publishing COMMAND``: publish the project's artifacts to the Hub (or, with ``HUB=local``, a local git
hub).

Commands: ``datasets`` (curriculum + arithmetic dataset repos), ``metric`` (the NW metric as a Space, where
``evaluate.load("owner/needleman_wunsch")`` looks), ``model --run runs/<run>`` or ``model --stage N`` (the run
``runs/stage-N``): a stage run's final adapter on branch ``stage-N`` of the model repo; ``main`` follows the latest
stage; with neither, where no ``runs/stage-N/final`` exists, the adapter shipped with the project,
``adapters/shipped/``, on the branch of its stage), ``space`` (the demo Space: its card links
the adapter repo, base model and curriculum; its variables point the app at them), ``base-model`` (a local base
model, e.g. the tiny test model) and ``all``.

Every command first writes the exact folder it uploads under ``--staging`` (dist/publish/), then publishes it.
``HUB=hf`` (default) pushes to huggingface.co as ``HUB_USER`` with ``HF_TOKEN`` (or a saved ``hf auth login``);
``HUB=local`` commits the same files into git repos under ``HUB_DIR`` (dist/hub/), which
``python -m publishing.olah_server`` serves over the Hub API.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from pathlib import Path

from base_models.models import EMBEDDED_MODEL, EMBEDDED_MODEL_HUB_ID
from dataset_builders.cli_flags import underscore_flags
from dataset_builders.fetch import FetchError
from model_cards.eval_results import EvalResultsError
from model_cards.shipped_adapter import (
    SHIPPED_ADAPTER_PATH,
    ShippedAdapter,
    is_shipped_folder,
    load_shipped,
    shipped_default,
    trained_stages,
)
from publishing.dataset_folders.__main__ import add_dataset_arguments, dataset_command, write_dataset_folders
from publishing.dataset_folders.folders import ARITHMETIC_FOLDER, CURRICULUM_FOLDER
from publishing.destination import MODES, Destination, destination
from publishing.hub import HubError, Published
from publishing.model_folders import (
    StageRun,
    base_model_folder,
    base_model_id,
    model_repo_name,
    shipped_checkpoint_folder,
    stage_checkpoint_folder,
)
from publishing.repo_ids import checked_repo_id
from publishing.space_folder import link_card, space_sdk, stage_space_folder
from publishing.staging import StagingArea

METRIC_FOLDER = Path("metrics/needleman_wunsch")
SPACE_FOLDER = Path("spaces/interleave_demo")
ADAPTERS_VARIABLE = "INTERLEAVE_DEMO_ADAPTERS"  # the Space variables the demo reads (spaces/interleave_demo/app.py)
BASE_MODEL_VARIABLE = "INTERLEAVE_DEMO_BASE_MODEL"
STAGE_BRANCH = re.compile(r"^stage-(\d+)$")


def report(kind: str, published: Published) -> None:
    print(
        f"published {kind} {published.repo_id}@{published.branch}: {published.commit[:12]}  {published.url}", flush=True
    )


def publish_datasets(dest: Destination, args: argparse.Namespace) -> list[Published]:
    repos = {
        CURRICULUM_FOLDER: dest.repo_id(args.curriculum_repo),
        ARITHMETIC_FOLDER: dest.repo_id(args.arithmetic_repo),
    }
    command = dataset_command("python -m publishing datasets", args)
    folders = write_dataset_folders(StagingArea(args.staging).fresh_folder("datasets"), args, repos, command)
    out = []
    for name, folder in folders.items():
        out.append(dest.hub.publish_folder(folder, repos[name], "dataset", message=f"Publish {name}: {command}"))
        report("dataset", out[-1])
    return out


def publish_space_folder(
    dest: Destination,
    args: argparse.Namespace,
    folder: Path,
    repo: str,
    kind: str,
    models: tuple[str, ...] = (),
    datasets: tuple[str, ...] = (),
) -> Published:
    """Stage ``folder`` (plus its vendor.txt files), add ``models``/``datasets`` to its card, publish it as a Space."""
    repo_id = dest.repo_id(repo)
    staged = stage_space_folder(folder, StagingArea(args.staging).fresh_folder("spaces", repo_id.split("/")[-1]))
    if models or datasets:
        link_card(staged, models, datasets)
    published = dest.hub.publish_folder(
        staged, repo_id, "space", message=f"Publish {folder}", space_sdk=space_sdk(staged)
    )
    report(kind, published)
    return published


def publish_demo_space(dest: Destination, args: argparse.Namespace, adapter_repo: str, base_model: str) -> Published:
    """The demo Space: its card links the base model, the adapter repo and the curriculum, and its variables tell
    the app which base model to load and where the stage adapters are."""
    published = publish_space_folder(
        dest,
        args,
        args.space_folder,
        args.space_repo,
        "space",
        models=(base_model, adapter_repo),
        datasets=(dest.repo_id(args.curriculum_repo),),
    )
    variables = {BASE_MODEL_VARIABLE: base_model, ADAPTERS_VARIABLE: adapter_repo}
    dest.hub.set_space_variables(published.repo_id, variables)
    print(f"Space variables of {published.repo_id}: {', '.join(f'{k}={v}' for k, v in variables.items())}", flush=True)
    if not any(STAGE_BRANCH.match(b) for b in dest.hub.branches(adapter_repo, "model")):
        print(
            f"note: {adapter_repo} has no stage-N branch yet; the Space offers the base model until "
            f"`make publish-model STAGE=N` publishes one (it looks again on each page load)",
            flush=True,
        )
    return published


def publish_model(dest: Destination, args: argparse.Namespace, run: StageRun | ShippedAdapter) -> tuple[str, str]:
    """Publish a stage run's final adapter, or the shipped adapter, to branch stage-N; returns the model repo id and
    the base model's Hub id."""
    shipped = isinstance(run, ShippedAdapter)
    if shipped and args.eval_file:
        raise HubError(f"the shipped adapter carries its own scores ({run.folder}/results/eval.json): drop --eval_file")
    summary = run.summary() if shipped else run.summary
    stage = run.stage
    repo_id = dest.repo_id(args.repo or model_repo_name(summary))
    base_model = checked_repo_id(
        (args.base_model or run.base_model) if shipped else base_model_id(summary, args.base_model)
    )
    branch = f"stage-{stage}"
    staged = StagingArea(args.staging).fresh_folder("models", f"{repo_id.split('/')[-1]}@{branch}")
    repos = {
        "repo_id": repo_id,
        "base_model": base_model,
        "datasets_repo": dest.repo_id(args.curriculum_repo),
        "arithmetic_repo": dest.repo_id(args.arithmetic_repo),
        "metric_repo": dest.repo_id(args.metric_repo),
        "license": args.license,
    }
    if shipped:
        folder = shipped_checkpoint_folder(run, staged, **repos)
        message = f"Stage {stage}: {run.describe()}"
    else:
        folder = stage_checkpoint_folder(run, staged, eval_file=args.eval_file, eval_root=args.eval_root, **repos)
        message = f"Stage {stage} final adapter ({run.adapter})"
    report("model", dest.hub.publish_folder(folder, repo_id, "model", branch=branch, message=message))
    stages = [int(m.group(1)) for b in dest.hub.branches(repo_id, "model") if (m := STAGE_BRANCH.match(b))]
    if stage >= max(stages, default=stage):
        report(
            "model",
            dest.hub.publish_folder(
                folder, repo_id, "model", branch="main", message=f"main = stage {stage} (the latest stage)"
            ),
        )
    else:
        print(f"main stays at stage {max(stages)} (the latest stage published)", flush=True)
    return repo_id, base_model


def model_to_publish(args: argparse.Namespace) -> StageRun | ShippedAdapter:
    """RUN (a run folder, or a shipped adapter folder), else STAGE, else the shipped adapter where no stage has a
    final adapter in the runs folder."""
    if args.run is not None:
        return load_shipped(args.run) if is_shipped_folder(args.run) else StageRun.at(args.run, args.results_dir)
    if args.stage is not None:
        return StageRun.find(args.stage, args.runs_dir, args.results_dir)
    stages = trained_stages(args.runs_dir)
    if stages:
        raise HubError(
            f"which adapter? {args.runs_dir}/ holds the final adapter of stage {', '.join(map(str, stages))}: give "
            f"STAGE=N or RUN=runs/<run> (the adapter shipped with the project is published by default only where "
            f"no runs/stage-N/final exists; RUN={SHIPPED_ADAPTER_PATH} publishes it anyway)"
        )
    shipped = shipped_default(args.runs_dir)
    if shipped is None:
        raise HubError(
            f"nothing to publish: no RUN or STAGE given, no stage's final adapter in {args.runs_dir}/, and no "
            f"shipped adapter at {SHIPPED_ADAPTER_PATH}/; train a stage first (make train-stage N=1)"
        )
    print(f"no RUN or STAGE given and no stage's final adapter in {args.runs_dir}/: publishing {shipped.describe()}")
    return shipped


def publish_base_model(dest: Destination, args: argparse.Namespace) -> Published:
    repo_id = dest.repo_id(args.repo or Path(args.model).name)
    staged = StagingArea(args.staging).fresh_folder("models", repo_id.split("/")[-1])
    folder = base_model_folder(args.model, staged, repo_id, args.license)
    published = dest.hub.publish_folder(folder, repo_id, "model", message=f"Publish base model {args.model}")
    report("base model", published)
    return published


def run_command(args: argparse.Namespace) -> None:
    if args.command in ("space", "all") and not args.space_folder.is_dir():  # before anything is published
        raise HubError(f"no Space folder {args.space_folder} (--space_folder)")
    dest = destination(args.hub, args.user, args.hub_dir, args.private)
    if args.command in ("datasets", "all"):
        publish_datasets(dest, args)
    if args.command in ("metric", "all"):
        script = args.metric_repo.split("/")[-1]
        if not (args.metric_folder / f"{script}.py").is_file():
            raise HubError(
                f"evaluate.load('OWNER/{script}') runs {script}.py of the Space, which "
                f"{args.metric_folder} does not have: name the metric repo after its script"
            )
        publish_space_folder(dest, args, args.metric_folder, args.metric_repo, "metric")
    if args.command == "model":
        publish_model(dest, args, model_to_publish(args))
    model_repo = None  # (repo id, base model id) of the stages `all` publishes
    if args.command == "all":
        stages = trained_stages(args.runs_dir)
        print(f"stages with a final adapter in {args.runs_dir}/: {stages or 'none'}", flush=True)
        for stage in stages:
            model_repo = publish_model(dest, args, StageRun.find(stage, args.runs_dir, args.results_dir))
        if not stages and (shipped := shipped_default(args.runs_dir)) is not None:
            print(f"publishing {shipped.describe()} instead", flush=True)
            model_repo = publish_model(dest, args, shipped)
    if args.command in ("space", "all"):
        embedded = {"model": EMBEDDED_MODEL}  # what `make publish-model` publishes for the default MODEL
        adapter_repo, base_model = model_repo or (model_repo_name(embedded), base_model_id(embedded))
        publish_demo_space(
            dest, args, dest.repo_id(args.adapter_repo or adapter_repo), checked_repo_id(args.base_model or base_model)
        )
    if args.command == "base-model":
        publish_base_model(dest, args)


def _common_options() -> argparse.ArgumentParser:
    """Options every command takes (after the command name, so ``make publish-X PUBLISH_ARGS=...`` can pass them)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--hub", choices=MODES, help="hf: push to the Hub (default, or $HUB); local: git repos in HUB_DIR"
    )
    common.add_argument("--user", help="namespace of the repos (default $HUB_USER; 'local' for HUB=local)")
    common.add_argument("--hub_dir", type=Path, help="the local hub's folder (default $HUB_DIR or dist/hub)")
    common.add_argument(
        "--staging", type=Path, default=Path("dist/publish"), help="where the folders to upload are written"
    )
    common.add_argument("--private", action="store_true", help="create new Hub repos as private")
    common.add_argument("--curriculum_repo", default=CURRICULUM_FOLDER, help="dataset repo name of the curriculum")
    common.add_argument("--arithmetic_repo", default=ARITHMETIC_FOLDER, help="dataset repo name of the arithmetic set")
    common.add_argument(
        "--metric_repo", default=METRIC_FOLDER.name, help="Space repo name of the metric (= its script name)"
    )
    common.add_argument("--quiet", action="store_true")
    return common


def _model_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--runs_dir", type=Path, default=Path("runs"), help="where training left runs/stage-N/final")
    cmd.add_argument(
        "--results_dir",
        type=Path,
        default=None,
        help="a folder holding <run>/summary.json and plots (default: the run's own results/ folder)",
    )
    cmd.add_argument("--eval_root", type=Path, default=Path("runs/eval"), help="searched for the run's eval.json")
    cmd.add_argument("--repo", help="model repo name (default interleave-grpo-<base model name>)")
    cmd.add_argument("--base_model", help="Hub id of the base model (default: from the run's summary)")
    cmd.add_argument("--license", help="license of the adapter (default: the base model's, else apache-2.0)")


def _space_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--space_folder", type=Path, default=SPACE_FOLDER)
    cmd.add_argument("--space_repo", default="interleave-demo", help="Space repo name")
    cmd.add_argument(
        "--adapter_repo",
        help="the model repo whose stage-N branches the Space offers (default: the one "
        f"`all` publishes, else {model_repo_name({'model': EMBEDDED_MODEL})})",
    )


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="python -m publishing", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = [_common_options()]

    datasets = commands.add_parser("datasets", parents=common, help="the curriculum and arithmetic datasets")
    add_dataset_arguments(datasets)
    metric = commands.add_parser("metric", parents=common, help="the Needleman-Wunsch metric (a Space)")
    metric.add_argument("--metric_folder", type=Path, default=METRIC_FOLDER)
    model = commands.add_parser(
        "model",
        parents=common,
        help="a stage run's final adapter, or the shipped adapter when no runs/stage-N/final exists (branch stage-N; "
        "main = latest)",
    )
    which = model.add_mutually_exclusive_group()
    which.add_argument(
        "--run",
        type=Path,
        help="a run folder, e.g. runs/stage-3 (its final/ and results/summary.json), or the shipped adapter's folder "
        f"{SHIPPED_ADAPTER_PATH}",
    )
    which.add_argument("--stage", type=int, choices=range(1, 7), metavar="N", help="the run runs/stage-N (--runs-dir)")
    _model_options(model)
    model.add_argument(
        "--eval_file", type=Path, help="the eval.json to put on the card (default: found in --eval_root)"
    )
    space = commands.add_parser("space", parents=common, help="the demo Space")
    _space_options(space)
    space.add_argument(
        "--base_model", help=f"Hub id of the base model the Space loads (default {EMBEDDED_MODEL_HUB_ID})"
    )
    every = commands.add_parser("all", parents=common, help="datasets, metric, every trained stage, the Space")
    add_dataset_arguments(every)
    _model_options(every)
    _space_options(every)
    every.set_defaults(eval_file=None, metric_folder=METRIC_FOLDER)
    base = commands.add_parser(
        "base-model", parents=common, help="a local base model (base_models.models name or folder)"
    )
    base.add_argument("--model", required=True, help="smollm2-135m-instruct, tiny-random-llama or a model folder")
    base.add_argument("--repo", help="model repo name (default: the model's name)")
    base.add_argument("--license")
    return main


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(underscore_flags(argv))
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        run_command(args)
    except (HubError, ValueError, FetchError, EvalResultsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
