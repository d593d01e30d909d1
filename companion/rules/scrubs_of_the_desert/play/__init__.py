"""Scrubs of the Desert's sequence of play, step by step, one module per part of the game.

The modules one level up are the rules (the charts, and each roll an Action usable
without a game) and the state (`state.py`); these are the steps that ask for choices and
rolls. The game waits at a named stage. Each module here declares, by stage, the
question it puts and what the answer does, one `StageStep` in `CHOICES` or `ROLLS`;
`game.py` gathers them, routes every input to the handler of the stage it
answers, and settles the turn after it (`turns.settle`).

Lowest first; each module imports only from modules listed before it. Where play goes
on in a part of the game listed after (defensive fire back to the attacker's test, an
activation's end back to the toss), a step only sets the stage that part asks at, which
`game.py` routes, never through an import:

- `steps`: how a step is written: `Result`, `r`, `then`, `to`, the answers several
  stages share, a side's verb, the shapes of the stage tables.
- `turns`: the toss for the next activation, an activation's end, the end of a turn, the
  end of the game and its winner.
- `losses`: figures lost, a unit gone or its machine gun abandoned, a melee lock freed.
- `spotting`: French tries to sight hidden units, and a hidden unit giving itself away.
- `morale_tests`: the test after fire, by the unit's position, and what a failed test
  does (also used by the melee sequence).
- `shooting`: the fire sequence: who may fire, target, weapon, range, cover, the roll,
  jams, the losses and who tests after; defensive fire too.
- `crew_hits`: fire at a support weapon: hits shared between its crew and others near.
- `cannon_blasts`: grapeshot, the cannon's roll to hit, the blast template's figures and
  kills.
- `moving`: a move or charge: terrain, the move roll, a gun limbering up.
- `hooks`: grappling hooks: the throw, the climbers, a French attack on a hook.
- `manning_guns`: infantry going to crew an abandoned machine gun.
- `melee_bouts`: the bouts of a melee, its losses, a locked melee, the loser's test.
- `charges`: a charge up to the bouts: contact, the defender's position, test and
  answer, the attacker's test.
- `orders`: the unit picked to activate, a locked unit's melee, and its order menu.
"""
