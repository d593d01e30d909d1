"""Exact odds of Tenir le Fort's largest rolls: the time to compute them, pools up to 40 dice.

Each case is the odds the box shows before a roll (its whole headline distribution
and every side effect, as Fractions). Prints the best and the median of several
runs per case, in milliseconds; the target is well under 50 ms for 40 dice.

    .venv/bin/python benchmarks/tlf_odds.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from fractions import Fraction

from companion.rules.core import Params
from companion.rules.tenir_le_fort.actions import ACTIONS

CASES: tuple[tuple[str, Params], ...] = (
    ("ffl-fire", {"riflemen": 40, "cover": "none"}),
    (
        "ffl-fire",
        {
            "riflemen": 36,
            "wounded": 3,
            "sergeant": True,
            "officers": 1,
            "pistols": 1,
            "pinned": True,
        },
    ),
    ("ffl-fire", {"riflemen": 40, "wounded": 20, "officers": 2, "pistols": 6, "cover": "light"}),
    ("arab-fire", {"figures": 60, "pistols": 10}),
    ("maxim-fire", {"bonus_dice": 40, "cover": "heavy"}),
    ("maxim-fire", {"jammed": True}),
    ("artillery-fire", {"bonus_dice": 40}),
    ("heavy-cover-save", {"hits": 40}),
    ("wound-check", {"hits": 39, "figures": 40, "already_wounded": 10, "hero_hit": True}),
    (
        "move",
        {"side": "Arab", "kind": "mounted", "mode": "charge", "leader": True, "berserk": True},
    ),
    ("close-combat", {"attacker_leader": "mounted", "defender_position": "loophole"}),
    ("arab-resolve", {"casualties": 55, "command_points": 2}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per case")
    args = parser.parse_args()
    print(f"{'action':<16} {'dice':>4} {'best ms':>8} {'median ms':>10}  parameters")
    worst = 0.0
    for name, given in CASES:
        action = ACTIONS[name]
        params = action.complete_params(given)
        dice = action.request(params).dice_count
        times = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            odds = action.odds(params)
            times.append((time.perf_counter() - began) * 1000)
        assert sum(odds.headline.values(), Fraction(0)) == 1
        worst = max(worst, statistics.median(times))
        shown = " ".join(f"{k}={v}" for k, v in given.items())
        print(f"{name:<16} {dice:>4} {min(times):>8.2f} {statistics.median(times):>10.2f}  {shown}")
    print(f"slowest median: {worst:.2f} ms (target: well under 50 ms)")


if __name__ == "__main__":
    main()
