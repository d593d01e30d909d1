"""The `companion` command.

Every user mistake ends in one line `error: ...` naming what was wrong and
what to do, with a non-zero exit; tracebacks are for bugs only.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.argtypes import (
    CONFIG_HELP,
    HARDWARE,
    HW_HELP,
    config_option,
    hardware_option,
    tens_die,
    whole_number,
)
from companion.errors import CompanionError, ConfigError

if TYPE_CHECKING:
    from companion.rules.core import DieKind
    from companion.session.events import Event
    from companion.session.journal import Misfit

Handler = Callable[[argparse.Namespace], int]


def _json_default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, (frozenset, set, tuple)):
        return sorted(value) if isinstance(value, (frozenset, set)) else list(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=_json_default))


# ------------------------------------------------------------------ rules


def _rules_list(args: argparse.Namespace) -> int:
    from companion.rules import all_rulesets

    systems: list[dict[str, Any]] = []
    for ruleset in all_rulesets():
        systems.append(
            {
                "name": ruleset.name,
                "title": ruleset.title,
                "dice": [k.value for k in ruleset.dice],
                "actions": [{"name": a.name, "title": a.title} for a in ruleset.actions.values()],
                "options": [
                    {"name": o.name, "default": o.default, "choices": list(o.choices)}
                    for o in ruleset.options
                ],
            }
        )
    if args.json:
        print_json(systems)
        return 0
    for system in systems:
        print(f"{system['name']}  ({system['title']}; dice: {', '.join(system['dice'])})")
        for action in system["actions"]:
            print(f"    {action['name']:<28} {action['title']}")
    return 0


def _action(system: str, name: str) -> Any:
    from companion.rules import get_ruleset
    from companion.rules.core import RulesError

    ruleset = get_ruleset(system)
    action = ruleset.actions.get(name)
    if action is None:
        raise RulesError(
            f"{ruleset.name} has no action {name!r}; its actions are: {', '.join(ruleset.actions)}"
        )
    return action


def _param_dict(param: Any) -> dict[str, Any]:
    return {
        "name": param.name,
        "kind": param.kind.value,
        "help": param.help,
        "default": param.default,
        "allowed": param.allowed(),
        **({"choices": list(param.choices)} if param.choices else {}),
    }


def _rules_show(args: argparse.Namespace) -> int:
    action = _action(args.system, args.action)
    data = {
        "name": action.name,
        "title": action.title,
        "help": action.help,
        "params": [_param_dict(p) for p in action.params],
        "examples": [dict(e) for e in action.examples],
    }
    if args.json:
        print_json(data)
        return 0
    print(f"{action.name}: {action.title}\n  {action.help}\n\nparameters:")
    for p in action.params:
        default = "required" if p.default is None else f"default {_typed(p.default)}"
        print(f"  {p.name:<18} {p.allowed()} ({default})\n  {'':<18} {p.help}")
    for example in action.examples:
        words = " ".join(f"{k}={_typed(v)}" for k, v in example.items())
        print(f"\nexample: companion odds {args.system} {action.name} {words}")
    return 0


def _typed(value: Any) -> str:
    """A parameter's value as the referee types it: yes/no, as `allowed()` says, not
    Python's True/False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _odds_dict(odds: Any) -> dict[str, Any]:
    return {
        "headline_label": odds.headline_label,
        "headline": {str(k): float(v) for k, v in odds.headline.items()},
        "headline_exact": {str(k): str(v) for k, v in odds.headline.items()},
        "mean": float(odds.mean()),
        "effects": {k: float(v) for k, v in odds.effects.items()},
        "effects_exact": {k: str(v) for k, v in odds.effects.items()},
        **(
            {
                "follow_up_mean": float(odds.follow_up_mean),
                "follow_up_mean_exact": str(odds.follow_up_mean),
            }
            if odds.follow_up_mean is not None
            else {}
        ),
    }


def _odds(args: argparse.Namespace) -> int:
    action = _action(args.system, args.action)
    params = action.parse_params(args.params)
    request = action.request(params)
    odds = action.odds(params)
    if args.json:
        print_json({"request": _request_dict(request), "odds": _odds_dict(odds)})
        return 0
    from companion.rules.core import Outcome
    from companion.ui.wording import headline_words, named_outcomes, pretty, yes_no

    print(f"{request.reason}: roll {request.summary()}")
    label = odds.headline_label
    # an average of who goes first, or of yes and no, means nothing
    if named_outcomes(label, request.groups, odds.names) is None and not yes_no(
            label, tuple(odds.headline)):
        print(f"average {float(odds.mean()):.2f} {label}")
        if odds.follow_up_mean is not None:
            chain = float(odds.mean() + odds.follow_up_mean)
            print(f"average {chain:.2f} {label} counting its follow-up rolls")
    rows = [(headline_words(Outcome(value, label), odds, request.groups), chance)
            for value, chance in odds.headline.items()]
    effects = [(pretty(name), chance) for name, chance in odds.effects.items()]
    width = max(len(words) for words, _ in rows + effects)
    for words, chance in rows:
        bar = "#" * round(float(chance) * 40)
        print(f"  {words:<{width}} {float(chance) * 100:6.2f}%  {bar}")
    if effects:
        print("and with it:")
    for words, chance in effects:
        print(f"  {words:<{width}} {float(chance) * 100:6.2f}%")
    return 0


def _request_dict(request: Any) -> dict[str, Any]:
    return {
        "reason": request.reason,
        "secret": request.secret,
        "summary": request.summary(),
        "groups": [
            {
                "kind": g.kind.value,
                "count": g.count,
                "label": g.label,
                "faces_meaning": g.faces_meaning,
            }
            for g in request.groups
        ],
    }


def _parse_dice(text: str, kinds: Sequence[DieKind]) -> list[int]:
    """The dice as written, in the rules' values; `kinds` are the request's, die by die
    (a count that does not match is left to the rules to name)."""
    from companion.rules.core import DieKind, RulesError

    # commas or spaces: "6,5,1", "6, 5, 1" and "6 5 1" are the same three dice
    parts = text.replace(",", " ").split()
    try:
        dice = [int(part) for part in parts]
    except ValueError:
        raise RulesError(
            f"--dice {text!r}: write the dice as numbers separated by commas, e.g. --dice 6,5,1"
        ) from None
    for number, (part, kind) in enumerate(zip(parts, kinds, strict=False), start=1):
        if kind is DieKind.PERCENTILE:  # read off the die as the box shows it: 00-90
            try:
                dice[number - 1] = tens_die(part)
            except ValueError as exc:
                raise RulesError(f"--dice: die {number} is a percentile tens die; {exc}") from None
    return dice


def _resolve(args: argparse.Namespace) -> int:
    from companion.ui.wording import headline_words

    action = _action(args.system, args.action)
    params = action.parse_params(args.params)
    request = action.request(params)
    outcome = action.resolve(params, _parse_dice(args.dice, request.kinds))
    data = {
        "request": _request_dict(request),
        "headline": outcome.headline,
        "headline_label": outcome.headline_label,
        "effects": sorted(outcome.effects),
        "details": list(outcome.details),
        "changes": list(outcome.changes),
        "follow_up": _request_dict(outcome.follow_up) if outcome.follow_up else None,
    }
    if args.json:
        print_json(data)
        return 0
    print(f"{request.reason}: {headline_words(outcome, action.odds(params), request.groups)}")
    for name in sorted(outcome.effects):
        print(f"  effect: {name}")
    for line in (*outcome.details, *outcome.changes):
        print(f"  {line}")
    if outcome.follow_up is not None:
        print(f"next: roll {outcome.follow_up.summary()} ({outcome.follow_up.reason})")
    return 0


# ------------------------------------------------------------------ games


def _load_config(args: argparse.Namespace) -> Any:
    from companion import config

    return config.load(getattr(args, "config", None), hardware=getattr(args, "hw", None))


def _check_state_dir(cfg: Any) -> None:
    """A state folder that is a file, or lies inside one, is named with its setting: the
    system's "File exists" or "Not a directory" names neither."""
    folder = cfg.state_dir
    existing = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if existing is None or existing.is_dir():
        return
    problem = f"{existing} is a file, not a folder"
    if cfg["box"]["state_dir"]:
        where = f" in {cfg.path}" if cfg.path else ""
        raise ConfigError(f"[box] state_dir = {str(folder)!r}{where}: {problem}; set it to a "
                          "folder that can be written (it is made if missing), or move the "
                          "file away")
    raise ConfigError(f"the state folder {folder}: {problem}; move the file away, or set "
                      "[box] state_dir in the config to a folder that can be written")


def _scenario_text(args: argparse.Namespace) -> tuple[str, str]:
    """The scenario named by --scenario FILE or --system NAME (its example), checked."""
    from companion.session.scenario_files import (
        example_scenario_text,
        parse_scenario,
        read_scenario_file,
    )

    if args.scenario:
        text, name = read_scenario_file(Path(args.scenario)), str(args.scenario)
    elif args.system:
        text, name = example_scenario_text(args.system), f"example {args.system}"
    else:
        raise CompanionError("say which game: --system NAME or --scenario FILE")
    # a bad scenario is refused before the journal is touched
    ruleset, _ = parse_scenario(text, name)
    if args.scenario and args.system:
        from companion.rules import get_ruleset

        if get_ruleset(args.system).name != ruleset.name:
            raise CompanionError(
                f"--system {args.system} and --scenario {args.scenario} (a {ruleset.name} "
                "game) disagree: give only one of them")
    return text, name


def _new(args: argparse.Namespace) -> int:
    from companion.session.journal import Journal, archive_journal, writer_lock
    from companion.session.session import GameSession

    cfg = _load_config(args)
    _check_state_dir(cfg)
    text, name = _scenario_text(args)
    path = cfg.journal_path
    lock = None
    if path.exists() and args.force:
        lock = writer_lock(path)  # never archive the game a running box is writing
        try:
            archived = archive_journal(path, lock)
        except BaseException:
            lock.release()
            raise
        if archived is not None:
            print(f"archived the previous game to {archived}")
    journal = Journal(path, lock=lock)
    session = GameSession.new(journal, text, name)
    journal.close()
    print(f"new {session.ruleset.title} game: {session.record.scenario.title}")
    print(f"journal: {path}\nnext: companion run")
    return 0


def _status(args: argparse.Namespace) -> int:
    from companion.errors import JournalError
    from companion.session.journal import Journal, with_salvage_advice
    from companion.session.session import GameSession

    cfg = _load_config(args)
    if not cfg.journal_path.exists():
        raise CompanionError(f"no game at {cfg.journal_path}; start one with 'companion new'")
    journal = Journal(cfg.journal_path, readonly=True)  # no lock: works while a game runs
    try:
        session = GameSession.resume(journal)
    except JournalError as exc:
        raise with_salvage_advice(exc) from None
    finally:
        journal.close()
    lines = session.describe()
    if args.json:
        print_json(
            {
                "system": session.record.system,
                "events": session.record.events,
                "state": list(lines),
                "fingerprint": session.record.fingerprint(),
            }
        )
    else:
        print(f"{session.ruleset.title}: {session.record.scenario.title}")
        print("\n".join(lines))
    return 0


def _journal_check(args: argparse.Namespace) -> int:
    from companion.errors import JournalError
    from companion.session.journal import Journal, with_salvage_advice
    from companion.session.session import replay_journal

    cfg = _load_config(args)
    path = Path(args.journal) if args.journal else cfg.journal_path
    if not path.exists():
        raise CompanionError(f"no journal at {path}")
    journal = Journal(path, readonly=True)
    try:
        record = replay_journal(journal)
    except JournalError as exc:
        raise with_salvage_advice(exc) from None
    finally:
        journal.close()
    print(
        f"{path}: {record.events} events, all readable; the game replays "
        f"({record.system}, fingerprint {record.fingerprint()[:12]})"
    )
    return 0


def _healthy_events(path: Path) -> int | None:
    """How many events the journal holds when it is sound and replays, else None."""
    from companion.session.journal import Journal
    from companion.session.session import replay

    try:
        journal = Journal(path, readonly=True)
        try:
            events = [entry.event for entry in journal.entries()]
        finally:
            journal.close()
        replay(events)
    except CompanionError:
        return None
    return len(events)


def _first_misfit(events: list[Event]) -> Misfit | None:
    """The first of the events that does not fit the game the ones before it make, or None."""
    from companion.rules.core import RulesError
    from companion.session.journal import Misfit
    from companion.session.session import apply

    record: Any = None
    for number, event in enumerate(events, start=1):
        try:
            record, _ = apply(record, event)
        except (RulesError, CompanionError) as exc:  # a scenario that no longer loads too
            return Misfit(number, type(event).__name__, str(exc))
    return None


def _journal_salvage(args: argparse.Namespace) -> int:
    from companion.session.journal import folder_error, salvage

    cfg = _load_config(args)
    path = Path(args.journal) if args.journal else cfg.journal_path
    if path.is_dir():
        raise folder_error(path)
    if not path.is_file():
        raise CompanionError(f"no journal file at {path}")
    first = None
    if args.scenario or args.system:
        from dataclasses import replace

        from companion.session.events import GameStarted
        from companion.session.session import apply

        text, name = _scenario_text(args)
        event = GameStarted("", text, name)
        record, _ = apply(None, event)
        first = replace(event, system=record.system)
    healthy = _healthy_events(path)
    if healthy is not None:
        print(f"{path}: {healthy} events, all readable, and the game replays; nothing to "
              "salvage (the file is left as it is)")
        return 0
    done = salvage(path, first, check=_first_misfit)
    if done.misfit is None:
        print(f"kept {done.kept} events in {path}; the damaged file is kept at {done.backup}")
    else:
        misfit = done.misfit
        after = f" and the {done.after_misfit} events after it" if done.after_misfit else ""
        print(f"kept {done.kept} events in {path} (events 1 to {done.kept}, which replay); "
              f"the original file is kept at {done.backup}")
        print(f"left out event {misfit.event} ({misfit.kind}){after}: it does not fit the "
              f"game ({misfit.reason}); they remain in the original file")
    if done.after_gap:
        print(
            f"{done.after_gap} later events were found after a gap and cannot be replayed; "
            "they remain readable in the damaged file"
        )
    return 0


def _run(args: argparse.Namespace) -> int:
    from companion import config
    from companion.errors import JournalError
    from companion.runner import run, show_start_error
    from companion.session.journal import with_salvage_advice

    try:
        cfg = _load_config(args)
        _check_state_dir(cfg)
    except ConfigError as exc:
        fallback = config.settings_for_an_error_screen(
            getattr(args, "config", None), hardware=getattr(args, "hw", None))
        show_start_error(fallback, str(exc), title="Config refused")
        raise
    if args.log_level is None:  # the service's log follows its config unless told here
        logging.getLogger().setLevel(str(cfg["box"]["log_level"]).upper())
    try:
        return run(args, cfg)
    except JournalError as exc:
        raise with_salvage_advice(exc) from None


def _demo(args: argparse.Namespace) -> int:
    from companion.demo import demo

    return demo(args)


# ------------------------------------------------------------------ parser


# Commands whose modules pull in OpenCV or probe hardware: loaded only when asked for,
# so `companion run` starts fast on a Pi Zero.
EXTENSIONS = {
    "dice": ("companion.vision.cli", "read, benchmark, calibrate and teach the dice reader"),
    "chips": ("companion.chips.cli", "enroll, list and print activation chips"),
    "doctor": ("companion.doctor", "check the hardware, config and journal"),
}


GLOBAL_OPTIONS_WITH_VALUES = ("--log-level", "--config", "--hw")


def _command_word(argv: Sequence[str]) -> str | None:
    words = iter(argv)
    for word in words:
        if word in GLOBAL_OPTIONS_WITH_VALUES:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Referee box for historical miniatures wargames."
    )
    parser.add_argument(
        "--log-level", choices=("debug", "info", "warning", "error"),
        help="how much to log (default: warning; for run, [box] log_level)"
    )
    parser.add_argument("--config", dest="global_config", metavar="FILE", help=CONFIG_HELP)
    parser.add_argument("--hw", dest="global_hw", choices=HARDWARE, help=HW_HELP)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(func=handler)
        return p

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        return hardware_option(config_option(p))

    p = command("demo", _demo, "play a scripted game on simulated hardware")
    p.add_argument("--system", default="tenir_le_fort", help="rule system (default tenir_le_fort)")
    p.add_argument("--frames", metavar="DIR", type=Path, help="keep every OLED frame as PNG here")
    p.add_argument("--seed", type=int, default=1, help="seed for the simulated dice and choices")
    p.add_argument(
        "--show-frames", action="store_true", help="draw each OLED frame in the terminal"
    )
    p.add_argument(
        "--camera-fails-after",
        type=whole_number(0),
        metavar="N",
        help="unplug the simulated camera after N rolls (manual entry takes over)",
    )
    p.add_argument("--max-inputs", type=whole_number(1), default=2000,
                   help="stop after this many inputs")
    p.add_argument("--journal", metavar="FILE", type=Path,
                   help="write the game's journal here (default: a new temporary folder)")

    p = with_config(command("new", _new, "start a new game"))
    p.add_argument("--system", help="play the example scenario of this system")
    p.add_argument("--scenario", metavar="FILE", help="a scenario TOML file")
    p.add_argument("--force", action="store_true", help="archive a game already in the journal")

    p = with_config(command("run", _run, "run the box (resumes the game in the journal; with "
                            "none, the box offers its list of games)"))
    inputs = p.add_mutually_exclusive_group()
    inputs.add_argument(
        "--keyboard",
        action="store_true",
        help="sim: drive the buttons from the keyboard of this terminal "
        "(w/s, enter, backspace, M menu)",
    )
    inputs.add_argument(
        "--script",
        metavar="FILE",
        type=Path,
        help="sim: read inputs from a file, one a line: press/long BUTTON, chip NAME, tag UID, "
        "dice KIND:VALUE,..., image PHOTO (its dice, read as the camera's; a path from the "
        "script's folder), fail/back DEVICE",
    )
    inputs.add_argument(
        "--autoplay",
        type=int,
        metavar="SEED",
        help="sim: play random legal inputs (for soak and crash tests)",
    )
    p.add_argument("--max-inputs", type=whole_number(1), metavar="N",
                   help="stop after this many inputs (default: no limit)")
    p.add_argument(
        "--ack", action="store_true", help="print 'ack N' once event N is durable (for crash tests)"
    )

    p = with_config(command("status", _status, "show the game in the journal"))
    p.add_argument("--json", action="store_true")

    journal = sub.add_parser("journal", help="check or salvage the game journal")
    jsub = journal.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    for name, handler, text in (
        ("check", _journal_check, "read every event and replay the game"),
        ("salvage", _journal_salvage, "copy readable events of a damaged journal to a fresh one"),
    ):
        p = with_config(jsub.add_parser(name, help=text, description=text))
        p.add_argument("--journal", metavar="FILE", help="journal file (default: from config)")
        p.set_defaults(func=handler)
    p.add_argument("--system", help="when the scenario itself is lost: the game was this "
                   "system's example scenario")
    p.add_argument("--scenario", metavar="FILE",
                   help="when the scenario itself is lost: the game was started from this file")

    rules = sub.add_parser("rules", help="the rule systems and their actions")
    rsub = rules.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    p = rsub.add_parser("list", help="systems and their actions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_rules_list)
    p = rsub.add_parser("show", help="an action's parameters and allowed values")
    p.add_argument("system")
    p.add_argument("action")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_rules_show)

    p = command("odds", _odds, "exact odds of an action")
    p.add_argument("system")
    p.add_argument("action")
    # default=[]: else argparse counts a list that may be empty among the required arguments
    p.add_argument("params", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p = command("resolve", _resolve, "apply the rules to dice already rolled")
    p.add_argument("system")
    p.add_argument("action")
    p.add_argument("params", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--dice", required=True,
                   help="the dice, comma separated, e.g. 6,5,1; a percentile tens die as "
                   "shown, 00-90")
    p.add_argument("--json", action="store_true")

    wanted = _command_word(argv)
    for name, (module, text) in EXTENSIONS.items():
        if wanted == name:
            import importlib

            importlib.import_module(module).add_commands(sub)
        else:
            sub.add_parser(name, help=text, description=text, add_help=False)
    return parser


#: A list of numbers that starts with a negative one: "-5,0,560,580".
NEGATIVE_LIST = re.compile(r"-\d[\d.]*(,-?[\d.]+)+")


def _with_negative_lists_attached(argv: Sequence[str]) -> list[str]:
    """argparse takes a word that starts with "-" for an option, unless it is one plain
    number: `--tray -5,0,560,580` becomes `--tray=-5,0,560,580`, so that the command
    reads the list and says what is wrong with it (a tray off the picture)."""
    words: list[str] = []
    for word in argv:
        if words and words[-1].startswith("--") and "=" not in words[-1] and (
            NEGATIVE_LIST.fullmatch(word)
        ):
            words[-1] = f"{words[-1]}={word}"
        else:
            words.append(word)
    return words


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line as the commands read it, whichever module defines them."""
    argv = _with_negative_lists_attached(argv)
    parser = build_parser(argv)
    args, extras = parser.parse_known_args(argv)
    # argparse ends a list of positionals at the first option after it: the NAME=VALUE
    # parameters of odds and resolve may come after --dice or --json too.
    if extras and isinstance(getattr(args, "params", None), list) and all(
        "=" in word and not word.startswith("-") for word in extras
    ):
        args.params = [*args.params, *extras]
    elif extras:
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    # --config and --hw may come before the command word or after it (after wins), for the
    # commands of other modules too (doctor, chips, dice).
    for name in ("config", "hw"):
        given = getattr(args, f"global_{name}", None)
        if given is not None and getattr(args, name, None) is None:
            setattr(args, name, Path(given) if name == "config" else given)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    logging.basicConfig(level=(args.log_level or "warning").upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        code: int = args.func(args)
        return code
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except ValueError as exc:
        if not _bad_input(exc):
            raise  # a bug: its traceback for the log, and exit 1, which systemd restarts
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a folder where a file should be, no such folder, a full disk
        if not exc.filename:
            raise  # no path to check: a device or a bug, not the referee's file
        print(f"error: {exc.filename}: {exc.strerror or exc}; check the path and that it "
              "can be written", file=sys.stderr)
        return 2


def _bad_input(exc: ValueError) -> bool:
    """The rules' and the dice reader's own errors are the referee's input refused, said
    in words; any other ValueError is a fault in the box, and exit 2 ("needs a person")
    would hide its traceback and keep systemd from restarting the service."""
    from companion.rules.core import RulesError, ScenarioError

    kinds: list[type[ValueError]] = [RulesError, ScenarioError]
    vision = sys.modules.get("companion.vision.types")  # else no VisionError was raised
    if vision is not None:
        kinds.append(vision.VisionError)
    return isinstance(exc, tuple(kinds))


if __name__ == "__main__":
    sys.exit(main())
