"""Rolls of more dice than the tray holds apart: asked for in several throws,
read throw by throw from composed tray frames, handed to the rules as one roll."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

from uirig import Rig, TableHardware

from companion.box import DiceSeen
from companion.rules.core import AwaitChip, AwaitChoice, AwaitRoll, DieKind
from companion.session.events import DiceAccepted


def big_squad_scenario() -> str:
    """The example Tenir le Fort game with Legion 1 forty-one strong (two go up the
    tower, the sergeant adds a die: forty dice of fire), straight to the attack."""
    text = resources.files("companion.scenarios").joinpath("tenir_le_fort.toml").read_text()
    text, found = re.subn(r'(name = "Legion 1"\n(?:.*\n){2})figures = 7\n',
                          r"\1figures = 41\n", text)
    assert found == 1
    return (text.replace("max_preparation_days = 3", "max_preparation_days = 0")
            .replace("sentries = true", "sentries = false"))


def test_forty_dice_of_fire_in_four_throws_through_the_camera(tmp_path: Path) -> None:
    rig = Rig(tmp_path, big_squad_scenario())
    hardware = TableHardware(rig, random.Random(3), camera_throws=0)  # direct until the fire
    table = hardware.table(random.Random(5))

    def act() -> None:
        table.act()
        hardware.tick()

    # Legion 1's chip first, "Fire" wherever it is offered (else the first choice), until
    # the forty dice are asked for.
    for _ in range(200):
        step, ui = rig.box.step, rig.box.ui
        calm = ui.mode == "normal" and ui.result is None and ui.message is None
        if calm and isinstance(step, AwaitRoll) and step.request.dice_count >= 40:
            break
        if calm and isinstance(step, AwaitChip) and "L1" in step.in_bag:
            hardware.draw_chip("L1")
        elif calm and isinstance(step, AwaitChoice):
            labels = [o.label for o in step.options]
            for _ in range(labels.index("Fire") if "Fire" in labels else 0):
                rig.press("down")
            rig.press("select")
        else:
            act()
    assert isinstance(step, AwaitRoll), "Legion 1 never fired"
    request = step.request
    assert request.summary() == "40d6" and request.groups[0].label == "FFL rifles"
    plan = rig.box.plan(request)
    assert [sum(p.count for p in throw) for throw in plan] == [10, 10, 10, 10]

    # The table throws each part until the camera reads it (dismissing any "Reroll").
    hardware.camera_throws = 10**6  # from here on, tray frames through the dice reader
    rng = random.Random(8)
    dice_events = len([e for e in rig.events() if isinstance(e, DiceAccepted)])
    titles: list[str] = []
    read: list[int] = []
    for _ in range(40):
        if rig.box.step != step:
            break
        titles.append(rig.screen.title)
        wanted = rig.box.plan(request)[rig.box.throws_done(request)]
        assert sum(p.count for p in wanted) == 10 and rig.screen.big == "Roll 10d6"
        reading = hardware.read([DieKind.D6] * 10, [rng.randint(1, 6) for _ in range(10)], rng)
        if reading is None or reading.unreadable or len(reading.dice) != 10:
            rig.box.handle(reading or DiceSeen(()))
            rig.press("back")
            continue
        read += [d.value for d in sorted(reading.dice, key=lambda d: d.box[:2])]
        rig.box.handle(reading)
    assert list(dict.fromkeys(titles)) == [f"Throw {n} of 4: FFL rifles" for n in (1, 2, 3, 4)]
    assert len([line for line in rig.said if re.match(
        r"  read( \d){10} for FFL rifles \(throw [123] of 4\)$", line)]) == 3
    # One roll for the rules and the journal: the forty dice as the camera read them.
    rolls = [e for e in rig.events() if isinstance(e, DiceAccepted)]
    assert len(rolls) == dice_events + 1
    assert rolls[-1] == DiceAccepted(tuple(read), "camera")
    lowest = int(re.match(r"hits on (\d)-6", request.groups[0].faces_meaning)[1])  # type: ignore[index]
    hits = sum(d >= lowest for d in read)
    assert rig.box.ui.results[0].big == f"{hits} hits"
    hardware.close()
    rig.close()
