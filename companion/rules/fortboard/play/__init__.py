"""FortBoard's sequence of play, step by step, one module per part of the game.

The modules one level up are the rules (`board`, `movement`, `melee`, the dice as
Actions, ...), usable without a game; these are the steps that ask for choices and
rolls. `game.py` holds the entry points: it builds the question for the `Ask` on top of
the state's stack, and sends its answer to the handler of that ask's `kind`: each
module here declares its kinds whole in `CHOICES` and `ROLLS` (a `StageStep`: the
question and what its answer does); it also settles the state after each input (the
asks "combat" and "land").

Lowest first; each module imports only from modules listed before it. Where play goes
on in a part of the game listed after (a lowered bridge to the defender's reaction, a
ladder to the climbers landing), it does so by pushing an `Ask`, which `game.py` routes,
never through an import:

- `steps`: how a step is written: `Out`, the figures still standing, a roll's request
  and result, the handlers' shapes.
- `losses`: figures wounded and killed, hits falling on the unwounded first.
- `siege_engines`: crews, the assault tower's bridge, an engine destroyed and its
  survivors, a burning tower doused.
- `turns`: the end of a side's move, the end of a turn (fallen buildings, burning
  engines, the turn limit), victory.
- `combat`: the combat phase: each contact fought figure by figure, ganging up, a
  climber taking the wall space.
- `moving`: a group's move, the 6 to be re-placed outside, ladders set and climbers
  landing.
- `shooting`: missile fire: who may shoot at what, the range, the hits.
- `wall_weapons`: the defender's wall weapons against the foot of their wall or an engine.
- `guns`: the defender's artillery: its aim and its shot at a station.
- `stonework`: catapult and ram blows on walls, towers, gate and buildings, the space
  hit, the figures hurt, shots into the fort.
- `reactions`: the defender's missiles and wall weapons against ladders and a bridge.
- `move_menu`: a side's move: the menu of what it may still do and which group does it.
"""
