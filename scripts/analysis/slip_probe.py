"""Where a stage-1 adapter's slips come from: for each validation problem its greedy answer misses, do samples at
temperature 1 (what GRPO learns from) find the right answer, and how likely is the right token where greedy slips?

    python scripts/analysis/slip_probe.py ADAPTER --n 64 --k 8 --out results/grpo/slip-probe/NAME.json

Per missed problem: exact samples out of k (a group GRPO can learn from has some), and at the first token where the
greedy answer's text, tokenized as the reference is, leaves the reference, the model's probability of the reference
token and of the token greedy wrote there, given the reference up to that point.
CPU is enough (a 135M model, tens of problems); a GPU is used when there is one.

    python scripts/analysis/slip_probe.py OTHER_ADAPTER --at results/grpo/slip-probe/NAME.json --out OTHER.json

scores another adapter at the same places: for each missed problem of NAME.json, whether OTHER's greedy answer is
exact, and OTHER's probabilities of the reference token and of NAME's greedy token there (given the reference up to
that point): are the sure slips one run's, or every run's?
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from base_models.models import load_model  # noqa: E402
from dataset_builders import tasks  # noqa: E402
from dataset_builders.prompts import end_token_ids  # noqa: E402
from scripts.analysis.group_samples import prompt_tensor, sample_group  # noqa: E402
from scripts.first_slip_words import first_difference  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("adapter")
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--task", default="stage-1")
    parser.add_argument("--split", default="validation")
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--out", required=True)
    parser.add_argument("--device", default=None, help="default: cuda if there is one, else cpu")
    parser.add_argument("--at", default=None, help="an earlier probe's JSON: score this adapter at its slips")
    args = parser.parse_args()
    torch.manual_seed(0)
    from peft import PeftModel

    base, tokenizer = load_model(args.model, dtype="float32", device=args.device)
    model = PeftModel.from_pretrained(base, args.adapter).eval()
    ends = end_token_ids(model, tokenizer)
    task = tasks.get(args.task)
    budget = task.completion_budget(tokenizer)
    if args.at:
        return probe_at(model, tokenizer, ends, task, budget, args)
    records = []
    for index, row in enumerate(task.problems(args.split, args.n)):
        prompt = prompt_tensor(model, tokenizer, row)
        reference = task.reference(row)
        want = tokenizer(reference, add_special_tokens=False)["input_ids"]
        text = greedy_text(model, tokenizer, ends, prompt, budget)
        # compare in one tokenization: a word the model spelled in other tokens than the reference's is no slip
        greedy = tokenizer(text, add_special_tokens=False)["input_ids"]
        if text.split() == reference.split():
            records.append({"exact": True})
            continue
        texts = sample_group(model, tokenizer, ends, prompt, args.k, budget)
        exact_samples = sum(t.split() == reference.split() for t in texts)
        slip = first_difference(greedy, want)
        probs, right = at_slip(model, prompt, want, slip, ends)
        chosen = greedy[slip] if slip < len(greedy) else ends[0]
        records.append(
            {
                "exact": False,
                "index": index,
                "exact_samples": exact_samples,
                "k": args.k,
                "slip_token": slip,
                "slip_fraction": round(slip / max(len(want), 1), 3),
                "p_reference_token": round(probs[right].item(), 4),
                "p_greedy_token": round(probs[chosen].item(), 4),
                "reference_token": tokenizer.decode([right]),
                "greedy_token": tokenizer.decode([chosen]),
                "greedy_token_id": chosen,
                "reference": reference,
                "greedy": text,
            }
        )
        print(
            f"miss {len(records)}: {exact_samples}/{args.k} samples exact; p(ref) {probs[right]:.3f} "
            f"p(greedy) {probs[chosen]:.3f} at token {slip}",
            flush=True,
        )
    missed = [r for r in records if not r["exact"]]
    summary = {
        "adapter": args.adapter,
        "task": args.task,
        "split": args.split,
        "n": len(records),
        "k": args.k,
        "greedy_exact": sum(r["exact"] for r in records) / len(records),
        "missed": len(missed),
        "missed_with_an_exact_sample": sum(r["exact_samples"] > 0 for r in missed),
        "mean_exact_samples_when_missed": statistics.mean(r["exact_samples"] for r in missed) if missed else None,
        "median_p_reference_token_at_slip": statistics.median(r["p_reference_token"] for r in missed)
        if missed
        else None,
        "median_p_greedy_token_at_slip": statistics.median(r["p_greedy_token"] for r in missed) if missed else None,
        "missed_problems": missed,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "missed_problems"}, indent=1))


def greedy_text(model, tokenizer, ends, prompt, budget) -> str:
    """The adapter's greedy answer to one chat prompt (token ids, batch of 1), as text."""
    with torch.no_grad():
        out = model.generate(
            prompt, max_new_tokens=budget, do_sample=False, eos_token_id=ends, pad_token_id=tokenizer.pad_token_id
        )[0, prompt.shape[1] :].tolist()
    return tokenizer.decode([t for t in out if t not in ends], skip_special_tokens=True).strip()


def at_slip(model, prompt, want, slip, ends) -> tuple[torch.Tensor, int]:
    """(the model's distribution over the token after ``prompt`` + the reference's first ``slip`` tokens ``want``,
    the reference's token there: its end token past the last)."""
    forced = torch.cat([prompt, torch.tensor([want[:slip]], dtype=torch.long, device=model.device)], dim=1)
    with torch.no_grad():
        probs = model(forced).logits[0, -1].float().softmax(-1)
    return probs, want[slip] if slip < len(want) else ends[0]


def probe_at(model, tokenizer, ends, task, budget, args) -> None:
    """``--at``: this adapter at the slips an earlier probe found (problems matched by their reference)."""
    earlier = json.loads(Path(args.at).read_text())
    rows = {task.reference(row): row for row in task.problems(earlier["split"], earlier["n"])}
    records = []
    for miss in earlier["missed_problems"]:
        row = rows[miss["reference"]]
        prompt = prompt_tensor(model, tokenizer, row)
        want = tokenizer(miss["reference"], add_special_tokens=False)["input_ids"]
        probs, right = at_slip(model, prompt, want, miss["slip_token"], ends)
        # the token id (older files have its text only: tokenized again, a lone token gives its id back)
        theirs = [miss["greedy_token_id"]] if "greedy_token_id" in miss else None
        theirs = theirs or tokenizer(miss["greedy_token"], add_special_tokens=False)["input_ids"][:1] or [ends[0]]
        text = greedy_text(model, tokenizer, ends, prompt, budget)
        records.append(
            {
                "reference": miss["reference"],
                "exact": text.split() == miss["reference"].split(),
                "p_reference_token": round(probs[right].item(), 4),
                "p_their_greedy_token": round(probs[theirs[0]].item(), 4),
                "their_p_reference_token": miss["p_reference_token"],
            }
        )
        print(
            f"{len(records)}: exact {records[-1]['exact']}; p(ref) {probs[right]:.3f} (theirs "
            f"{miss['p_reference_token']:.3f}), p(their token) {probs[theirs[0]]:.3f}",
            flush=True,
        )
    summary = {
        "adapter": args.adapter,
        "at": args.at,
        "problems": len(records),
        "exact_here": sum(r["exact"] for r in records),
        "median_p_reference_token": statistics.median(r["p_reference_token"] for r in records),
        "median_p_their_greedy_token": statistics.median(r["p_their_greedy_token"] for r in records),
        "places": records,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "places"}, indent=1))


if __name__ == "__main__":
    main()
