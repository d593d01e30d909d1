"""Charge resolution: both sides in contact roll, then Come On!, then the result."""

from __future__ import annotations

from collections.abc import Sequence
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
    bool_param,
    counted,
    int_param,
    str_param,
)
from companion.rules.grammar import agree
from companion.rules.odds import odds_from_outcomes
from companion.rules.on_the_frontier import tables
from companion.rules.on_the_frontier.params import (
    hit_faces,
    hit_faces_text,
    hits_distribution,
    signed,
)
from companion.rules.on_the_frontier.shooting import (
    NATURAL_SIX_PARAM,
    ODD_FIGURES_PARAM,
    dice_for_figures,
)

ARTILLERY_DICE_READINGS: tuple[str, ...] = ("per_gunner", "per_gun")


def charge_modifier(
    kind: str, shock: bool, enemy_in_cover: bool, enemy_in_square: bool
) -> tuple[int, tuple[str, ...]]:
    total = 0
    reasons = []
    if shock:
        total += tables.SHOCK_TROOPS_MODIFIER
        reasons.append("shock troops +1")
    if enemy_in_cover:
        total += tables.ENEMY_IN_COVER_MODIFIER
        reasons.append("enemy in cover, behind an obstacle or uphill -1")
    if enemy_in_square and kind == "cavalry":
        total += tables.CAVALRY_VS_SQUARE_MODIFIER
        reasons.append("cavalry against a square -1")
    return total, tuple(reasons)


CHARGE_PARAMS = (
    Param("kind", ParamKind.CHOICE, "troop type", "infantry", choices=tables.UNIT_KINDS),
    Param("figures", ParamKind.INT, "figures in contact (both ranks count)", 8, 1, 60),
    Param("shock", ParamKind.BOOL, "shock troops (bayonets, veterans... by scenario)", False),
    Param("enemy_in_cover", ParamKind.BOOL, "enemy in cover, behind an obstacle or uphill", False),
    Param("enemy_in_square", ParamKind.BOOL, "enemy formed in square (cavalry -1)", False),
    ODD_FIGURES_PARAM,
    NATURAL_SIX_PARAM,
    Param(
        "artillery_dice",
        ParamKind.CHOICE,
        "guns: a die per gunner or per gun's crew",
        "per_gunner",
        choices=ARTILLERY_DICE_READINGS,
    ),
    Param("guns", ParamKind.INT, "guns in the unit (with artillery_dice=per_gun)", 1, 1, 60),
)


def contact_dice(kind: str, figures: int, odd_figures: str, artillery_dice: str, guns: int) -> int:
    """Dice for the figures in contact; with the per-gun reading a gun's crew rolls one die
    as long as one of its gunners stands."""
    if kind == "artillery" and artillery_dice == "per_gun":
        return min(guns, figures)
    return dice_for_figures(figures, tables.charge_row(kind).figures_per_die, odd_figures)


def _charge_setup(params: Params) -> tuple[int, int, frozenset[int], tuple[str, ...]]:
    kind = str_param(params, "kind")
    row = tables.charge_row(kind)
    dice = contact_dice(
        kind,
        int_param(params, "figures"),
        str_param(params, "odd_figures"),
        str_param(params, "artillery_dice"),
        int_param(params, "guns"),
    )
    modifier, reasons = charge_modifier(
        kind,
        bool_param(params, "shock"),
        bool_param(params, "enemy_in_cover"),
        bool_param(params, "enemy_in_square"),
    )
    faces = hit_faces(row.hit_on, modifier, bool_param(params, "natural_six"))
    if kind == "artillery" and str_param(params, "artillery_dice") == "per_gun":
        reasons = (f"a die per gun's crew ({counted(int_param(params, 'guns'), 'gun')})", *reasons)
    return dice, modifier, faces, reasons


def charge_request(params: Params) -> RollRequest:
    dice, modifier, faces, _ = _charge_setup(params)
    return RollRequest(
        f"{params['kind']} in contact, {signed(modifier)} a die",
        (DiceGroup(DieKind.D6, dice, f"{params['kind']} in contact", hit_faces_text(faces)),),
    )


def charge_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    (rolled,) = charge_request(params).split(dice)
    count, modifier, faces, reasons = _charge_setup(params)
    hits = sum(1 for d in rolled if d in faces)
    return Outcome(
        hits,
        "hits",
        details=(
            f"{counted(int_param(params, 'figures'), str_param(params, 'kind') + ' figure')}: "
            f"{counted(count, 'die', 'dice')}, 5+ to hit, {signed(modifier)} a die",
            *reasons,
            f"rolled {', '.join(map(str, rolled)) or 'nothing'}: {counted(hits, 'hit')}",
        ),
    )


def charge_odds(params: Params) -> Odds:
    dice, _, faces, _ = _charge_setup(params)
    return Odds("hits", hits_distribution(dice, faces))


CHARGE_DICE = Action(
    name="charge-dice",
    title="Charge resolution dice",
    help="One side's dice in contact: 1 per 2 infantry (both ranks), 1 per gunner (or per "
    "gun: artillery_dice=per_gun), 1 per horseman; 5-6 hit; +1 shock troops, "
    "-1 enemy in cover/obstacle/uphill, -1 cavalry against a square.",
    params=CHARGE_PARAMS,
    request=charge_request,
    resolve=charge_resolve,
    odds=charge_odds,
    examples=(
        {"kind": "infantry", "figures": 8},
        {"kind": "cavalry", "figures": 4, "shock": True, "enemy_in_square": True},
        {"kind": "artillery", "figures": 3, "enemy_in_cover": True},
        {"kind": "artillery", "figures": 8, "artillery_dice": "per_gun", "guns": 2},
    ),
)

# ------------------------------------------------------------------- Come On!

COME_ON_USES: tuple[str, ...] = ("cancel", "inflict", "either")
# What a 5-6 does, by `use`: its effect, the headline's label and the words for it.
_COME_ON_USE = {
    "cancel": ("hit_cancelled", "hits cancelled", "cancel one hit taken"),
    "inflict": ("hit_inflicted", "hits inflicted", "inflict one more hit"),
}
# "either" is the box's own: the player picks after seeing the die, so the roll's
# headline names what the die allows rather than counting hits.
COME_ON_EITHER_LABEL = "Come On! (0 no effect, 1 cancel or inflict, 2 commander hit)"
COME_ON_COMMANDER_HIT = 2


def come_on_request(params: Params) -> RollRequest:
    return RollRequest(
        "Come On!: the commander with the unit in contact must roll",
        (DiceGroup(DieKind.D6, 1, "Come On!", "5-6 cancel or inflict a hit; 1 commander hit"),),
    )


def _come_on_face(use: str, face: int) -> tuple[int, str, frozenset[str], str]:
    """The headline, its label, the effects and the words for one face of the die."""
    result = tables.commander_result(tables.COME_ON_TABLE, face)
    either = use == "either"
    effect, label, text = _COME_ON_USE.get(
        use, ("", COME_ON_EITHER_LABEL, "cancel or inflict a hit")
    )
    if result == "cancel_or_inflict":
        return 1, label, frozenset() if either else frozenset({effect}), text
    if result == "commander_hit":
        headline = COME_ON_COMMANDER_HIT if either else 0
        words = "the commander is hit; replaced at the end of next turn"
        return headline, label, frozenset({"commander_hit"}), words
    return 0, label, frozenset(), "no effect"


def come_on_resolve(params: Params, dice: Sequence[int]) -> Outcome:
    ((die,),) = come_on_request(params).split(dice)
    headline, label, effects, text = _come_on_face(str_param(params, "use"), die)
    return Outcome(headline, label, effects, (f"Come On! {die}: {text}",))


def come_on_odds(params: Params) -> Odds:
    use = str_param(params, "use")
    weighted: list[tuple[Fraction, int, frozenset[str]]] = []
    label = ""
    for face in DieKind.D6.faces:
        headline, label, effects, _ = _come_on_face(use, face)
        weighted.append((Fraction(1, 6), headline, effects))
    return odds_from_outcomes(label, weighted)


COME_ON = Action(
    name="come-on",
    title="Come On!",
    help="The commander leading a unit in contact has to roll: 5-6 cancels a hit taken or "
    "inflicts one more, 1 hits the commander (replaced at the end of the next turn).",
    params=(
        Param(
            "use",
            ParamKind.CHOICE,
            "what a 5-6 does (either: chosen after the roll)",
            "cancel",
            choices=COME_ON_USES,
        ),
    ),
    request=come_on_request,
    resolve=come_on_resolve,
    odds=come_on_odds,
    examples=({"use": "cancel"}, {"use": "inflict"}, {"use": "either"}),
)

# ------------------------------------------------------------------- the result


@dataclass(frozen=True)
class ChargeResult:
    loser: str  # "attacker", "defender" or "" for a tie
    attacker_moves: str  # "stands", "retreats", "falls_back", "routs"
    defender_moves: str  # "stands", "retreats", "routs"
    lines: tuple[str, ...]


def _loses(name: str, shaken: bool) -> str:
    if shaken:
        return agree(name, "loses: shaken, it routs", "lose: shaken, they rout")
    return agree(name, "loses: it retreats a full move", "lose: they retreat a full move")


def charge_result(
    attacker_took: int,
    defender_took: int,
    attacker_shaken: bool,
    defender_shaken: bool,
    attacker: str = "the attacker",
    defender: str = "the defender",
) -> ChargeResult:
    """Who gives ground: more hits taken than inflicted retreats a full move (a shaken
    unit routs instead); a tie sends the attacker back half a move. The lines name the
    units `attacker` and `defender`."""
    if attacker_took > defender_took:
        moves = "routs" if attacker_shaken else "retreats"
        return ChargeResult("attacker", moves, "stands", (_loses(attacker, attacker_shaken),))
    if defender_took > attacker_took:
        moves = "routs" if defender_shaken else "retreats"
        return ChargeResult("defender", "stands", moves, (_loses(defender, defender_shaken),))
    tied = "tied: " + agree(attacker, "falls back half a move", "fall back half a move")
    return ChargeResult("", "falls_back", "stands", (tied,))
