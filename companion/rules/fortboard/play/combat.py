"""Combat: every contact found as the combat phase began is fought in turn, figure
against figure, then ganging up and the keep's second fights; a climber who wins takes
the wall space, a catapult station taken lets its raiders go back in.

The last contact fought ends the turn (`turns.end_turn`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from companion.rules import odds as odds_helpers
from companion.rules.core import DiceGroup, DieKind, Odds, Outcome, RollRequest, counted
from companion.rules.fortboard import board, melee
from companion.rules.fortboard.layout import sentence
from companion.rules.fortboard.play.losses import wound
from companion.rules.fortboard.play.steps import Out, RollStep
from companion.rules.fortboard.play.turns import end_turn
from companion.rules.fortboard.state import ATTACKER, DEFENDER, Ask, Figure, GameState

# A melee's count, short enough for the result screen's big line at any number of
# fights ("fights won by the attacker" showed as a bare "3 fights").
MELEE_WINS = "wins for attacker"


def combat_next(state: GameState, out: Out) -> GameState:
    """Fight the next contact of those found as combat began, with the sides as they
    stand now. One that an earlier fight has left with no one on a side is passed over,
    and the play-by-play says why; contacts that combat itself makes (a climber on the
    wall beside a defender, a beaten defender among attackers in the courtyard) wait for
    next turn's combat: melee is simultaneous (1.1)."""
    while state.contacts:
        contact, rest = state.contacts[0], state.contacts[1:]
        state = replace(state, contacts=rest)
        attackers, defenders = board.contact_sides(state, contact)
        if not attackers or not defenders:
            why = _gone(attackers, defenders)
            out.log.append(f"{_contact_title(state, contact)}: not fought, {why}")
            continue
        n = min(len(attackers), len(defenders))
        title = _contact_title(state, contact)
        out.log.append(f"{title}: {len(attackers)} against {len(defenders)}")
        return state.push(
            Ask(
                "melee_roll",
                (contact, "1"),
                tuple(f.id for f in attackers[:n]),
                tuple(f.id for f in defenders[:n]),
            )
        )
    return end_turn(state.pop(), out)


def _gone(attackers: Sequence[Figure], defenders: Sequence[Figure]) -> str:
    """Why a contact is not fought: who is missing from it."""
    if not attackers and not defenders:
        return "no one left on either side"
    return "no attacker left" if not attackers else "no defender left"


def _contact_title(state: GameState, contact: str) -> str:
    """How the table calls a contact: a place, ladders, a bridge, a tower corner, a
    full place stormed from next door by the attackers or by the defenders, rubble."""
    kind, _, name = contact.partition(":")
    return {
        "place": "Melee at",
        "ladder": "Ladders up",
        "bridge": "Melee on",
        "corner": "Corner of",
        "storm": "Storming",
        "retake": "Retaking",
        "rubble": "Pikes over",
    }[kind] + f" {state.layout.label(name)}"


def _fig_value(state: GameState, f: Figure) -> int:
    barracks, keep = board.fort_penalty_flags(state)
    return melee.melee_value(
        f.kind,
        f.wounded,
        fort_defender=f.side == DEFENDER,
        barracks_fallen=barracks,
        keep_fallen=keep,
    )


def _melee_roll(state: GameState, ask: Ask) -> tuple[RollRequest, Odds | None]:
    contact, stage = ask.args
    n = len(ask.ids)
    request = RollRequest(
        f"{_contact_title(state, contact)}: {counted(n, 'fight')}"
        + (" (ganging up / second fights)" if stage == "2" else ""),
        (
            DiceGroup(DieKind.D6, n, "attackers", "each against the defenders' die in its place; "
                      "higher wounds"),
            DiceGroup(DieKind.D6, n, "defenders", "each against the attackers' die in its place; "
                      "higher wounds"),
        ),
    )
    if len(set(ask.ids)) != n or len(set(ask.more)) != n:
        return request, None
    total: dict[int, Fraction] = {0: Fraction(1)}
    for aid, did in zip(ask.ids, ask.more, strict=True):
        a, d = state.figure(aid), state.figure(did)
        if a is None or d is None:
            return request, None
        p = melee.fight_chances(_fig_value(state, a), _fig_value(state, d))[melee.ATTACKER_WINS]
        total = odds_helpers.add(total, {1: p, 0: 1 - p})
    return request, Odds(MELEE_WINS, total)


def _on_melee_roll(state: GameState, dice: tuple[int, ...], out: Out) -> GameState:
    ask = state.top
    contact, stage = ask.args
    n = len(ask.ids)
    a_dice, d_dice = dice[:n], dice[n:]
    state = state.pop()
    won = 0
    killed = False
    kind = contact.partition(":")[0]
    # the first round's pairs are simultaneous: each fights whatever the others did (a
    # climber dying shortens the ladder's list of defenders, yet his neighbour's fight
    # goes on); ganging up and second fights come one after another, each with the
    # sides as they stand (a man killed or driven back fights no more)
    at_roll = board.contact_sides(state, contact)
    for aid, did, x, y in zip(ask.ids, ask.more, a_dice, d_dice, strict=True):
        a, d = state.figure(aid), state.figure(did)
        attackers, defenders = at_roll if stage == "1" else board.contact_sides(state, contact)
        if a is None or d is None or a.id not in _ids(attackers) or d.id not in _ids(defenders):
            continue
        av, dv = _fig_value(state, a), _fig_value(state, d)
        result = melee.fight(av, dv, x, y)
        line = f"{a.label} {av}+{x} v {d.label} {dv}+{y}: "
        if result == melee.TIE:
            out.log.append(line + "tie")
            continue
        if result == melee.ATTACKER_WINS:
            won += 1
            out.log.append(line + "attacker wins")
            killed = killed or d.wounded
            state = wound(state, d, out)
            if kind in ("ladder", "bridge"):
                state = _ladder_win(state, a, d, out)
        else:
            out.log.append(line + "defender wins")
            killed = killed or a.wounded
            state = wound(state, a, out)
            if a.wounded and state.layout.place(d.place).kind == "station":
                alive_d = state.figure(d.id)
                if alive_d is not None:
                    state = state.with_figure(replace(alive_d, may_return=True))
    out.outcome = Outcome(
        won,
        MELEE_WINS,
        effects=frozenset({"killed"}) if killed else frozenset(),
        details=tuple(out.log),
    )
    if stage == "1":
        pairs = _fight_pairs_second(state, contact, ask)
        if pairs:
            return state.push(
                Ask(
                    "melee_roll",
                    (contact, "2"),
                    tuple(p[0] for p in pairs),
                    tuple(p[1] for p in pairs),
                )
            )
    return _after_contact(state, contact, out)


def _ids(figures: Sequence[Figure]) -> frozenset[int]:
    return frozenset(f.id for f in figures)


def _fight_pairs_second(state: GameState, contact: str, ask: Ask) -> tuple[tuple[int, int], ...]:
    """Ganging up (1.12): figures left over fight the survivors of the first
    fights; in the keep every defender fights a second time (1.9). Climbers
    beyond one a defended space wait in line on the ladders (1.3) unless the
    option `ladder_gang_up` lets them join in."""
    attackers, defenders = board.contact_sides(state, contact)
    a_first = [f for f in attackers if f.id in ask.ids]
    d_first = [f for f in defenders if f.id in ask.more]
    a_extra = [f for f in attackers if f.id not in ask.ids]
    if contact.startswith("ladder:") and not state.option("ladder_gang_up"):
        a_extra = []
    d_extra = [f for f in defenders if f.id not in ask.more]
    pairs: list[tuple[int, int]] = []
    if d_first:
        pairs += [(a.id, d_first[i % len(d_first)].id) for i, a in enumerate(a_extra)]
    if a_first:
        pairs += [(a_first[i % len(a_first)].id, d.id) for i, d in enumerate(d_extra)]
    keep = state.layout.building("keep")
    if contact in (f"place:{keep}", f"storm:{keep}") and attackers:
        # every keep defender fights once more: those matched in the first round,
        # and those ganging up now (their first fight is just above)
        pairs += [(attackers[i % len(attackers)].id, d.id) for i, d in enumerate(defenders)]
    return tuple(pairs)


def _ladder_win(state: GameState, attacker: Figure, defender: Figure, out: Out) -> GameState:
    """A climber (or a man on a bridge) who beats the defender on the wall
    takes his space (1.3, 1.11)."""
    beaten = state.figure(defender.id)
    if beaten is not None:
        if state.option("ladder_climb") == "kill_defender":
            return state
        back = state.layout.courtyard
        state = state.with_figure(replace(beaten, place=back))
        out.log.append(f"{beaten.label} is driven back to {back}")
    wall = defender.place
    climber = state.figure(attacker.id)
    if climber is not None and board.room(state, wall, ATTACKER) > 0:
        state = state.with_figure(replace(climber, place=wall))
        out.log.append(f"{climber.label} takes the space on {wall}")
    return state


def _after_contact(state: GameState, contact: str, out: Out) -> GameState:
    place = board.contact_place(state, contact)
    p = state.layout.place(place)
    taken = not board.at(state, place, ATTACKER)
    if contact.startswith("place:") and p.equipment == "catapult" and taken:
        for f in board.at(state, place, DEFENDER):
            state = state.with_figure(replace(f, may_return=True))
        engine = state.layout.engine_name(place)
        out.log.append(sentence(f"{engine} is taken: its raiders may go back in"))
    return state


ROLLS: dict[str, RollStep] = {
    "melee_roll": RollStep(_melee_roll, _on_melee_roll),
}
