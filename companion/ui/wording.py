"""The box's words: how dice, odds, outcomes, positions and next steps are said
on a 128x64 screen and in the play-by-play. Pure functions of rules data.

Labels come from five rule systems written by different hands, so the headline
is worded from the label's shape: a count ("3 hits", "1 inch"), a value
("Target number: 6"), a yes/no ("Passed: yes") or a category ("Winner: defender").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from companion.rules.core import (
    AwaitChip,
    AwaitChoice,
    AwaitRoll,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Step,
)
from companion.rules.core import counted as counted  # re-exported: the box words counts with it
from companion.ui.screens import fits_line

# An AwaitRoll whose reason says this is a check made at the end of a turn or
# an attack, and the title its screen gets.
CHECKS = (
    (re.compile(r"\bresolve\b", re.I), "Resolve check"),
    (re.compile(r"\bammunition|\bammo\b", re.I), "Ammunition check"),
    (re.compile(r"\bmorale\b", re.I), "Morale check"),
    (re.compile(r"\brally\b", re.I), "Rally check"),
    (re.compile(r"\bend of (the )?(turn|attack)\b|\bafter the attack\b", re.I),
     "End-of-attack check"),
)


def dice_text(groups: Sequence[DiceGroup]) -> str:
    """'4d6 + 1d10' for the headline; percentile dice read 'd%'."""
    parts = [f"{g.count}{'d%' if g.kind is DieKind.PERCENTILE else g.kind.value}"
             for g in groups if g.count]
    return " + ".join(parts) or "no dice"


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


# A headline label naming categories rather than a count, e.g. "winner (1
# attacker, 2 defender, 0 tie)" or "side activating (0 = tie)": an average of
# it means nothing, so the box names the category instead.
_CATEGORICAL = re.compile(r"^(?P<noun>[^()]*?)\s*\((?P<names>[^()]*)\)\s*$")
_CATEGORY = re.compile(r"^\s*(-?\d+)\s*=?\s*(.+?)\s*$")


def categories(label: str, groups: Sequence[DiceGroup] = ()) -> tuple[str, dict[int, str]] | None:
    """The noun and the names of a categorical headline label, or None for a count.

    Values the label does not name are taken as the number of a dice group (1 is
    the first group: "first side"), which is how the systems that name only the
    tie use them.
    """
    found = _CATEGORICAL.match(label)
    if found is None:
        return None
    names: dict[int, str] = {}
    for item in found["names"].split(","):
        named = _CATEGORY.match(item)
        if named is None:
            return None
        names[int(named[1])] = named[2]
    if names.get(1) == "yes":
        names.setdefault(0, "no")
    for number, group in enumerate(groups, start=1):
        names.setdefault(number, group.label)
    return found["noun"], names


def category_name(value: int, names: dict[int, str]) -> str:
    return names.get(value, str(value))


def named_outcomes(label: str, groups: Sequence[DiceGroup] = (),
                   names: Mapping[int, str] | None = None) -> tuple[str, dict[int, str]] | None:
    """The noun and the outcome names of a headline that names its values, or
    None for a count. The names are the rules' own (`Odds.names`) or the label's
    legend ("winner (1 attacker, 2 defender)", "sighted (1 = yes)")."""
    found = categories(label, groups)
    noun, known = found if found is not None else (label, {})
    known = {**known, **(names or {})}
    return (noun, known) if known else None


def odds_line(odds: Odds | None, groups: Sequence[DiceGroup] = ()) -> str:
    """The odds of a roll in a few words, by what its headline is:

    - one outcome among several (who activates, which target: names from the
      rules' `Odds.names` or the label's own legend): the likeliest by name,
      "Legion 45%, Arabs 45%, tie 10%", or "each 17%" when all are alike;
    - yes or no (the headline is 0 or 1): the chance of yes, "passed 62%";
    - a count (hits, casualties, inches): the average and the chance of at
      least one, "avg 1.3 hits, 77% 1+"; when follow-up rolls add to it
      (`Odds.follow_up_mean`, e.g. a Maxim's 6s earning more dice), the whole
      chain's average too, named by the rules: "avg 4.0 hits (4.8 with 6s'
      dice), >99% 1+";

    then the chances of up to two side effects not already said ("pinned 12%").
    """
    if odds is None:
        return ""
    label = odds.headline_label
    likeliest = sorted(odds.headline.items(), key=lambda kv: (-kv[1], kv[0]))
    noun, names = named_outcomes(label, groups, odds.names) or (label, {})
    said: set[Fraction] = set()
    if names and set(names.values()) != {"yes", "no"}:
        said = {chance for _, chance in likeliest}
        if len(likeliest) > 2 and len(said) == 1:
            parts = [f"each {percent(likeliest[0][1])}"]
        else:
            parts = [f"{category_name(value, names)} {percent(chance)}"
                     for value, chance in likeliest[:3]]
            if len(likeliest) > 3:
                parts.append(f"others {percent(sum((c for _, c in likeliest[3:]), Fraction(0)))}")
    elif len(odds.headline) == 1 and not names:
        # A roll whose headline cannot vary (a jammed gun's clearing roll scores no
        # hits) is not a chance of anything: "hits 0%" read as a broken figure.
        [(only, _certain)] = odds.headline.items()
        parts = [f"{only} {label} for certain"]
        said = {Fraction(1)}
    elif set(odds.headline) <= {0, 1} and not odds.follow_up_mean:
        yes = Fraction(odds.headline.get(1, 0))
        parts = [f"{noun} {percent(yes)}"]
        said = {yes, 1 - yes}
    else:
        # A headline its follow-ups add to is a count even on one die.
        parts = [f"avg {float(odds.mean()):.1f} {label}".rstrip()]
        chain = f"{float(odds.mean() + (odds.follow_up_mean or 0)):.1f}"
        if odds.follow_up_mean and chain != f"{float(odds.mean()):.1f}":
            parts[0] += f" ({chain} {odds.follow_up_label})"
        if min(odds.headline) <= 0 < max(odds.headline):
            parts.append(f"{percent(odds.at_least(1))} 1+")
            said = {odds.at_least(1)}
    # An effect as likely as something already said is, as a rule, the same event
    # named twice (a tie, the loser killed, the hit figure's death).
    effects = [(name, chance) for name, chance in odds.effects.items()
               if chance and chance not in said and pretty(name) not in (label, noun)]
    parts += [f"{pretty(name)} {percent(chance)}" for name, chance in effects[:2]]
    return ", ".join(parts)


def faces(kinds: tuple[DieKind, ...], dice: tuple[int, ...] | list[int],
          between: str = ", ") -> str:
    """Dice as read on their faces: a percentile tens die 3 reads '30'. The rules
    write them with commas; the screen and the play-by-play with spaces (`spaced`),
    as a comma drawn one-bit beside a 0 makes it read Q."""
    return between.join(k.describe_face(v) for k, v in zip(kinds, dice, strict=False))


def spaced(kinds: tuple[DieKind, ...], dice: tuple[int, ...] | list[int]) -> str:
    return faces(kinds, dice, " ")


def pretty(name: str) -> str:
    return name.replace("_", " ")


# Plurals the first word of a headline label may have, and their singular.
_IRREGULAR = {"men": "man", "women": "woman", "feet": "foot"}


def singular(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("'s"):  # possessive: "attacker's margin" is a value, not a count
        return word
    if word.endswith(("us", "is")):  # "bonus", "axis": singular already
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# A label that states something happened ("passed", "spotted", "attacker wins",
# "leader hit") rather than counting things: its 0 and 1 mean no and yes.
_YES_NO = re.compile(r"^(\w+ed|.* wins|(.* )?hit|.* lost)$")

# A word saying what happened to the things counted ("men removed", "defenders
# beaten", "killed"): a label ending in one counts, and when the label must be
# cut short this word keeps its meaning ("0 beaten"; "0 defenders" misleads).
_HAPPENED = re.compile(r"^(\w+ed|lost|hurt|hit|beaten|taken|slain|fallen|shot|won)$")


def yes_no(label: str, values: Collection[int]) -> bool:
    """Whether the label's 0 and 1 mean no and yes. `values` are all the values the
    headline can take when known (the roll's odds): a label like "killed" counts
    figures when 2 or 3 can be killed, and reads "0 killed", not "Killed: no"."""
    return bool(_YES_NO.match(label)) and set(values) <= {0, 1}


def counts(label: str) -> bool:
    """Whether a headline label counts things ("hits", "command points", "extra men",
    "crew removed", "killed") rather than naming a value ("target number", "CP",
    "attacker's margin"): it has a plural word, or ends saying what happened."""
    words = label.split()
    return bool(words) and (any(singular(w) != w for w in words)
                            or bool(_HAPPENED.match(words[-1])))


def _key_word(label: str) -> int:
    """Which word of a count's label carries its meaning alone: what happened
    ("beaten" of "defenders beaten"), else the thing counted ("points" of
    "command points", "wins" of "wins for attacker")."""
    words = label.split()
    for at in range(len(words) - 1, -1, -1):
        if _HAPPENED.match(words[at]):
            return at
    return next((at for at, w in enumerate(words) if singular(w) != w), len(words) - 1)


def headline(outcome: Outcome, values: Collection[int] = ()) -> str:
    """'3 hits', '1 hit', '13 inches', '1 extra man' (the counted word agrees);
    'Passed: yes' for a label that says whether something happened, and
    'Target number: 6' for one that names a value rather than counting.
    `values`: every value the headline can take, when the odds say."""
    label = outcome.headline_label
    if yes_no(label, values or [outcome.headline]):
        return f"{capital(label)}: {'yes' if outcome.headline else 'no'}"
    if not label:
        return str(outcome.headline)
    if not counts(label):
        return f"{capital(label)}: {outcome.headline}"
    if outcome.headline == 1:
        words = label.split()
        plural = next((at for at, w in enumerate(words) if singular(w) != w), None)
        if plural is not None:
            words[plural] = singular(words[plural])
        label = " ".join(words)
    return f"{outcome.headline} {label}"


def short_headline(outcome: Outcome, values: Collection[int] = ()) -> tuple[str, ...]:
    """Shorter headlines, best first, for when `headline` is too wide for the big
    line: "Yes", "6", or the number with the one word that means something alone
    ("0 beaten" of "0 defenders beaten", "6 points" of "6 command points")."""
    label = outcome.headline_label
    if yes_no(label, values or [outcome.headline]):
        return ("Yes" if outcome.headline else "No",)
    if not counts(label):
        return (str(outcome.headline),)
    shown = headline(outcome, values).split()[1:]  # the label as shown, agreeing
    return (f"{outcome.headline} {shown[_key_word(label)]}", str(outcome.headline))


def check_title(reason: str) -> str | None:
    for pattern, title in CHECKS:
        if pattern.search(reason):
            return title
    return None


def first_fitting(kind: str, *candidates: str) -> str:
    """The first candidate that fits a line of that kind ("title", "footer", "big")
    without being shortened; the last one otherwise."""
    for text in candidates:
        if text and fits_line(kind, text):
            return text
    return candidates[-1]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def next_hint(step: Step) -> str:
    """The next step in a few words, for a result screen's footer (one line)."""
    if isinstance(step, AwaitChip):
        return "Next: draw a chip"
    if isinstance(step, AwaitChoice):
        # The question itself says more than "Next:" and a bare unit's name.
        return first_fitting("footer", f"Next: {step.prompt}", step.prompt,
                             f"Next: {step.about}" if step.about else "", "Next: a choice")
    if isinstance(step, AwaitRoll):
        if step.request.secret:
            return "Next: a secret roll"
        kind = check_title(step.request.reason)
        dice = dice_text(step.request.groups)
        return first_fitting("footer", f"Next: {kind.lower() if kind else 'roll'} {dice}",
                             f"Next: roll {dice}", "Next: a roll")
    return "Next: game over"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def where_on_tray(box: tuple[int, ...], everyone: list[tuple[int, ...]]) -> str:
    """Which die, in words a referee can use: 'the die 2nd from the left'.

    Positions are counted among all the dice the camera found (read or not),
    left to right by their centres; pixel coordinates mean nothing at the table.
    Empty when there is one die or the position is unknown.
    """
    known = [b for b in everyone if len(b) >= 4 and (b[2] or b[3])]
    if box not in known or len(known) < 2:
        return ""
    centres = sorted(b[0] + b[2] / 2 for b in known)
    rank = centres.index(box[0] + box[2] / 2)
    if rank == 0:
        return "the leftmost die"
    if rank == len(centres) - 1:
        return "the rightmost die"
    return f"the die {ordinal(rank + 1)} from the left"


def _split(reason: str) -> tuple[str, str, str]:
    """A reason cut at its first colon outside brackets: "Arab command points
    (halved: leader lost)" has no topic, and "Leader lost)" is no title."""
    depth = 0
    for at, char in enumerate(reason):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ":" and depth <= 0:
            return reason[:at], ":", reason[at + 1 :]
    return reason, "", ""


def topic(reason: str) -> tuple[str, ...]:
    """A reason's topic, the words before its colon ("Activation toss" of
    "Activation toss: a d10 each, ..."), as a shorter title."""
    topic, colon, _ = _split(reason)
    return (topic.strip(),) if colon and topic.strip() else ()


# The words that end who acts in a reason: "Tower bows at the defenders ...",
# "Melee on E tower bridge", "effect of 3 hits on legionnaires".
_AT = (" at ", " on ")


def subject(reason: str) -> tuple[str, ...]:
    """Who acts in a reason's topic (or in a reason with no topic), the words
    before " at " or " on " ("Tower bows" of "Tower bows at the defenders on East
    wall: ...", "FFL fire" of "FFL fire at a target in the open"), as a still
    shorter title."""
    for shorter in topic(reason) or (reason,):
        for at in _AT:
            who, found, _ = shorter.partition(at)
            if found and who.strip():
                return (capital(who.strip()),)
    return ()


def unbracketed(reason: str) -> tuple[str, ...]:
    """A reason without the aside in brackets at its end ("Arab command points" of
    "Arab command points (halved: leader lost)"), as a shorter title."""
    found = re.match(r"^(?P<head>[^()]+?)\s*\((?P<aside>[^()]*)\)\s*$", reason)
    return (capital(found["head"]),) if found else ()


def action_named(reason: str) -> tuple[str, ...]:
    """What is rolled for, the words after a reason's topic up to the next colon or
    comma ("Melee round" of "Legion Standing v Riders 1: Melee round: 1 pair, ...").
    Not a count ("1 fight" of "Melee on E tower bridge: 1 fight" names nothing)."""
    _, colon, rest = _split(reason)
    named = rest.split(":")[0].split(",")[0].strip()
    return (capital(named),) if colon and named and not named[0].isdigit() else ()


def rest_of(reason: str, title: str) -> str:
    """What a title taken from the reason leaves to say in the body."""
    topic, colon, rest = _split(reason)
    if colon and topic.strip() == title:
        return capital(rest.strip())
    for head in unbracketed(reason):
        if head == title:  # the aside: "Halved: leader lost"
            return capital(reason[len(head) :].strip().removeprefix("(").removesuffix(")"))
    for at in _AT:  # the title says who: "At Foot A Coy: ..."
        if title and capital(reason).startswith(f"{title}{at}"):
            return capital(reason[len(title) + 1 :])
    return reason


def without_dice(line: str, dice: str, shown: Sequence[str] = ()) -> str:
    """A detail line without the dice a result screen already shows on its "Dice"
    line: "rolled 3, 4: 0 hits" says "0 hits", and under a "0 hits" headline
    nothing ("" : leave it out); "rolled 9, 4, 0, 7: 2 hits, each kills a figure"
    says "Each kills a figure". Only the dice at the start of the line, after
    "rolled" or after words the screen shows (its title: "Steady! 1: ..."), are
    taken for a repeat: in "Riders 1: no impact" the 1 is a unit's number.
    """
    found = re.match(rf"^(?P<pre>\D*?)\s*(?:rolled\s+)?{re.escape(dice)}(?::| ->)\s+(?P<rest>.+)$",
                     line)
    if found is None:
        return line
    pre = found["pre"].strip().rstrip(":").strip().lower()
    if pre and pre != "rolled" and not any(pre in text.lower() for text in shown):
        return line
    rest = found["rest"].strip()
    for text in shown:
        if rest.lower() == text.lower():
            return ""
        for joint in (", ", "; "):  # "2 hits, each kills a figure" under "2 hits"
            if text and rest.lower().startswith(f"{text.lower()}{joint}"):
                rest = rest[len(text) + len(joint) :]
    return capital(rest)


def headline_words(outcome: Outcome, odds: Odds | None = None,
                   groups: Sequence[DiceGroup] = ()) -> str:
    """The headline in words, as the result screen says it when it has room: "Goes
    first: British", "Passed: yes", "1 hit" (the command line's too, so that it never
    prints "1 passed" where the box says "Passed: yes")."""
    named = named_outcomes(outcome.headline_label, groups, odds.names if odds else None)
    if named is not None:
        noun, names = named
        return capital(f"{noun}: {category_name(outcome.headline, names)}")
    values = tuple(odds.headline) if odds and odds.headline_label == outcome.headline_label \
        else ()
    return headline(outcome, values)
