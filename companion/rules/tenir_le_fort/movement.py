"""Movement rolls: foot, mounted, move-and-fire, charges, guns, pins, berserk, in-fighting.

A movement roll is some d6; the leader's extra die, a leaderless FFL squad and
a squad carrying wounded or a dead officer each drop the lowest die; the charge
die and the berserk die are added. A pinned unit only moves if some die shows
a 5 or 6; a charging Arab or leaderless FFL unit goes berserk on any 6; a
French leader regains control of a berserk squad on any 6; a leaderless Arab
unit of mixed tribes rolling 2 or 3 falls to in-fighting.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
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
    check_dice,
    counted,
)
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import odds_of, sorted_rolls

# What a berserk charge moves: as far as it takes to reach its target.
BERSERK_REACH = "as far as needed"


@dataclass(frozen=True)
class MoveSituation:
    """Everything a movement roll depends on."""

    side: str  # "FFL" or "Arab"
    base_dice: int  # 2 foot, 4 mounted, 1 move-and-fire or gun
    leader: bool = False  # an attached leader: one more die, drop the lowest
    leaderless_ffl: bool = False  # drop the lowest
    carrying: bool = False  # FFL carrying wounded or a dead officer: drop the lowest
    charge: bool = False  # one more die added
    counter_charge: bool = False  # berserk checked as in a charge, no reach
    counter_charge_die: bool = False  # option counter_charge_die: the charge's extra die too
    berserk: bool = False  # already berserk: one more die added, contact is automatic
    pinned: bool = False
    recovered_moves: bool = True  # option pinned_recovery: the recovering unit also moves
    mixed_tribes: bool = False  # Arab, leaderless: in-fighting on 2-3
    distance: int = 0  # inches to the charge target; 0 = not given

    @property
    def rolled(self) -> int:
        return (
            self.base_dice
            + (t.LEADER_EXTRA_DIE if self.leader else 0)
            + (t.CHARGE_EXTRA_DIE if self.charge else 0)
            + (t.CHARGE_EXTRA_DIE if self.counter_charge and self.counter_charge_die else 0)
            + (t.BERSERK_EXTRA_DIE if self.berserk else 0)
        )

    @property
    def dropped(self) -> int:
        drops = int(self.leader) + int(self.leaderless_ffl) + int(self.carrying)
        return min(drops, self.rolled - 1)

    @property
    def can_go_berserk(self) -> bool:
        charging = self.charge or self.counter_charge
        return charging and not self.berserk and (self.side == "Arab" or self.leaderless_ffl)

    @property
    def can_regain_control(self) -> bool:
        return self.side == "FFL" and self.berserk and self.leader

    @property
    def infighting_possible(self) -> bool:
        return self.side == "Arab" and self.mixed_tribes and not self.leader

    def request(self, what: str) -> RollRequest:
        keep = self.rolled - self.dropped
        meaning = f"sum of the highest {keep}" if self.dropped else "sum"
        notes = []
        if self.pinned:
            notes.append("a 5-6 recovers from pin")
        if self.can_go_berserk:
            notes.append("any 6: berserk")
        if self.can_regain_control:
            notes.append("any 6: back under control")
        if self.infighting_possible:
            notes.append("2-3: in-fighting")
        text = "; ".join([meaning + " in inches", *notes])
        return RollRequest(what, (DiceGroup(DieKind.D6, self.rolled, "movement", text),))

    def evaluate(self, dice: Sequence[int]) -> tuple[int, frozenset[str], tuple[str, ...]]:
        """(inches moved, effects, explanation) for a roll of `rolled` dice."""
        ordered = sorted(dice)
        kept = ordered[self.dropped :]
        total = sum(kept)
        lines = [f"rolled {', '.join(map(str, dice))}"]
        if self.dropped:
            lines.append(f"drop the lowest {self.dropped}: keep {', '.join(map(str, kept))}")
        at = len(lines)
        lines.append(f"total {counted(total, 'inch', 'inches')}")
        moved, effects, said = self._judge(dice, total, lines)
        if moved != total or self.charges_home(moved, effects):
            # the unit does not move the dice's inches (pinned, in-fighting, short of its
            # target, or berserk and going as far as it takes): the total is only a sum,
            # and the lines after it say what the unit does instead
            said = (*said[:at], f"dice total {total}", *said[at + 1 :])
        return moved, effects, said

    def _judge(
        self, dice: Sequence[int], total: int, lines: list[str]
    ) -> tuple[int, frozenset[str], tuple[str, ...]]:
        effects: set[str] = set()
        moved = total
        if self.pinned:
            if any(d in t.RECOVER_FACES for d in dice):
                effects.add("recovered")
                lines.append("a 5 or 6 shows: recovers from pin")
                if not self.recovered_moves:
                    moved = 0
                    lines.append("recovers but does not move this activation")
            else:
                effects.add("pinned")
                lines.append("no 5 or 6: stays pinned and does not move")
                moved = 0
        if self.infighting_possible and total in t.INFIGHTING_TOTALS:
            effects.update({"in-fighting", "pinned"})
            effects.discard("recovered")
            lines.append("2-3 for a leaderless mixed-tribe unit: in-fighting, pinned, loses 1d6")
            moved = 0
        if self.can_go_berserk and any(d == t.BERSERK_FACE for d in dice):
            effects.add("berserk")
            lines.append("a 6 on the charge: the unit goes berserk")
        if self.can_regain_control and any(d == t.REGAIN_CONTROL_FACE for d in dice):
            effects.add("regained_control")
            lines.append("a 6 with a French leader: back under control")
        if self.charge and moved > 0 and "in-fighting" not in effects:
            berserk_now = self.berserk or "berserk" in effects
            if self.distance and not berserk_now:
                if total >= self.distance:
                    effects.add("contact")
                    distance = counted(self.distance, "inch", "inches")
                    lines.append(f"{total} reaches {distance}: contact")
                else:
                    effects.update({"fell_short", "pinned"})
                    moved = 0
                    lines.append(f"{total} short of {self.distance}: no move, pinned")
            elif berserk_now:
                # contact is only worth its own effect against a distance given: without
                # one it is the berserk effect again, as likely, and said once is enough
                if self.distance:
                    effects.add("contact")
                lines.append("berserk: it makes contact whatever the dice total")
        return moved, frozenset(effects), tuple(lines)

    def charges_home(self, moved: int, effects: frozenset[str]) -> bool:
        """A berserk charge, which reaches its target however far: its inches mean nothing."""
        berserk_now = self.berserk or "berserk" in effects
        return self.charge and berserk_now and moved > 0 and "in-fighting" not in effects

    def outcome(self, request: RollRequest, dice: Sequence[int]) -> Outcome:
        check_dice(request, dice)
        moved, effects, lines = self.evaluate(dice)
        follow = None
        if "in-fighting" in effects:
            follow = infighting_request()
        label = "inches"
        if self.charges_home(moved, effects):
            # the headline names the move instead of counting the dice's inches, which a
            # berserk charge does not need ("As far as needed", not "13 inches"); the value
            # is still the total, as the odds count it
            label = f"inches ({moved} = {BERSERK_REACH})"
        return Outcome(moved, label, effects, lines, follow_up=follow)

    def odds(self) -> Odds:
        def outcomes() -> Iterator[tuple[Fraction, int, frozenset[str]]]:
            for roll, p in sorted_rolls(self.rolled):
                moved, effects, _ = self._judge(roll, sum(roll[self.dropped :]), [])
                yield p, moved, effects

        return odds_of("inches", outcomes())


# ------------------------------------------------------------------ actions

SIDE = Param("side", ParamKind.CHOICE, "which side moves", "Arab", choices=("Arab", "FFL"))
KIND = Param(
    "kind",
    ParamKind.CHOICE,
    "foot 2d6, mounted 4d6, the FFL supply train 2d6 (not a squad: no leaderless die dropped)",
    "foot",
    choices=("foot", "mounted", "supply"),
)
LEADER = Param("leader", ParamKind.BOOL, "a leader is attached (extra die, drop low)", False)
PINNED = Param("pinned", ParamKind.BOOL, "the unit is pinned (needs a 5-6 to move)", False)
BERSERK = Param("berserk", ParamKind.BOOL, "the unit is already berserk (+1 die)", False)
RECOVERED_MOVES = Param(
    "recovered_moves", ParamKind.BOOL, "a unit that recovers from pin also moves", True
)


def move_situation(p: Params) -> MoveSituation:
    side = str(p["side"])
    mode = str(p["mode"])
    # each of these belongs to one side's chart only: refused rather than ignored
    if side == "Arab" and mode == "move_and_fire":
        raise RulesError("mode=move_and_fire: only the FFL move and fire; moving Arabs cannot fire")
    if side == "Arab" and bool(p["carrying"]):
        raise RulesError("carrying=yes: only legionnaires carry their wounded and dead officers")
    if side == "FFL" and bool(p["mixed_tribes"]):
        raise RulesError("mixed_tribes=yes: only Arab units are of mixed tribes; use side=Arab")
    leader = bool(p["leader"])
    base = t.BASE_MOVE_DICE[str(p["kind"])]
    if mode == "move_and_fire":
        base = t.MOVE_AND_FIRE_DICE
    return MoveSituation(
        side=side,
        base_dice=base,
        leader=leader,
        # the drop-the-lowest rule is for a squad without its sergeant, not the supply train
        leaderless_ffl=side == "FFL" and not leader and p["kind"] != "supply",
        carrying=bool(p["carrying"]),
        charge=mode == "charge",
        counter_charge=mode == "counter_charge",
        counter_charge_die=bool(p["counter_die"]),
        berserk=bool(p["berserk"]),
        pinned=bool(p["pinned"]),
        recovered_moves=bool(p["recovered_moves"]),
        mixed_tribes=bool(p["mixed_tribes"]),
        distance=int(p["distance"]) if mode == "charge" else 0,
    )


def _move_request(p: Params) -> RollRequest:
    s = move_situation(p)
    what = {"move": "move", "move_and_fire": "move and fire", "charge": "charge"}.get(
        str(p["mode"]), "counter-charge"
    )
    return s.request(f"{p['side']} {p['kind']} {what}")


def _move_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    s = move_situation(p)
    return s.outcome(_move_request(p), dice)


def _move_odds(p: Params) -> Odds:
    return move_situation(p).odds()


MOVE = Action(
    name="move",
    title="Movement roll (move, move and fire, charge, counter-charge)",
    help=(
        "Foot 2d6, mounted 4d6, FFL move-and-fire 1d6; a leader adds a die and the lowest is "
        "dropped; leaderless or burdened FFL drop the lowest; a charge adds a die. Pinned units "
        "need a 5-6; charging Arabs and leaderless FFL go berserk on a 6."
    ),
    params=(
        SIDE,
        KIND,
        Param(
            "mode",
            ParamKind.CHOICE,
            "what the move is for",
            "move",
            choices=("move", "move_and_fire", "charge", "counter_charge"),
        ),
        LEADER,
        Param("carrying", ParamKind.BOOL, "FFL carrying wounded or a dead officer", False),
        PINNED,
        BERSERK,
        Param("mixed_tribes", ParamKind.BOOL, "Arab unit of mixed tribes (in-fighting)", False),
        Param(
            "distance",
            ParamKind.INT,
            "inches to the charge target (0: not given)",
            0,
            minimum=0,
            maximum=t.CHARGE_REACH_INCHES,
        ),
        RECOVERED_MOVES,
        Param(
            "counter_die",
            ParamKind.BOOL,
            "a counter-charge also gets the charge's extra die (option counter_charge_die)",
            False,
        ),
    ),
    request=_move_request,
    resolve=_move_resolve,
    odds=_move_odds,
    examples=(
        {"side": "Arab", "kind": "foot"},
        {"side": "FFL", "kind": "foot", "leader": True, "carrying": True},
        {"side": "Arab", "kind": "foot", "mode": "charge", "distance": 9, "pinned": True},
        {"side": "FFL", "kind": "foot", "mode": "charge", "berserk": True, "leader": True},
    ),
)


def gun_situation(p: Params) -> MoveSituation:
    gun = str(p["gun"])
    men = int(p["men"])
    base = t.MAXIM_MOVE_DICE[min(men, 2)] if gun == "maxim" else t.ARTILLERY_MOVE_DICE
    return MoveSituation(
        side="FFL", base_dice=base, leader=bool(p["leader"]), pinned=bool(p["pinned"])
    )


def gun_can_move(gun: str, men: int) -> bool:
    return men >= (1 if gun == "maxim" else t.ARTILLERY_MOVE_MEN)


def _gun_request(p: Params) -> RollRequest:
    gun = str(p["gun"])
    men = int(p["men"])
    if not gun_can_move(gun, men):
        return RollRequest(f"{counted(men, 'man', 'men')} cannot move the {t.GUN_WORDS[gun]}", ())
    return gun_situation(p).request(
        f"{counted(men, 'man moves', 'men move')} the {t.GUN_WORDS[gun]}"
    )


def _gun_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    req = _gun_request(p)
    check_dice(req, dice)
    if not req.groups:
        return Outcome(0, "inches", frozenset(), (req.reason,))
    s = gun_situation(p)
    moved, effects, lines = s.evaluate(dice)
    return Outcome(moved, "inches", effects, lines)


def _gun_odds(p: Params) -> Odds:
    if not gun_can_move(str(p["gun"]), int(p["men"])):
        return Odds("inches", {0: Fraction(1)})
    return gun_situation(p).odds()


MOVE_GUN = Action(
    name="move-gun",
    title="Moving the Maxim or the artillery piece",
    help="Two or more men move the Maxim 2d6, one man 1d6; three men move the gun 1d6.",
    params=(
        Param("gun", ParamKind.CHOICE, "which gun", "maxim", choices=("maxim", "artillery")),
        Param("men", ParamKind.INT, "men pushing it", 2, minimum=1, maximum=5),
        LEADER,
        PINNED,
    ),
    request=_gun_request,
    resolve=_gun_resolve,
    odds=_gun_odds,
    examples=(
        {"gun": "maxim", "men": 2},
        {"gun": "maxim", "men": 1, "leader": True},
        {"gun": "artillery", "men": 3},
        {"gun": "maxim", "men": 3, "pinned": True},
    ),
)


def _simple_request(reason: str, n: int, meaning: str) -> RollRequest:
    return RollRequest(reason, (DiceGroup(DieKind.D6, n, reason, meaning),))


def infighting_request() -> RollRequest:
    return _simple_request("in-fighting losses", 1, "figures lost to in-fighting")


def _sum_odds(label: str, n: int, cap: int | None = None) -> Odds:
    def outcomes() -> Iterator[tuple[Fraction, int, frozenset[str]]]:
        for roll, p in sorted_rolls(n):
            total = sum(roll)
            if cap is not None:
                total = min(total, cap)
            yield p, total, frozenset()

    return odds_of(label, outcomes())


def _infighting_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    req = infighting_request()
    check_dice(req, dice)
    lost = min(dice[0], int(p["figures"]))
    effects = frozenset({"killed"}) if lost else frozenset()
    return Outcome(
        lost,
        "figures lost",
        effects,
        (f"in-fighting: rolled {dice[0]}, {counted(lost, 'figure')} lost of {p['figures']}",),
    )


def _infighting_odds(p: Params) -> Odds:
    n = int(p["figures"])
    dist: dict[tuple[int, frozenset[str]], Fraction] = {}
    for face in range(1, 7):
        lost = min(face, n)
        key = (lost, frozenset({"killed"}) if lost else frozenset())
        dist[key] = dist.get(key, Fraction(0)) + Fraction(1, 6)
    return odds_of("figures lost", [(pr, v, e) for (v, e), pr in dist.items()])


FIGURES = Param("figures", ParamKind.INT, "figures in the unit", 12, minimum=1, maximum=60)

INFIGHTING = Action(
    name="infighting-losses",
    title="Arab in-fighting losses",
    help="A leaderless mixed-tribe unit that rolled 2 or 3 to move loses 1d6 figures.",
    params=(FIGURES,),
    request=lambda p: infighting_request(),
    resolve=_infighting_resolve,
    odds=_infighting_odds,
    examples=({"figures": 12}, {"figures": 3}),
)


def fall_back_request() -> RollRequest:
    return _simple_request("fall back", t.FALL_BACK_DICE, "sum: inches the loser falls back")


def _fall_back_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    check_dice(fall_back_request(), dice)
    total = sum(dice)
    if bool(p["unpinnable"]):
        line = (
            f"falls back {counted(total, 'inch', 'inches')}; "
            "a mounted leader keeps the unit from being pinned"
        )
        return Outcome(total, "inches", frozenset(), (line,))
    line = f"falls back {counted(total, 'inch', 'inches')}, pinned"
    return Outcome(total, "inches", frozenset({"pinned"}), (line,))


def _fall_back_odds(p: Params) -> Odds:
    o = _sum_odds("inches", t.FALL_BACK_DICE)
    pinned = {} if bool(p["unpinnable"]) else {"pinned": Fraction(1)}
    return Odds(o.headline_label, o.headline, pinned)


FALL_BACK = Action(
    name="fall-back",
    title="Falling back after losing a close combat",
    help="A close-combat loser who survives falls back 2d6 inches and is pinned, unless a "
    "mounted leader is with his unit.",
    params=(
        Param(
            "unpinnable",
            ParamKind.BOOL,
            "a mounted leader is with the unit (cannot be pinned)",
            False,
        ),
    ),
    request=lambda p: fall_back_request(),
    resolve=_fall_back_resolve,
    odds=_fall_back_odds,
    examples=({}, {"unpinnable": True}),
)


def ladder_climb_request() -> RollRequest:
    return _simple_request(
        "climb an undefended ladder",
        t.LADDER_CLIMBERS_WALL_CLEAR_DICE,
        "sum: figures placed on the wall",
    )


def _ladder_climb_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    check_dice(ladder_climb_request(), dice)
    total = sum(dice)
    up = min(total, int(p["figures"]))
    line = f"{total} rolled: {counted(up, 'figure reaches', 'figures reach')} the wall"
    return Outcome(up, "figures", frozenset(), (line,))


LADDER_CLIMB = Action(
    name="ladder-climb",
    title="Climbing a ladder with no defender within 2 inches",
    help="With no FFL figure on the wall within 2 inches, 2d6 figures climb onto the wall.",
    params=(FIGURES,),
    request=lambda p: ladder_climb_request(),
    resolve=_ladder_climb_resolve,
    odds=lambda p: _sum_odds("figures", 2, int(p["figures"])),
    examples=({"figures": 12}, {"figures": 5}),
)


def ladder_advance_request() -> RollRequest:
    return _simple_request(
        "ladder assault won", t.LADDER_ADVANCE_DICE, "inches the survivors move on the wall"
    )


def _ladder_advance_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    check_dice(ladder_advance_request(), dice)
    line = f"survivors move {counted(dice[0], 'inch', 'inches')}"
    return Outcome(dice[0], "inches", frozenset(), (line,))


LADDER_ADVANCE = Action(
    name="ladder-advance",
    title="Survivors of a won ladder assault move on the wall",
    help="When the wall is cleared, the remaining climbers are placed on it and move 1d6.",
    params=(),
    request=lambda p: ladder_advance_request(),
    resolve=_ladder_advance_resolve,
    odds=lambda p: _sum_odds("inches", 1),
    examples=({},),
)

ACTIONS: tuple[Action, ...] = (MOVE, MOVE_GUN, INFIGHTING, FALL_BACK, LADDER_CLIMB, LADDER_ADVANCE)
