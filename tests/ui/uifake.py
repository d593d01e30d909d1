"""A small rule system for the box's own tests, with every kind of step the five
real systems give: chips from a bag, an action menu, a fire roll of two d6
groups (split into two throws), a resolve check, an end of turn, a secret roll,
a percentile roll and the end of the game. It never changes under the box's
feet the way the real systems (being written beside it) may.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from companion.rules.core import (
    Action,
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    ChipDrawn,
    Choice,
    Chosen,
    DiceGroup,
    DieKind,
    GameInput,
    GameOver,
    Odds,
    Outcome,
    Rolled,
    RollRequest,
    RuleOption,
    RulesError,
    Scenario,
    ScenarioValue,
    Step,
    Transition,
    Unit,
    check_dice,
)

SYSTEM = "ui_fake"
CHIPS = {"Red 1": "Legion", "Blue 1": "Arabs"}

SCENARIO_TOML = """
system = "ui_fake"
title = "Fort Zinderneuf"
sides = ["FFL", "Arabs"]

[[units]]
name = "Legion"
side = "FFL"
kind = "infantry"
figures = 12
chip = "Red 1"

[[units]]
name = "Arabs"
side = "Arabs"
kind = "cavalry"
figures = 20
chip = "Blue 1"
"""

FIRE = RollRequest("FFL fire at 20 Arabs in light cover", (
    DiceGroup(DieKind.D6, 3, "FFL fire", "5-6 hit"),
    DiceGroup(DieKind.D6, 2, "Arab saves", "6 saves a hit"),
))
FIRE_ODDS = Odds("hits", {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)},
                 {"pinned": Fraction(1, 12)})
SECRET = RollRequest("Reinforcement day", (DiceGroup(DieKind.D6, 1, "day", "1: day 5"),),
                     secret=True)
# A tray that holds two d6: the fire roll's five dice come in three throws.
SMALL_TRAY = {DieKind.D6: 2, DieKind.D10: 10, DieKind.PERCENTILE: 10}
MORALE = RollRequest("Legion morale against ML 75", (
    DiceGroup(DieKind.PERCENTILE, 1, "tens", "00-90"),
    DiceGroup(DieKind.D10, 1, "units", "0-9"),
))


def resolve_request(casualties: int) -> RollRequest:
    return RollRequest(f"Arab resolve after {casualties} casualties",
                       (DiceGroup(DieKind.D6, 2, "resolve", "8+ fails"),))


@dataclass(frozen=True)
class State:
    turn: int = 1
    bag: tuple[str, ...] = tuple(CHIPS)
    phase: str = "draw"  # draw order fire resolve secret morale over
    unit: str = ""
    legion: int = 12
    arabs: int = 20
    casualties: int = 0
    day: int = 0
    routed: bool = False


class FakeRules:
    name = SYSTEM
    title = "UI test game"
    dice = (DieKind.D6, DieKind.D10, DieKind.PERCENTILE)
    actions: Mapping[str, Action] = {}
    options: tuple[RuleOption, ...] = ()

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        units = []
        for item in raw["units"]:  # type: ignore[union-attr]
            assert isinstance(item, dict)
            units.append(Unit(str(item["name"]), str(item["side"]), str(item["kind"]),
                              int(item["figures"]), chip=str(item["chip"])))  # type: ignore[arg-type]
        return Scenario(SYSTEM, str(raw["title"]), ("FFL", "Arabs"), tuple(units))

    def start(self, scenario: Scenario) -> object:
        return State()

    def next_step(self, state: object) -> Step:
        assert isinstance(state, State)
        if state.phase == "draw":
            return AwaitChip(f"Turn {state.turn}: draw a chip", state.bag)
        if state.phase == "order":
            return AwaitChoice("Order?", (
                Choice("fire", "Fire"), Choice("hold", "Hold"),
                Choice("long", "Advance to the oasis by the long road"),
            ), about=state.unit)
        if state.phase == "fire":
            return AwaitRoll(FIRE, FIRE_ODDS)
        if state.phase == "resolve":
            return AwaitRoll(resolve_request(state.casualties),
                             Odds("fails", {0: Fraction(7, 12), 1: Fraction(5, 12)}))
        if state.phase == "secret":
            return AwaitRoll(SECRET)
        if state.phase == "morale":
            return AwaitRoll(MORALE, Odds("routed", {0: Fraction(3, 4), 1: Fraction(1, 4)}))
        winner = "Arabs" if state.routed else "FFL"
        return GameOver(winner, (f"{winner} win after {state.turn} turns",
                                 f"Reinforcements came on day {state.day}"))

    def advance(self, state: object, given: GameInput) -> Transition:
        assert isinstance(state, State)
        step = self.next_step(state)
        if isinstance(step, AwaitChip) and isinstance(given, ChipDrawn):
            if given.chip not in state.bag:
                raise RulesError(f"{given.chip} is not in the bag")
            unit = CHIPS[given.chip]
            new = replace(state, bag=tuple(c for c in state.bag if c != given.chip),
                          phase="order", unit=unit)
            return Transition(new, (f"{unit} activated",), cues=frozenset({"chip"}))
        if isinstance(step, AwaitChoice) and isinstance(given, Chosen):
            if given.key == "fire":
                return Transition(replace(state, phase="fire"), (f"{state.unit} fires",))
            if given.key in ("hold", "long"):
                return self._finish(state, [f"{state.unit} holds"], None, set())
            raise RulesError(f"no order {given.key!r}")
        if isinstance(step, AwaitRoll) and isinstance(given, Rolled):
            check_dice(step.request, given.dice)
            return self._rolled(state, step.request, given.dice)
        raise RulesError(f"{type(given).__name__} does not fit {type(step).__name__}")

    def _rolled(self, state: State, request: RollRequest, dice: tuple[int, ...]) -> Transition:
        if state.phase == "fire":
            fire, saves = request.split(dice)
            hits = max(0, sum(d >= 5 for d in fire) - sum(d == 6 for d in saves))
            effects = set()
            if fire == (1, 1, 1):  # a jam, for the tunes' sake
                effects, hits = {"jammed"}, 0
            elif fire == (6, 6, 6):  # the Arabs go berserk instead of falling
                effects, hits = {"berserk"}, 0
            if sum(d == 6 for d in fire) == 2:
                effects.add("pinned")
            if hits:
                effects.add("killed")
            outcome = Outcome(hits, "hits", frozenset(effects),
                              (f"{fire} against {saves}",),
                              (f"Arabs lose {hits} figures",) if hits else ())
            new = replace(state, arabs=state.arabs - hits, casualties=hits)
            if hits:
                return Transition(replace(new, phase="resolve"), (f"{hits} hits",), outcome)
            return self._finish(new, ["no hits"], outcome, set())
        if state.phase == "resolve":
            failed = sum(dice) >= 8
            outcome = Outcome(int(failed), "fails",
                              frozenset({"resolve_failed"} if failed else set()),
                              (f"resolve {sum(dice)}",),
                              ("Arabs fall back",) if failed else ("Arabs hold",))
            return self._finish(state, [f"resolve {sum(dice)}"], outcome, set())
        if state.phase == "secret":
            day = {1: 5, 2: 4, 3: 4, 4: 3, 5: 3, 6: 2}[dice[0]]
            new = replace(state, phase="draw", turn=2, bag=tuple(CHIPS), day=day)
            return Transition(new, (f"reinforcements on day {day}",))
        score = dice[0] * 10 + dice[1]
        routed = score > 75
        outcome = Outcome(int(routed), "routed", frozenset({"routed"} if routed else set()),
                          (f"{score} against 75",))
        return Transition(replace(state, phase="over", routed=routed), ("Game over",), outcome,
                          frozenset({"game_over"}))

    def _finish(self, state: State, log: list[str], outcome: Outcome | None,
                cues: set[str]) -> Transition:
        if state.bag:
            return Transition(replace(state, phase="draw", unit=""), tuple(log), outcome,
                              frozenset(cues))
        log.append(f"End of turn {state.turn}")
        phase = "secret" if state.turn == 1 else "morale"
        return Transition(replace(state, phase=phase, unit=""), tuple(log), outcome,
                          frozenset(cues | {"turn_end"}))

    def describe(self, state: object) -> tuple[str, ...]:
        assert isinstance(state, State)
        return (f"Turn {state.turn}, {len(state.bag)} chips in the bag",
                f"Legion: {state.legion} figures", f"Arabs: {state.arabs} figures",
                "Arabs fall back" if state.routed else "Both sides in the fight")


FAKE = FakeRules()


def use_fake_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make 'ui_fake' a rule system the session can load, for this test only."""
    import companion.rules as rules
    import companion.session.scenario_files as scenario_files

    original = rules.get_ruleset

    def get_ruleset(name: str) -> object:
        return FAKE if name == SYSTEM else original(name)

    monkeypatch.setattr(rules, "get_ruleset", get_ruleset)
    monkeypatch.setattr(scenario_files, "get_ruleset", get_ruleset)
