"""Engineering work (a d6 per group of four) and demolition charges."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    RulesError,
    bool_param,
    counted,
    int_param,
    str_param,
)
from companion.rules.odds import odds_from_outcomes
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.params import sum_of_d6

TASK_NAMES: tuple[str, ...] = tuple(name for name, _ in tables.ENGINEERING_TASKS)


def work_dice(figures: int) -> int:
    """One d6 for each whole group of four figures."""
    return figures // tables.ENGINEERING_FIGURES_PER_DIE


ENGINEERING_PARAMS = (
    Param("figures", ParamKind.INT, "figures working", 4, 4, 60),
    Param("points_so_far", ParamKind.INT, "points already accumulated on the task", 0, 0, 5),
    Param("task", ParamKind.CHOICE, "the task", "barricade", choices=TASK_NAMES),
    Param("difficult", ParamKind.BOOL, "a difficult task (needs an engineer)", False),
    Param("engineer_present", ParamKind.BOOL, "an engineer is with the party", False),
)


def _check_engineer(params: Params) -> None:
    if bool_param(params, "difficult") and not bool_param(params, "engineer_present"):
        raise RulesError("a difficult task needs an engineer present (engineer_present=yes)")


def engineering_request(params: Params) -> RollRequest:
    _check_engineer(params)
    dice = work_dice(int_param(params, "figures"))
    return RollRequest(
        f"Engineering: {params['task']}",
        (DiceGroup(DieKind.D6, dice, "work", "each die is points of work; 6 points a task"),),
    )


def _done(total: int) -> frozenset[str]:
    return frozenset({"task_done"}) if total >= tables.ENGINEERING_TASK_POINTS else frozenset()


def engineering_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = engineering_request(params).split(dice)
    points = sum(rolled)
    before = int_param(params, "points_so_far")
    total = before + points
    done = _done(total)
    verdict = (
        "task done"
        if done
        else f"{counted(tables.ENGINEERING_TASK_POINTS - total, 'point')} still needed"
    )
    return Outcome(
        points,
        "work points",
        done,
        (
            f"work {'+'.join(map(str, rolled))} = {points}; "
            f"with {before} before: {total}; {verdict}",
        ),
    )


def engineering_odds(params: Params) -> Odds:
    _check_engineer(params)
    before = int_param(params, "points_so_far")
    dist = sum_of_d6(work_dice(int_param(params, "figures")))
    weighted: list[tuple[Fraction, int, frozenset[str]]] = [
        (p, points, _done(before + points)) for points, p in dist.items()
    ]
    return odds_from_outcomes("work points", weighted)


ENGINEERING = Action(
    name="engineering",
    title="Engineering work",
    help="A d6 per group of 4 figures, accumulated; 6 points build a barricade, fortify a "
    'house, clear an obstruction or 3" of redoubt. Difficult tasks need an engineer.',
    params=ENGINEERING_PARAMS,
    request=engineering_request,
    resolve=engineering_resolve,
    odds=engineering_odds,
    examples=(
        {"figures": 8},
        {
            "figures": 12,
            "points_so_far": 2,
            "task": "redoubt",
            "difficult": True,
            "engineer_present": True,
        },
    ),
)

# ------------------------------------------------------------------ demolition

DEMOLITION_TARGETS: tuple[str, ...] = (
    *(row.target for row in tables.DEMOLITION_TABLE),
    "scenario",
)


def demolition_needed(target: str, scenario_points: int) -> int:
    if target == "scenario":
        return scenario_points
    return tables.demolition_points(target)


DEMOLITION_PARAMS = (
    Param("charges", ParamKind.INT, "charges laid (one d6 each)", 1, 1, 40),
    Param(
        "target",
        ParamKind.CHOICE,
        "what is being blown",
        "small_bridge",
        choices=DEMOLITION_TARGETS,
    ),
    Param("points", ParamKind.INT, "points needed when target=scenario", 6, 1, 240),
)


def _needed(params: Params) -> int:
    return demolition_needed(str_param(params, "target"), int_param(params, "points"))


def demolition_request(params: Params) -> RollRequest:
    return RollRequest(
        f"Demolition of the {params['target']}: need {_needed(params)}",
        (
            DiceGroup(
                DieKind.D6,
                int_param(params, "charges"),
                "charges",
                f"total {_needed(params)}+ breaches",
            ),
        ),
    )


def demolition_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = demolition_request(params).split(dice)
    total = sum(rolled)
    needed = _needed(params)
    breached = total >= needed
    return Outcome(
        total,
        "demolition points",
        frozenset({"breached"}) if breached else frozenset(),
        (
            f"charges {'+'.join(map(str, rolled))} = {total} against {needed}: "
            + ("breached" if breached else "holds"),
        ),
    )


def demolition_odds(params: Params) -> Odds:
    needed = _needed(params)
    dist = sum_of_d6(int_param(params, "charges"))
    weighted: list[tuple[Fraction, int, frozenset[str]]] = [
        (p, total, frozenset({"breached"}) if total >= needed else frozenset())
        for total, p in dist.items()
    ]
    return odds_from_outcomes("demolition points", weighted)


DEMOLITION = Action(
    name="demolition",
    title="Demolition",
    help="Roll every charge laid (a d6 each): 6 breaches a weak wall or fortified house "
    "or drops a small bridge; 12 a larger bridge; or as the scenario says.",
    params=DEMOLITION_PARAMS,
    request=demolition_request,
    resolve=demolition_resolve,
    odds=demolition_odds,
    examples=(
        {"charges": 1},
        {"charges": 3, "target": "large_bridge"},
        {"charges": 2, "target": "scenario", "points": 9},
    ),
)
