"""Tenir le Fort's sequence of play, step by step, one module per part of the game.

The modules one level up are the dice (each roll an Action, usable without a game);
these are the steps that ask for them. `game.py` holds the entry points: it sends a
drawn chip to `activation.on_chip`, and every other answer to the handler named by
the question's `purpose`, from the `CHOICES` and `ROLLS` each module here declares.

Lowest first; each module imports only from modules listed before it. Where play
goes back to an earlier part of the game (a finished attack to the next night, say),
it does so through a question, whose answer `game.py` routes, never through an import:

- `steps`: how a step is written: `Tx`, `ask`, `roll`, `yes_no`, wording, CP costs.
- `units`: queries about units: leaders with them, command, targets, guns, moving men.
- `arrivals`: Arab bands that join later and the FFL relief column.
- `losses`: figures lost, units destroyed, leaders wounded or killed, the gate's damage.
- `turns`: command points, the chip draw, end of turn and Arab resolve, end of attack,
  game over.
- `activation`: a chip drawn: the unit's or leader's menu, and the activation's end.
- `melee`: close combat figure by figure, and falling back.
- `shooting`: fire and the gun sequence, saves, who is hit, wounds, Arab losses, snipes.
- `charges`: charges, the defender's reaction, defensive fire, counter-charges.
- `assaults`: ladders up the wall, thrown dynamite, mined buildings.
- `unit_actions`: what a unit's chosen action does (sentries, moves, joining, ...).
- `leader_chits`: what a leader's chit does (guns, mines, CP spends, the relief roll).
- `attack`: the start of an attack: bands, relief, ammunition, water, deployment.
- `night_operations`: Arab sabotage and FFL sorties past the sentries.
- `preparations`: preparation days, FFL precautions, the relief day, the next attack.
"""
