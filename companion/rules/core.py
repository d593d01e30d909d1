"""The contract every rule system implements.

Pure and standard-library only: no I/O, no clock, no randomness. A system is a
`Ruleset`: a set of stand-alone `Action`s (one roll each, used by the odds and
resolve CLI) and a game state machine (`start`, `next_step`, `advance`) that the
session drives with inputs it has journaled. Given the same inputs, `advance`
must give the same states: the journal is replayed through it after a crash.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

# --------------------------------------------------------------------------- dice


class DieKind(enum.Enum):
    """How a physical die is read."""

    D6 = "d6"  # faces 1..6
    D10 = "d10"  # faces 0..9; 0 is zero, not ten, unless a system says so
    PERCENTILE = "percentile"  # a tens die 00..90 (value 0..9 = 00..90)

    @property
    def faces(self) -> tuple[int, ...]:
        if self is DieKind.D6:
            return (1, 2, 3, 4, 5, 6)
        return tuple(range(10))

    def describe_face(self, value: int) -> str:
        if self is DieKind.PERCENTILE:
            return f"{value * 10:02d}"
        return str(value)


def percentile_value(tens: int, units: int, *, zero_zero_is_100: bool) -> int:
    """Two d10 read as a percentile: tens die 0..9, units die 0..9.

    "00" with "0" is 100 in systems that say so, else 0.
    """
    for die in (tens, units):
        if not 0 <= die <= 9:
            raise ValueError(f"a percentile die reads 0-9, got {die}")
    value = tens * 10 + units
    if value == 0 and zero_zero_is_100:
        return 100
    return value


@dataclass(frozen=True)
class DiceGroup:
    """Some dice of one kind rolled for one purpose, e.g. 7d6 of FFL fire."""

    kind: DieKind
    count: int
    label: str  # "FFL fire", "tens", "Arab attacker"
    faces_meaning: str  # "5-6 hit; two 6s pin", for the screen and the CLI

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("a dice group cannot have a negative count")


@dataclass(frozen=True)
class RollRequest:
    """What the box asks the players to roll, and why."""

    reason: str  # "FFL fire at 12 figures in light cover"
    groups: tuple[DiceGroup, ...]
    # The result is journaled but not shown until revealed, and so is everything the
    # transition that takes it logs, since any line could give it away: what the table must
    # hear at once (a sortie that got through) waits for the next step to say it.
    secret: bool = False

    @property
    def dice_count(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def kinds(self) -> tuple[DieKind, ...]:
        """The kind of each die, in the order the dice are given."""
        return tuple(g.kind for g in self.groups for _ in range(g.count))

    def summary(self) -> str:
        """Short form for the OLED, e.g. '7d6 + 1d6'."""
        parts = []
        for g in self.groups:
            if g.kind is DieKind.PERCENTILE:
                parts.append(f"{g.count}d%")
            else:
                parts.append(f"{g.count}{g.kind.value}")
        return " + ".join(parts) if parts else "no dice"

    def split(self, dice: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """The dice grouped as requested, after `check_dice`."""
        check_dice(self, dice)
        out: list[tuple[int, ...]] = []
        at = 0
        for g in self.groups:
            out.append(tuple(dice[at : at + g.count]))
            at += g.count
        return tuple(out)


class RulesError(ValueError):
    """Bad input to the rules: says what was wrong and what is allowed."""


def check_dice(request: RollRequest, dice: Sequence[int]) -> None:
    """Raise RulesError naming the problem if `dice` cannot answer `request`."""
    if len(dice) != request.dice_count:
        raise RulesError(
            f"{request.reason}: expected {counted(request.dice_count, 'die', 'dice')} "
            f"({request.summary()}), got {len(dice)}"
        )
    for index, (kind, value) in enumerate(zip(request.kinds, dice, strict=True), start=1):
        if value not in kind.faces:
            allowed = f"{kind.faces[0]}-{kind.faces[-1]}"
            raise RulesError(f"die {index} is a {kind.value} and reads {allowed}, got {value}")


# ------------------------------------------------------------------------ wording


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, agreeing: '1 die', '3 dice', '1 chip', '0 chips'.

    The plural is the noun with an 's' unless given: irregular ones ("casualty",
    "casualties"; "man", "men") and phrases whose verb agrees too ("man fires",
    "men fire") pass it. The play-by-play is read aloud at the table.
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


# ----------------------------------------------------------------------- outcomes


@dataclass(frozen=True)
class Outcome:
    """What a roll did.

    `headline` is the one number the box shows large (hits, casualties, points,
    movement inches); `effects` are named side effects that the odds also give
    the chance of and the UI has tunes for. Common names: "pinned", "jammed",
    "broken", "berserk", "killed", "resolve_failed", "routed", "fumble".
    `changes` are human-readable state changes; `follow_up` asks for the next
    roll when the rules chain rolls (Maxim 6s again, cannon to-hit then blast).
    """

    headline: int
    headline_label: str  # "hits", "casualties", "inches"
    effects: frozenset[str] = frozenset()
    details: tuple[str, ...] = ()  # the reasoning, one line each, for the play-by-play
    changes: tuple[str, ...] = ()
    follow_up: RollRequest | None = None


@dataclass(frozen=True)
class Odds:
    """Exact odds of a roll request: headline distribution and side-effect chances."""

    headline_label: str
    headline: Mapping[int, Fraction]
    effects: Mapping[str, Fraction] = field(default_factory=dict)
    # What each headline value stands for when the roll picks one outcome among
    # several (which target is hit, where a shot lands) rather than counting
    # something: the box then gives the chance of each by name, not an average.
    names: Mapping[int, str] = field(default_factory=dict)
    # The headline that the follow-up rolls this roll may trigger are expected to add
    # (a Maxim's 6s each earn one more die, whose 6s earn more): `headline` and `mean`
    # are this roll's alone, and a referee deciding whether to fire wants the whole
    # chain's average too, mean() + this. None when no follow-up adds to the headline
    # (most rolls, and a follow-up of another kind, like heavy cover's saves).
    follow_up_mean: Fraction | None = None
    # How the box names those follow-ups beside the chain's average, in the rules' words.
    follow_up_label: str = "with follow-ups"

    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.headline.items()), Fraction(0))

    def at_least(self, k: int) -> Fraction:
        return sum((p for v, p in self.headline.items() if v >= k), Fraction(0))


def roll_off_between(
    request: RollRequest, odds: Odds, sides: tuple[str, str], tie: int = 0
) -> tuple[RollRequest, Odds]:
    """A roll-off whose headline is 1 (first side), 2 (second side) or `tie`, with each
    side's die and chance under the side's own name instead of "first"/"second"."""
    first, second = request.groups
    groups = (replace(first, label=sides[0]), replace(second, label=sides[1]))
    named = replace(request, groups=groups)
    return named, replace(odds, names={1: sides[0], 2: sides[1], tie: "tie"})


# ------------------------------------------------------------------ parameters


class ParamKind(enum.Enum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"


@dataclass(frozen=True)
class Param:
    """One parameter of an action, e.g. figures=12 or cover=light."""

    name: str
    kind: ParamKind
    help: str
    default: int | bool | str | None = None  # None: required
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        if self.kind is ParamKind.BOOL:
            return "yes or no"
        if self.kind is ParamKind.CHOICE:
            return ", ".join(self.choices)
        low = "" if self.minimum is None else str(self.minimum)
        high = "" if self.maximum is None else str(self.maximum)
        return f"a whole number {low}..{high}".rstrip(".")

    def parse(self, text: str) -> int | bool | str:
        """Parse a CLI value; RulesError names the parameter and what is allowed."""
        problem = f"{self.name}={text!r} is not allowed; use {self.allowed()}"
        if self.kind is ParamKind.BOOL:
            lowered = text.strip().lower()
            if lowered in ("1", "yes", "true", "y", "on"):
                return True
            if lowered in ("0", "no", "false", "n", "off"):
                return False
            raise RulesError(problem)
        if self.kind is ParamKind.CHOICE:
            if text in self.choices:
                return text
            raise RulesError(problem)
        try:
            number = int(text)
        except ValueError:
            raise RulesError(problem) from None
        self.check(number)
        return number

    def check(self, value: int | bool | str) -> None:
        problem = f"{self.name}={value!r} is not allowed; use {self.allowed()}"
        if self.kind is ParamKind.BOOL:
            if not isinstance(value, bool):
                raise RulesError(problem)
        elif self.kind is ParamKind.CHOICE:
            if value not in self.choices:
                raise RulesError(problem)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(problem)
            if self.minimum is not None and value < self.minimum:
                raise RulesError(problem)
            if self.maximum is not None and value > self.maximum:
                raise RulesError(problem)


Params = Mapping[str, int | bool | str]


def int_param(params: Params, name: str) -> int:
    """A completed whole-number parameter (RulesError if the caller passed something else)."""
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, got {value!r}")
    return value


def bool_param(params: Params, name: str) -> bool:
    value = params[name]
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be yes or no, got {value!r}")
    return value


def str_param(params: Params, name: str) -> str:
    value = params[name]
    if not isinstance(value, str):
        raise RulesError(f"{name} must be a word, got {value!r}")
    return value


@dataclass(frozen=True)
class Action:
    """One kind of roll a system knows, usable without a game (odds, resolve CLI).

    `request`, `resolve` and `odds` take params already completed by
    `complete_params`. `odds` must be exact and agree with enumerating every
    result of `request` through `resolve` (a test does this on small pools).
    """

    name: str  # kebab-case, e.g. "ffl-fire"
    title: str
    help: str
    params: tuple[Param, ...]
    request: Callable[[Params], RollRequest]
    resolve: Callable[[Params, Sequence[int]], Outcome]
    odds: Callable[[Params], Odds]
    # Small parameter sets (a few dice) for which tests enumerate every result
    # and compare with `odds`; also shown as examples by `companion rules show`.
    examples: tuple[Params, ...] = ()

    def complete_params(self, given: Mapping[str, int | bool | str]) -> dict[str, int | bool | str]:
        known = {p.name: p for p in self.params}
        for name in given:
            if name not in known:
                raise RulesError(
                    f"{self.name} has no parameter {name!r}; it takes: "
                    + (", ".join(known) or "no parameters")
                )
        out: dict[str, int | bool | str] = {}
        for p in self.params:
            if p.name in given:
                p.check(given[p.name])
                out[p.name] = given[p.name]
            elif p.default is not None:
                out[p.name] = p.default
            else:
                raise RulesError(f"{self.name} needs {p.name} ({p.allowed()}): {p.help}")
        return out

    def parse_params(self, words: Sequence[str]) -> dict[str, int | bool | str]:
        """Parse `key=value` words from the CLI and complete with defaults."""
        known = {p.name: p for p in self.params}
        given: dict[str, int | bool | str] = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not sep:
                raise RulesError(f"parameter {word!r} should be written name=value")
            key = key.replace("-", "_")
            if key not in known:
                raise RulesError(
                    f"{self.name} has no parameter {key!r}; it takes: "
                    + (", ".join(known) or "no parameters")
                )
            if key in given:
                raise RulesError(f"parameter {key!r} is given twice; give it once")
            given[key] = known[key].parse(value)
        return self.complete_params(given)


# ---------------------------------------------------------------- scenarios


ScenarioValue = int | float | bool | str | list["ScenarioValue"] | dict[str, "ScenarioValue"]


class ScenarioError(ValueError):
    """A scenario that cannot be played; names the unit and the field."""


@dataclass(frozen=True)
class Unit:
    """A unit as the scenario sets it up. System-specific fields go in `traits`."""

    name: str
    side: str
    kind: str  # system vocabulary, e.g. "foot", "mounted", "maxim", "artillery"
    figures: int
    weapons: tuple[str, ...] = ()
    leader: str | None = None  # the leader with the unit, by name
    chip: str | None = None  # the chip that activates it, when the system uses chips
    traits: Mapping[str, ScenarioValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    system: str
    title: str
    sides: tuple[str, ...]
    units: tuple[Unit, ...]
    options: Mapping[str, ScenarioValue] = field(default_factory=dict)
    setup: Mapping[str, ScenarioValue] = field(default_factory=dict)  # system-specific
    notes: str = ""

    def unit(self, name: str) -> Unit:
        for u in self.units:
            if u.name == name:
                return u
        raise ScenarioError(f"no unit named {name!r} in scenario {self.title!r}")


@dataclass(frozen=True)
class RuleOption:
    """A switch for a reading of an ambiguous rule, set in the scenario's [options]."""

    name: str
    help: str
    default: ScenarioValue
    choices: tuple[ScenarioValue, ...]


def option_values(
    options: Sequence[RuleOption], raw: Mapping[str, ScenarioValue]
) -> dict[str, ScenarioValue]:
    """Every option's value: the scenario's [options] table over the defaults.

    ScenarioError names an unknown option, or a value that is not one of its choices
    (by type too: TOML's `true` must not pass for a choice of 1).
    """
    known = {o.name: o for o in options}
    check_keys(raw, tuple(known), "[options]", "option")
    values: dict[str, ScenarioValue] = {o.name: o.default for o in options}
    for name, value in raw.items():
        option = known[name]
        if value not in option.choices or type(value) is not type(option.default):
            allowed = ", ".join(repr(c) for c in option.choices)
            raise ScenarioError(f"[options] {name} = {value!r} is not allowed; use {allowed}")
        values[name] = value
    return values


# The tables every system's scenario file is made of, and the fields of a [[units]] table
# (a system without chips leaves `chip` out: its units are activated otherwise).
SCENARIO_FIELDS = ("system", "title", "sides", "units", "options", "setup", "notes")
SCENARIO_REQUIRED = ("system", "title", "units")
UNIT_FIELDS = ("name", "side", "kind", "figures", "weapons", "leader", "chip", "traits")
UNIT_FIELDS_WITHOUT_CHIP = tuple(f for f in UNIT_FIELDS if f != "chip")
UNIT_REQUIRED = ("name", "side", "kind", "figures")


def check_keys(
    table: Mapping[str, object],
    known: Sequence[str],
    where: str,
    noun: str = "field",
    required: Sequence[str] = (),
) -> None:
    """Refuse a key that `known` does not list: a misspelt key would otherwise be skipped,
    and what it meant to set fall back to its default without a word.

    The message names the table, the key and every known one, and the nearest known key
    when there is one, saying so when it is a `required` one the table lacks ("titel" for
    "title"): the player then hears at once what is wrong and what is missing.
    """
    for key in table:
        if key in known:
            continue
        hint = ""
        # difflib's usual cutoff (0.6) offers 'leader' for 'weather': a likely typo is closer
        for nearest in difflib.get_close_matches(key, known, n=1, cutoff=0.75):
            missing = nearest in required and nearest not in table
            hint = f" (did you mean {nearest!r}{', which is missing' if missing else ''}?)"
        raise ScenarioError(f"{where} has no {noun} {key!r}{hint}; {noun}s are: {', '.join(known)}")


def check_scenario_fields(raw: Mapping[str, ScenarioValue]) -> None:
    check_keys(raw, SCENARIO_FIELDS, "the scenario", required=SCENARIO_REQUIRED)


def check_unit_fields(raw: Mapping[str, ScenarioValue], number: int, *, chips: bool) -> None:
    """The fields of the `number`th [[units]] table (the first is 1); a system that
    activates its units by chip reads `chip`, the others would ignore it."""
    known = UNIT_FIELDS if chips else UNIT_FIELDS_WITHOUT_CHIP
    check_keys(raw, known, listed_table("unit", raw, number), required=UNIT_REQUIRED)


def listed_table(noun: str, raw: Mapping[str, ScenarioValue], number: int) -> str:
    """How a message names one table of a list ("unit" of [[units]], "place" of
    [[setup.places]]): by its name, else by its place in the list (the first is 1), since
    the name may be the very field that is wrong."""
    name = raw.get("name")
    return f"{noun} {name!r}" if isinstance(name, str) and name.strip() else f"{noun} {number}"


class Named(Protocol):
    """A unit of any system, as far as menus and name checks are concerned."""

    @property
    def name(self) -> str: ...


def unit_error(unit: str, field: str, problem: str) -> ScenarioError:
    """A refusal naming the unit and its field, so that the player knows what to fix."""
    return ScenarioError(f"unit {unit!r}, field {field!r}: {problem}")


def scenario_sides(raw: Mapping[str, ScenarioValue], order: str = "") -> tuple[str, str]:
    """The scenario's `sides`: two different names; `order` says which comes first where
    the system cares (FortBoard: the attacker)."""
    sides = raw.get("sides")
    if (
        not isinstance(sides, list)
        or len(sides) != 2
        or not all(isinstance(s, str) and s for s in sides)
        or sides[0] == sides[1]
    ):
        hint = f" ({order})" if order else ""
        raise ScenarioError(f"sides must be a list of two different names{hint}, got {sides!r}")
    return str(sides[0]), str(sides[1])


def scenario_table(raw: Mapping[str, ScenarioValue], key: str) -> dict[str, ScenarioValue]:
    """A table of the scenario that may be left out, such as [setup] or [options]."""
    table = raw.get(key, {})
    if not isinstance(table, dict):
        raise ScenarioError(f"[{key}] must be a table")
    return table


def scenario_units(
    raw: Mapping[str, ScenarioValue],
    sides: Sequence[str],
    read_unit: Callable[[ScenarioValue, int], Unit],
) -> tuple[Unit, ...]:
    """The [[units]] tables, each read by `read_unit` (given the table and its index); a
    name may be used once, and every side needs a unit."""
    units_raw = raw.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise ScenarioError("units must be a non-empty list of [[units]] tables")
    units = tuple(read_unit(u, i) for i, u in enumerate(units_raw))
    check_unique_names(units)
    for side in sides:
        if not any(u.side == side for u in units):
            raise ScenarioError(f"side {side!r} has no units")
    return units


def check_unique_names(units: Sequence[Named]) -> None:
    """Units are named in menus and in the journal, so a name may be used once."""
    names = [u.name for u in units]
    for n in names:
        if names.count(n) > 1:
            raise unit_error(n, "name", "two units have this name; names must be unique")


def check_setup_keys(setup: Mapping[str, ScenarioValue], known: Sequence[str]) -> None:
    check_keys(setup, known, "[setup]", "setting")


def setup_turn_limit(setup: Mapping[str, ScenarioValue]) -> int:
    """[setup] turn_limit: how many turns the game lasts, 1..50."""
    limit = setup.get("turn_limit")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 50:
        raise ScenarioError(f"[setup] turn_limit must be a whole number 1..50, got {limit!r}")
    return limit


# ---------------------------------------------------------------- game steps


@dataclass(frozen=True)
class Choice:
    key: str  # stable id journaled by the session, e.g. "fire", "unit:Legion 1"
    # Short is best (about 18 characters fit the OLED's row); the screen, not the rules,
    # shortens a longer label, and shows the highlighted one in full on two rows.
    label: str


def unit_choices(prefix: str, units: Sequence[Named]) -> tuple[Choice, ...]:
    """A choice per unit, keyed `prefix:name` for the game to read back, labelled with its
    name."""
    return tuple(Choice(f"{prefix}:{u.name}", u.name) for u in units)


@dataclass(frozen=True)
class AwaitChip:
    """Draw a chip from the bag. `in_bag` are chip names still to draw."""

    prompt: str
    in_bag: tuple[str, ...]


@dataclass(frozen=True)
class AwaitChoice:
    prompt: str
    options: tuple[Choice, ...]
    about: str = ""  # the unit or situation this choice is for


#: Yes/no answers: "No" first where it is the usual answer, "Yes" first where it is.
NO_YES = (Choice("no", "No"), Choice("yes", "Yes"))
YES_FIRST = (Choice("yes", "Yes"), Choice("no", "No"))


class _ActorAndTarget(Protocol):
    @property
    def actor(self) -> str: ...

    @property
    def target(self) -> str: ...


class _WithActorAndTarget(Protocol):
    @property
    def ctx(self) -> _ActorAndTarget: ...


def yes_no(question: str, about: str, *, yes_first: bool = False
           ) -> Callable[[_WithActorAndTarget], AwaitChoice]:
    """A stage's yes/no question about the unit acting (`about="actor"`) or its target
    ("target"); `question` may name either ("Pursue {target}?")."""
    if about not in ("actor", "target"):
        raise ValueError(f"a yes/no question is about the actor or the target, not {about!r}")
    options = YES_FIRST if yes_first else NO_YES

    def ask(state: _WithActorAndTarget) -> AwaitChoice:
        ctx = state.ctx
        return AwaitChoice(question.format(actor=ctx.actor, target=ctx.target), options,
                           ctx.actor if about == "actor" else ctx.target)
    return ask


@dataclass(frozen=True)
class AwaitRoll:
    request: RollRequest
    odds: Odds | None = None  # headline odds to show before the roll


@dataclass(frozen=True)
class GameOver:
    winner: str | None
    summary: tuple[str, ...]


Step = AwaitChip | AwaitChoice | AwaitRoll | GameOver


@dataclass(frozen=True)
class ChipDrawn:
    chip: str  # the scenario's chip name (the session maps tag ids to names)


@dataclass(frozen=True)
class Chosen:
    key: str


@dataclass(frozen=True)
class Rolled:
    dice: tuple[int, ...]


GameInput = ChipDrawn | Chosen | Rolled


def check_input(step: Step, given: GameInput) -> None:
    """Raise RulesError saying what `step` waits for if `given` does not answer it.

    Shared by every system so that the box words a wrong button or a wrong roll the
    same way whatever game is on the table.
    """
    if isinstance(step, GameOver):
        raise RulesError("the game is over; no more inputs")
    if isinstance(step, AwaitChip):
        if not isinstance(given, ChipDrawn):
            raise RulesError(f"{step.prompt}: expected a chip from the bag, not {_named(given)}")
    elif isinstance(step, AwaitChoice):
        keys = ", ".join(o.key for o in step.options)
        if not isinstance(given, Chosen):
            raise RulesError(f"{step.prompt}: expected a choice ({keys}), not {_named(given)}")
        if given.key not in {o.key for o in step.options}:
            raise RulesError(
                f"{step.prompt}: {given.key!r} is not an option; choose one of: {keys}"
            )
    else:
        if not isinstance(given, Rolled):
            raise RulesError(
                f"{step.request.reason}: expected a roll of {step.request.summary()}, "
                f"not {_named(given)}"
            )
        check_dice(step.request, given.dice)


def _named(given: GameInput) -> str:
    if isinstance(given, ChipDrawn):
        return f"the chip {given.chip!r}"
    if isinstance(given, Chosen):
        return f"the choice {given.key!r}"
    return f"dice {', '.join(map(str, given.dice))}"


@dataclass(frozen=True)
class Transition:
    """The result of one input: the new state and what to tell the table."""

    state: object
    log: tuple[str, ...] = ()  # play-by-play lines
    outcome: Outcome | None = None
    cues: frozenset[str] = frozenset()  # sounds: "chip", "dice", "pin", "jam", "death", ...


class Ruleset(Protocol):
    """A rule system. Implementations are module-level singletons."""

    @property
    def name(self) -> str: ...  # snake_case id, e.g. "tenir_le_fort"

    @property
    def title(self) -> str: ...

    @property
    def dice(self) -> tuple[DieKind, ...]: ...

    @property
    def actions(self) -> Mapping[str, Action]: ...

    @property
    def options(self) -> tuple[RuleOption, ...]: ...

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        """Validate a parsed TOML scenario; ScenarioError names unit and field."""
        ...

    def start(self, scenario: Scenario) -> object:
        """The state before the first input. States are immutable and compare by value."""
        ...

    def next_step(self, state: object) -> Step: ...

    def advance(self, state: object, given: GameInput) -> Transition:
        """Apply one input. RulesError (nothing changed) if it does not fit next_step."""
        ...

    def describe(self, state: object) -> tuple[str, ...]:
        """The state in a few lines for the summary and the 'status' screen."""
        ...


StateT = TypeVar("StateT")


class ScenarioModule(Protocol):
    """What a system's `scenario` module offers: its id, its options and its loader."""

    SYSTEM: str
    OPTIONS: tuple[RuleOption, ...]

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario: ...


class GameModule(Protocol[StateT]):
    """What a system's `game` module offers: the sequence of play on its own states."""

    def start(self, scenario: Scenario) -> StateT: ...

    def next_step(self, state: StateT) -> Step: ...

    def advance(self, state: StateT, given: GameInput) -> Transition: ...

    def describe(self, state: StateT) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class PackagedRuleset(Generic[StateT]):
    """A `Ruleset` wired from a system package's parts: its actions, its `scenario`
    module and its `game` module.

    Every system hands the session its states as `object`; the check here turns a state
    from another system (a journal replayed under the wrong rules) into a RulesError
    instead of an AttributeError deep inside the game.
    """

    title: str
    dice: tuple[DieKind, ...]
    actions: Mapping[str, Action]
    scenario: ScenarioModule
    state_type: type[StateT]
    game: GameModule[StateT]

    @property
    def name(self) -> str:  # snake_case id, e.g. "tenir_le_fort"
        return self.scenario.SYSTEM

    @property
    def options(self) -> tuple[RuleOption, ...]:
        return self.scenario.OPTIONS

    def load_scenario(self, raw: Mapping[str, ScenarioValue]) -> Scenario:
        return self.scenario.load_scenario(raw)

    def start(self, scenario: Scenario) -> StateT:
        return self.game.start(scenario)

    def next_step(self, state: object) -> Step:
        return self.game.next_step(self._own(state))

    def advance(self, state: object, given: GameInput) -> Transition:
        return self.game.advance(self._own(state), given)

    def describe(self, state: object) -> tuple[str, ...]:
        return self.game.describe(self._own(state))

    def _own(self, state: object) -> StateT:
        if not isinstance(state, self.state_type):
            raise RulesError(f"not a {self.title} game state: {type(state).__name__}")
        return state


# ------------------------------------------------- games played as named stages


class StagedState(Protocol):
    """A game state that waits at a named stage of play, between two sides."""

    @property
    def stage(self) -> str: ...

    @property
    def sides(self) -> tuple[str, str]: ...


StagedT = TypeVar("StagedT", bound=StagedState)


def await_stage(
    state: StagedT,
    choice_at: Callable[[StagedT], AwaitChoice | None],
    roll_at: Callable[[StagedT], tuple[Action, Params] | None],
    roll_off_stage: str,
) -> AwaitChoice | AwaitRoll:
    """What a game played as named stages waits for: the stage's choice if it asks one,
    else its roll with the odds. The roll at `roll_off_stage` is a roll-off between the
    sides, and each die is named after its side so that the table knows whose is whose."""
    choice = choice_at(state)
    if choice is not None:
        return choice
    roll = roll_at(state)
    if roll is None:
        raise RulesError(f"no step for stage {state.stage!r}")
    action, params = roll
    request, odds = action.request(params), action.odds(params)
    if state.stage == roll_off_stage:
        request, odds = roll_off_between(request, odds, state.sides)
    return AwaitRoll(request, odds)


def resolve_stage_roll(
    state: StagedT,
    roll_at: Callable[[StagedT], tuple[Action, Params] | None],
    dice: Sequence[int],
) -> Outcome:
    """What `dice` did in the roll that the stage asks for."""
    roll = roll_at(state)
    assert roll is not None  # check_input lets dice through only at a stage that asks a roll
    action, params = roll
    return action.resolve(params, dice)


# ------------------------------------------------------------- the end of a game


def larger_share_kept(
    sides: tuple[str, str], strength: Callable[[str], tuple[int, int]]
) -> str | None:
    """The side keeping the larger share of what it started with, `strength(side)` being
    (now, at the start); None when the shares are equal. Cross-multiplied, so that no
    share is rounded."""
    (a_now, a_start), (b_now, b_start) = (strength(side) for side in sides)
    if a_now * b_start > b_now * a_start:
        return sides[0]
    if b_now * a_start > a_now * b_start:
        return sides[1]
    return None


AskT = TypeVar("AskT")
ApplyT = TypeVar("ApplyT")


@dataclass(frozen=True)
class StageStep(Generic[AskT, ApplyT]):
    """A stage of a system's sequence of play as the step module that owns it declares
    it: how its question is put (`ask`) and what the answer does (`apply`). One entry for
    both, so that no stage can be asked and left unanswered. Each system names its own
    kinds (`ChoiceStep = StageStep[ChoiceAsk, ChoiceHandler]`...)."""

    ask: AskT
    apply: ApplyT


H = TypeVar("H")


def merged_handlers(*tables: Mapping[str, H]) -> dict[str, H]:
    """One dispatch table from the step modules' own (a system's `play/` package): a
    question's key, persisted in journaled states, must have exactly one handler, so a
    key claimed twice is a bug, found when the game module is imported."""
    merged: dict[str, H] = {}
    for table in tables:
        for key, handler in table.items():
            if key in merged:
                raise AssertionError(f"two handlers for {key!r}")
            merged[key] = handler
    return merged

