"""On the Frontier's sequence of play, step by step, one module per part of the game.

The modules one level up are the rules (each roll an Action, usable without a game) and
the state (`state.py`); these are the steps that ask for the choices and rolls. Play goes
by named stages: `game.py` holds the entry points, and puts each stage's question and
applies its answer through the `StageStep` a module here declares for it in `CHOICES` or
`ROLLS`.

Lowest first; each module imports only from modules listed before it. Where play goes
on in a part of the game listed after it (the first player's orders once the roll for
who goes first is in, a charge's held-fire volley and its fight, the next unit to order
once one is done), it does so by setting that part's stage, which `game.py` routes,
never through an import:

- `steps`: how a step is written: `Result`, `prefix`, `to` (the next stage), a unit's
  order done, wording that agrees with a unit's name, handler shapes.
- `losses`: hits taken and cancelled, a unit destroyed, what stands after the hits, a
  commander hit and replaced later.
- `units`: what a unit may do now: shoot and with how many dice, hold fire, be joined by
  a commander; the enemy it may target.
- `turns`: the roll for who goes first, the end of a turn, commanders leaving with their
  unit, who is winning.
- `charge_phase`: the charges in contact taken one by one after both sides' orders, the
  ones that lapse, the offer of a held-fire volley; the last ends the turn.
- `firing`: a Shoot order (target, range, cover, hits), Steady!, return fire, and the
  held-fire volley at chargers.
- `melee`: a charge in contact: the ground, squares, contact dice, Come On!, the result,
  guns limbering to go back, cavalry's pursuit.
- `moving`: Move, Move & charge and a commander riding to join: broken ground, deploying
  guns, the roll, Follow Me!, reaching the target.
- `rallying`: the Rally order and its roll.
- `works`: engineering tasks and their points, and blowing the demolition charges.
- `orders`: which unit acts next, its menu of orders, the orders done at once (hold
  fire, stand, lay a charge).
"""
