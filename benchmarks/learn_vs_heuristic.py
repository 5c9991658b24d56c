"""The learning recipe: a policy that beats HeuristicBot heads-up, trained from a seed (docs/learning.md).

    python benchmarks/learn_vs_heuristic.py --seed 0 --out runs/seed0     # the recipe: 120 generations
    python benchmarks/learn_vs_heuristic.py --seed 0 --generations 2000 --cpu-budget 5400 --out runs/long

Trains :class:`unoengine.envs.learn.policy.ResidualPolicy` by evolution strategies
(unoengine.envs.learn.es) against the heuristic's compiled twin in the compiled batch engine
(classic-108, two players, out-of-turn windows on, one round a game). Every ``--eval-every``
generations the current policy plays ``--curve-deals`` held-out deals in both seats (compiled), and
a line goes to ``curve.csv`` (generation, CPU seconds, win rate, and its 95% interval from the
spread of the per-deal scores, tools/simulate.py ``duplicate_interval``); at the end the
curve is drawn (``curve.png``, ``curve.svg``), the weights saved (``policy.npz``), and the policy
plays ``--final-deals`` more held-out deals twice each, seats swapped, as a bot of the *reference*
engine against ``HeuristicBot`` (unoengine.tools.simulate.tournament), with the Wilson interval of
its games and the duplicate interval of its per-deal scores. ``--final-deals 0`` skips that.

CPU time is the process's (``time.process_time``); numpy's BLAS is kept to one thread.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: threaded BLAS only burns CPU time on these small products

import argparse  # noqa: E402
import csv  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from unoengine.envs.learn.bot import ResidualPolicyBot  # noqa: E402,F401  (registers the bot kind policy:PATH)
from unoengine.envs.learn.es import Settings, Trainer, duplicate_wins  # noqa: E402
from unoengine.envs.learn.plot import write_curve_pictures  # noqa: E402
from unoengine.tools.simulate import duplicate_interval, tournament, wilson  # noqa: E402

EVAL_SEED = 10**9
"""Held-out deals of the curve come from this seed (training deals from --seed's generator)."""
FINAL_SEED = 2 * 10**9
"""The final reference evaluation's deals."""
FIELDS = ("generation", "cpu_seconds", "games", "wins", "win_rate", "low", "high")


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--generations", type=int, default=120, help="stop after this many generations")
    parser.add_argument("--cpu-budget", type=float, default=6000.0,
                        help="or after this many CPU seconds (a safety stop: --generations makes a run reproducible)")
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--curve-deals", type=int, default=2000)
    parser.add_argument("--final-deals", type=int, default=5000)
    parser.add_argument("--pairs", type=int, default=Settings.pairs)
    parser.add_argument("--deals", type=int, default=Settings.deals)
    parser.add_argument("--sigma", type=float, default=Settings.sigma)
    parser.add_argument("--learning-rate", type=float, default=Settings.learning_rate)
    parser.add_argument("--prior", type=float, default=Settings.prior)
    parser.add_argument("--weight-scale", type=float, default=Settings.weight_scale)
    parser.add_argument("--bias-only", action=argparse.BooleanOptionalAction, default=Settings.bias_only,
                        help="learn only the per-group bias b (--no-bias-only: W too)")
    parser.add_argument("--out", type=Path, default=Path("learn-out"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    settings = Settings(pairs=args.pairs, deals=args.deals, sigma=args.sigma, learning_rate=args.learning_rate,
                        prior=args.prior, bias_only=args.bias_only, weight_scale=args.weight_scale)
    start = time.process_time()
    trainer = Trainer("classic-108", 2, args.seed, settings)
    rows: list[dict[str, float]] = []

    def point() -> None:
        per_deal = duplicate_wins(trainer.current(), args.curve_deals, EVAL_SEED)
        wins, games = int(per_deal.sum()), 2 * args.curve_deals
        lo, hi = duplicate_interval((per_deal / 2).tolist(), wins, games)
        row = {"generation": trainer.generations, "cpu_seconds": round(time.process_time() - start, 1),
               "games": games, "wins": wins, "win_rate": wins / games, "low": lo, "high": hi}
        rows.append(row)
        print(f"generation {trainer.generations:5d}  cpu {row['cpu_seconds']:7.0f} s  "
              f"{wins / games:6.2%} ({lo:.2%} - {hi:.2%}) of {games} held-out games  "
              f"(training fitness {trainer.last_fitness:.3f})", flush=True)

    point()
    while trainer.generations < args.generations and time.process_time() - start < args.cpu_budget:
        trainer.generation()
        if trainer.generations % args.eval_every == 0:
            point()
    if trainer.generations % args.eval_every:
        point()
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    weights = args.out / "policy.npz"
    trainer.current().save(weights)
    write_curve_pictures(rows, args.out / "curve")
    summary = {"generations": float(trainer.generations), "train_cpu_seconds": rows[-1]["cpu_seconds"]}
    if args.final_deals:
        ranked, _ = tournament("classic-108", [f"policy:{weights}", "heuristic"], args.final_deals, FINAL_SEED)
        me = next(s for s in ranked if s.bot.startswith("policy:"))
        lo, hi = wilson(me.wins, me.games)
        summary.update(final_games=me.games, final_wins=me.wins, final_rate=me.win_rate, wilson_low=lo,
                       wilson_high=hi, duplicate_low=me.interval[0], duplicate_high=me.interval[1],
                       total_cpu_seconds=round(time.process_time() - start, 1))
        print(f"final (reference engine, {args.final_deals} deals, seats swapped): {me.wins} of {me.games} = "
              f"{me.win_rate:.2%}, Wilson 95% {lo:.2%} - {hi:.2%}, duplicate 95% {me.interval[0]:.2%} - "
              f"{me.interval[1]:.2%}; CPU {summary['total_cpu_seconds']:.0f} s in all")
    return summary


if __name__ == "__main__":
    main()
