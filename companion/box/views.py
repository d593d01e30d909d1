"""Building the box's screens from its state: which `Screen` to show now (`screen`),
the screen of each step (`step_screen`: draw a chip, choose, roll, game over), the
screens of what just happened (chip drawn, result, end of turn, new game, secret roll)
and the box's own pages (menu, dice entry, games to start, reveal).

This module decides what a screen says; `companion.ui.screens` lays a `Screen` out on
the OLED and draws it. It reads the box through `BoxState` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from companion.box.inputs import NewGames
from companion.box.state import Entry, UiState, hidden_secret
from companion.box.throw_plan import Throw, dice_order, throw_groups, throws, throws_read
from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    DieKind,
    GameOver,
    Outcome,
    RollRequest,
    Step,
    Transition,
)
from companion.session.events import DiceAccepted, Event
from companion.session.scenario_files import Picked, system_labels
from companion.session.session import GameSession, SecretRoll
from companion.ui.screens import Screen, body_rows, fits_item, fits_line
from companion.ui.wording import (
    action_named,
    capital,
    category_name,
    check_title,
    counted,
    dice_text,
    faces,
    first_fitting,
    headline,
    named_outcomes,
    next_hint,
    odds_line,
    pretty,
    rest_of,
    short_headline,
    singular,
    spaced,
    subject,
    topic,
    unbracketed,
    without_dice,
    yes_no,
)


class BoxState(Protocol):
    """What the screens read of the box (`companion.box.controller.Box` is one)."""

    @property
    def ui(self) -> UiState: ...

    @property
    def games(self) -> NewGames | None: ...

    @property
    def most_per_throw(self) -> Mapping[DieKind, int]: ...

    @property
    def has_game(self) -> bool: ...

    @property
    def session(self) -> GameSession: ...

    @property
    def step(self) -> Step: ...

    def entry_offered(self) -> bool: ...


# ------------------------------------------------------------ the page shown now


def screen(box: BoxState) -> Screen:
    """The screen to show now, scrolled where the referee scrolled it."""
    shown = page(box)
    if box.ui.scroll and box.ui.scrolled == shown:
        return replace(shown, scroll=box.ui.scroll)
    return shown


def page(box: BoxState) -> Screen:
    """The page to show now, from its top."""
    ui = box.ui
    if ui.message is not None:
        return ui.message
    if ui.mode == "menu":
        return Screen("menu", "Menu", items=tuple(label for _, label in ui.menu),
                      cursor=ui.cursor, footer="SEL ok  BACK close")
    if ui.mode == "entry" and ui.entry is not None:
        return entry_screen(ui.entry, box.step)
    secret = hidden_secret(box.session, ui) if ui.mode == "reveal" else None
    if secret is not None:
        return reveal_screen(secret)
    if ui.mode == "status":
        return Screen("status", "Game status", lines=box.session.describe(),
                      footer="any button: back")
    if ui.mode == "games":
        return games_screen(ui, box.has_game)
    if ui.mode == "confirm_new" and ui.picked is not None:
        return confirm_new_screen(ui, ui.picked)
    step = box.step
    if ui.mode == "pick_chip" and isinstance(step, AwaitChip):
        return Screen("menu", "Pick chip",
                      items=tuple(pick_label(chip, box.session) for chip in step.in_bag),
                      cursor=ui.cursor, footer="SEL pick  BACK cancel")
    if ui.result is not None:
        return ui.result
    return step_screen(box, step)


def step_screen(box: BoxState, step: Step) -> Screen:
    """The screen of a step waiting: draw a chip, choose, roll, or the game's end."""
    if isinstance(step, AwaitChip):
        return idle_screen(step, box.ui)
    if isinstance(step, AwaitChoice):
        return choice_screen(step, box.ui)
    if isinstance(step, AwaitRoll):
        return roll_screen(step, box.ui, box.most_per_throw, box.entry_offered())
    return summary_screen(step, box.session, box.games is not None)


# ------------------------------------------------------------ the steps


def devices_down(ui: UiState) -> list[str]:
    return [f"{capital(d)} down" for d in ui.faults if d != "display"]


def idle_screen(step: AwaitChip, ui: UiState) -> Screen:
    prompt = step.prompt or "Draw a chip"
    before, _, after = prompt.partition(":")
    title = first_fitting("title", prompt, before.strip() if after else "", "Draw a chip")
    lines = [counted(len(step.in_bag), "chip") + " in the bag", *devices_down(ui)]
    if title != prompt:
        rest = after.strip() if title == before.strip() else prompt
        if rest.lower().rstrip(".") != "draw a chip":
            lines.insert(0, capital(rest))
    hint = "SEL: pick chip" if "chip reader" in ui.faults else "hold SEL: menu"
    return Screen("idle", title, big="Draw a chip", lines=tuple(lines), footer=hint)


def choice_screen(step: AwaitChoice, ui: UiState) -> Screen:
    question = step.prompt
    if step.about and question.startswith(step.about) and question != step.about:
        rest = question[len(step.about) :]
        question = capital(rest.lstrip(": ") if rest.startswith(":") else rest.strip())
    if step.about:
        title = first_fitting("title", capital(step.about), "Choose")
        footer = question if title == capital(step.about) else step.prompt
    else:
        title = first_fitting("title", step.prompt, "Choose")
        footer = "SEL choose" if title == step.prompt else step.prompt
    return Screen("menu", title, items=tuple(o.label for o in step.options),
                  cursor=min(ui.cursor, len(step.options) - 1), footer=footer)


def roll_screen(step: AwaitRoll, ui: UiState, most: Mapping[DieKind, int],
                entry_offered: bool) -> Screen:
    """The dice to roll, or to roll next of a roll thrown in several (`most` a throw
    holds); `entry_offered`: SELECT enters the dice by hand."""
    request = step.request
    plan = throws(request, most)
    done = throws_read(plan, len(ui.partial))
    at = min(done, max(0, len(plan) - 1))
    groups = throw_groups(request, plan[at]) if plan else list(request.groups)
    check = check_title(request.reason)
    # The odds come before the reason's words when the title says what the
    # roll is for (the reason's topic, the check, whose throw it is).
    odds = "" if request.secret else odds_line(step.odds, request.groups)
    lines: list[str] = []
    if len(plan) > 1:
        labels = ", ".join(dict.fromkeys(g.label for g in groups))
        if request.secret:  # the title is what tells the players to hide the dice
            title = first_fitting("title", f"Secret roll {at + 1} of {len(plan)}",
                                  f"Secret {at + 1}/{len(plan)}")
        else:
            title = first_fitting("title", f"Throw {at + 1} of {len(plan)}: {labels}",
                                  f"Throw {at + 1}/{len(plan)}: {labels}",
                                  f"Throw {at + 1} of {len(plan)}")
        if done:
            lines.append(f"Read so far: {_read_so_far(request, plan, ui.partial)}")
        if labels not in title:
            lines.append(f"For {labels}")
        lines += [odds, request.reason]
    elif request.secret:
        title = "Secret roll"
        lines.append(request.reason)
    else:
        named = {capital(t): t for t in (request.reason, *topic(request.reason))}
        # Who rolls, when nothing longer fits: the odds come first, and under them
        # the rest of the reason (whom they shoot at, the aside in brackets).
        who = {t: t for t in (*unbracketed(request.reason), *subject(request.reason))}
        # Then what the dice are, as the result screen is titled: "Wounds" says
        # more than "Roll the dice", which the big line says already.
        dice = [capital(g.label) for g in request.groups[:1] if g.count]
        title = first_fitting("title", *named, check or "", *who, *dice, "Roll the dice")
        taken = named.get(title, who.get(title, ""))
        rest = "" if taken == request.reason else rest_of(request.reason, taken)
        lines += [rest, odds] if title == "Roll the dice" else [odds, rest]
    lines = [line for line in lines if line]
    lines += [f"{g.label}: {g.faces_meaning}" for g in groups
              if g.faces_meaning and not request.secret]
    if "camera" in ui.faults:
        footer = "No camera: SEL enter"
    elif entry_offered:
        footer = "SEL: enter by hand"
    else:
        footer = "hold SEL: menu"
    kind = "reading" if done and len(plan) > 1 else "check" if check else "roll"
    return Screen(kind, title, big=f"Roll {dice_text(groups)}", lines=tuple(lines),
                  footer=footer)


def _read_so_far(request: RollRequest, plan: list[Throw], read: list[int]) -> str:
    """The dice read for the throws made: their faces while a line holds them,
    else how many of the roll's dice are in."""
    if request.secret:
        return "hidden"
    kinds = [request.kinds[at] for at in dice_order(request, plan)]
    shown = spaced(tuple(kinds), read)
    if fits_line("footer", f"Read so far: {shown}"):
        return shown
    return f"{len(read)} of {counted(request.dice_count, 'die', 'dice')}"


def summary_screen(step: GameOver, session: GameSession, games_offered: bool) -> Screen:
    # Most rules end their summary with the state's description: not said twice.
    lines = (*step.summary,
             *(line for line in session.describe() if line not in step.summary))
    # "won" agrees with a side of one name or many ("Garrison", "Besiegers").
    big = first_fitting("big", f"{step.winner} won", step.winner) if step.winner else "Draw"
    footer = "SEL: new game" if games_offered else "hold SEL: menu"
    return Screen("summary", "Game over", big=big, lines=lines, footer=footer)


# ------------------------------------------------------------ the box's own pages


def entry_screen(entry: Entry, step: Step) -> Screen:
    """Dice entered by hand for the roll `step` waits on."""
    label = entry.labels[entry.at] if entry.labels else ""
    what = "Correct" if entry.correction else "Enter"
    count = f"{what} {entry.at + 1}/{len(entry.values)}"
    title = first_fitting("title", f"{count}: {label}" if label else count, count)
    reason = step.request.reason if isinstance(step, AwaitRoll) else ""
    # One line of context: the whole reason, or what it says after its topic.
    context = first_fitting("footer", reason, *(rest_of(reason, t) for t in topic(reason)),
                            reason)
    lines = ([label] if label and label not in title else []) + [context]
    last = entry.at + 1 == len(entry.values)
    return Screen(
        "entry", title,
        items=tuple(entry.kinds[i].describe_face(v) for i, v in enumerate(entry.values)),
        cursor=entry.at, lines=tuple(lines),
        footer="UP/DN value  SEL ok" if last else "UP/DN value  SEL next",
    )


def games_screen(ui: UiState, has_game: bool) -> Screen:
    labels = tuple(first_fitting_item(*choice.labels) for choice in ui.games)
    if has_game:
        return Screen("menu", "New game", items=labels, cursor=ui.cursor,
                      footer="SEL pick  BACK cancel")
    return Screen("menu", "Start a game", items=labels, cursor=ui.cursor,
                  footer="SEL start")


def confirm_new_screen(ui: UiState, picked: Picked) -> Screen:
    # The scenario's title where it shows whole, else the name it was listed by:
    # three lines in all, so that nothing needs the UP that would start the game.
    label = first_fitting_item(*ui.games[ui.cursor].labels)
    return Screen("warning", "Start a new game?",
                  lines=(first_fitting_item(picked.title, label), "This game is archived."),
                  footer="UP yes, any other no")


def reveal_screen(secret: SecretRoll) -> Screen:
    return Screen("secret", "Reveal secret?", lines=(capital(secret.reason),),
                  footer="UP reveals; any other button keeps it hidden")


def pick_label(chip: str, session: GameSession) -> str:
    """A chip in the pick list: its code and its unit's name, so the referee picks
    by name; the code alone where both would not show whole."""
    units = [u.name for u in session.record.scenario.units if u.chip == chip]
    if not units or units == [chip]:
        return chip
    label = f"{chip}: {' / '.join(units)}"
    return label if fits_item(label) else chip


def first_fitting_item(*labels: str) -> str:
    """The first label that shows whole as a menu item; the last one otherwise."""
    return next((label for label in labels if fits_item(label)), labels[-1])


# ------------------------------------------------------------ what just happened


def chip_screen(chip: str, transition: Transition, session: GameSession, step: Step) -> Screen:
    """The chip drawn: the unit it activates, its side and its state; `step` is the
    step waiting after the draw."""
    scenario = session.record.scenario
    unit = next((u for u in scenario.units if u.chip == chip), None)
    if unit is None and isinstance(step, AwaitChoice) and step.about:
        unit = next((u for u in scenario.units if u.name == step.about), None)
    title = first_fitting("title", f"Chip: {chip}", "Chip drawn")
    if unit is None:
        return Screen("chip", title, big=chip,
                      lines=transition.log or (next_hint(step),), footer="any button")
    now = [f"Now: {part}" for part in unit_state(unit.name, session)]
    # The strength it started with only where nothing says how it stands now
    # ("12 figures" over "Now: Tuareg Band 6" reads as a contradiction).
    lines = [f"{unit.side} · {unit.kind}"
             + ("" if now else f", {counted(unit.figures, 'figure')}"), *now]
    if not now:  # the draw's own line ("Chip S1: ...") says what the title does
        lines += [ln for ln in transition.log
                  if unit.name in ln and not ln.startswith(f"Chip {chip}")][:1]
    big = first_fitting("big", unit.name)
    return Screen("chip", title, big=big, lines=tuple(lines), footer=next_hint(step))


def unit_state(name: str, session: GameSession) -> list[str]:
    """The parts of the rules' game description about one unit: a line that
    lists a whole side ("FFL: Legion 1 7, Legion 2 6") is cut down to its part."""
    found: list[str] = []
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    for line in session.describe():
        for part in _outside_brackets_split(line.strip()):
            side, colon, rest = part.partition(": ")
            if colon and not pattern.search(side):
                part = rest
            if pattern.search(part) and part.strip() != name:
                found.append(part)
    return found


def _outside_brackets_split(line: str) -> list[str]:
    """A description line cut at its "; " and ", ", but not inside brackets:
    "Maxim 3 (1 wounded) [jammed, hero]" is one part."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(line):
        depth += (char in "([") - (char in ")]")
        if depth == 0 and char in ";," and line[at + 1 : at + 2] == " ":
            parts.append(line[start:at])
            start = at + 2
    return [*parts, line[start:]]


def result_screen(step: Step, event: Event, outcome: Outcome, after: Step) -> Screen:
    """The outcome of answering `step` with `event`; `after` is the step waiting next."""
    request = step.request if isinstance(step, AwaitRoll) else None
    odds = step.odds if isinstance(step, AwaitRoll) else None
    # The odds of the headline shown, when they are (not those of another count):
    # every value it could take (a "killed" that could be 3 is a count, not a yes
    # or no), and the chance of each.
    exact = odds if odds is not None and odds.headline_label == outcome.headline_label \
        else None
    values = tuple(exact.headline) if exact is not None else ()
    title = "Result"
    if request is not None:
        named_by = [check_title(request.reason) or "", *unbracketed(request.reason),
                    *subject(request.reason), *action_named(request.reason)]
        named_by += [capital(g.label) for g in request.groups[:1] if g.count]
        title = first_fitting("title", capital(request.reason),
                              *map(capital, topic(request.reason)), *named_by, "Result")
    lines: list[str] = []
    named = named_outcomes(outcome.headline_label, request.groups if request else (),
                           odds.names if odds else None)
    # The words already on the screen, which an effect or a detail need not repeat.
    said = {outcome.headline_label, *outcome.headline_label.split()}
    shown_is_one_outcome = named is not None or yes_no(outcome.headline_label,
                                                         values or [outcome.headline])
    if named is not None:
        noun, names = named
        name = category_name(outcome.headline, names)
        # A roll-off's tie names no side ("Goes first: tie" reads as if one called
        # "tie" did): it says what happens instead, the same dice again.
        rolled_again = name == "tie" and outcome.follow_up is not None
        big = (first_fitting("big", "Tie: roll again", "Tie") if rolled_again
               else first_fitting("big", capital(f"{noun}: {name}"), capital(name)))
        said |= {noun, name}
        # The name alone under a title that says what was rolled for ("Legion"
        # under "Activation toss") is enough; "Result" needs the noun said.
        if noun and big == capital(name) and title == "Result":
            lines.append(capital(f"{noun}: {name}"))
    else:
        # Too long for the headline: the number and its key word large, all of it below.
        full = headline(outcome, values)
        big = first_fitting("big", full, *short_headline(outcome, values))
        said.add(full)
        if big != full:
            lines.append(full)
    said = {w.lower() for w in said} | {singular(w.lower()) for w in said}
    shown_dice: list[tuple[str, str]] = []  # (words shown with them, dice)
    # one group's dice are all the dice: "Arab rifles: 6, 3 -> 1 hit" says "1 hit"
    rolled = [g for g in request.groups if g.count] if request is not None else []
    group_labels = [rolled[0].label] if len(rolled) == 1 else []
    if isinstance(event, DiceAccepted) and event.dice and request is not None:
        shown_dice = [("", faces(request.kinds, event.dice)),
                      *dice_by_group(request, event.dice)]
        lines += dice_lines(request, event.dice)
    # An effect that only names the headline again ("Sighted" under "Sighted:
    # yes", "Martinet" under "Type: martinet", "Hit" under "1 hit"), or, being
    # exactly as likely, the very outcome shown ("First activates" under "Legion",
    # "Morale failed" under "Passed: no"), is not said twice.
    same: set[str] = set()
    if exact is not None and shown_is_one_outcome:
        shown_chance = exact.headline.get(outcome.headline)
        same = {name for name, chance in exact.effects.items() if chance == shown_chance}
    effects = ", ".join(pretty(e) for e in sorted(outcome.effects)
                        if pretty(e).lower() not in said and e not in same)
    if effects:
        lines.append(capital(effects))
    # Every detail, less the dice the "Dice" line shows ("rolled 3, 4: 0 hits"
    # under "0 hits" says nothing): the page scrolls, and a casualty or a
    # modifier left off it is one the referee never hears of.
    for line in outcome.changes or outcome.details:
        for label, dice in shown_dice:
            shorter = (without_dice(line, dice, (title, big, *group_labels)) if not label
                       else _without_group_dice(line, label, dice))
            if shorter != line:
                line = shorter
                break
        if line and line.lower() not in said and line.lower() != big.lower():
            lines.append(line)
    return Screen("result", title, big=big, lines=tuple(lines), footer=next_hint(after))


def dice_by_group(request: RollRequest, dice: tuple[int, ...]) -> list[tuple[str, str]]:
    """Each group's label and its dice as the rules write them ("6, 6, 3"), when
    the result screen shows the groups apart: of one kind and named apart, so
    that two sides' dice do not run together. Empty otherwise."""
    groups = [g for g in request.groups if g.count]
    labels = [g.label for g in groups]
    if len(groups) < 2 or len({g.kind for g in groups}) > 1 or len(set(labels)) < len(labels) \
            or any(not label for label in labels) or len(dice) != request.dice_count:
        return []
    out, at = [], 0
    for group in groups:
        out.append((group.label, faces((group.kind,) * group.count, dice[at : at + group.count])))
        at += group.count
    return out


def _without_group_dice(line: str, label: str, dice: str) -> str:
    """A group's detail without the dice its own line shows: "Arab rifles: 6, 6, 3
    -> 1 hit" under "Arab rifles 6 6 3" says "Arab rifles: 1 hit"."""
    found = re.match(rf"^(?P<label>{re.escape(label)}):?\s+{re.escape(dice)}\s*(?:->|:)\s*"
                     r"(?P<rest>.+)$", line, re.IGNORECASE)
    return f"{found['label']}: {found['rest']}" if found else line


def dice_lines(request: RollRequest, dice: tuple[int, ...]) -> list[str]:
    """The dice read, as the result screen shows them: "Attackers 5 1 5 1" and
    "Defenders 2 4 1 4" (`dice_by_group`), else "Dice 30 9"."""
    groups = dice_by_group(request, dice)
    if not groups:
        return [f"Dice {spaced(request.kinds, dice)}"]
    return [f"{capital(label)} {values.replace(', ', ' ')}" for label, values in groups]


def turn_end_screen(transition: Transition, session: GameSession, after: Step) -> Screen:
    """The turn's end and where the game stands; `after` is the step waiting next."""
    title = next((ln for ln in transition.log if ln.lower().startswith("end of turn")),
                 "End of turn")
    return Screen("check", first_fitting("title", title, "End of turn"),
                  lines=session.describe(), footer=next_hint(after))


def secret_roll_screen(reason: str) -> Screen:
    """A secret roll recorded without showing its dice."""
    return Screen("secret", "Secret roll", lines=("Recorded, not shown.", reason),
                  footer="hold SEL: menu")


def revealed_screen(secret: SecretRoll) -> Screen:
    """A secret roll shown at last, the menu's "Reveal secret" answered UP."""
    return Screen("result", "Secret revealed", big="  ".join(map(str, secret.dice)),
                  lines=(secret.reason, *secret.log), footer="any button")


def new_game_screen(session: GameSession, had_game: bool, step: Step) -> Screen:
    """The new game's first screen: what was started, and where the last game went."""
    ruleset, scenario = session.ruleset, session.record.scenario
    # The system and the scenario in two lines, so that the line saying where the
    # last game went shows too, without scrolling.
    named = [f"{name}: {scenario.title}" for name in system_labels(ruleset)]
    started = next((text for text in named if body_rows(text) <= 2), scenario.title)
    lines = (started, *(["Last game archived."] if had_game else []))
    return Screen("start", "New game", lines=lines, footer=next_hint(step))
