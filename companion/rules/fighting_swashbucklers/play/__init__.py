"""Fighting Swashbucklers' sequence of play, step by step, one module per part of the game.

The modules one level up hold the rules at the dice (`command`, `fire`, `morale`,
`melee`, `rally`, `movement`, each roll an Action in `actions`), usable without a
game; these are the steps that ask for those rolls and apply them. `game.py` holds the
entry points and the dispatch: what the game waits for is `GameState.stage`, whose
`kind` names the question. The module here that owns a kind declares it, in `ROLLS` or
`CHOICES` (`steps.RollStep`, `steps.ChoiceStep`: how the question is put, how its
answer is applied), and the module that owns a phase declares how it is stepped while
no question is pending, in `PHASES`; `game.py` gathers the tables (a kind or phase
claimed twice fails on import) and routes to them.

Lowest first; each module imports only from modules listed before it. Where play goes
on in a part of the game listed after (a charge's target to the facing it hits, a
provoked cavalry squad to its advance, the orders to the reaction phase), it does so
by setting a `Stage` or the next `phase`, which `game.py` routes, never through an
import:

- `steps`: how a step is written: `Out`, the options read, a `Roll` and the dice
  options it passes on, the table entries (`RollStep`, `ChoiceStep`, `PhaseStep`).
- `squads`: queries about squads and officers: who fires, at whom, who may be charged,
  be ordered or react, who tests morale next, an officer's type in words.
- `turns`: setup (Command Points, officers' types), a side's half ended, the next
  turn, the turn limit and who holds the objectives.
- `orders`: the second action and orders phases: the squad picked, its menu of actions
  and what each does: move (rough terrain), form line or column, hyper-space, a second
  action, the action done.
- `shooting`: the reaction phase, a target picked (for any purpose), a cannon's range,
  the fire roll asked for, the markers it places.
- `charges`: contact: the facing hit, stress tests, the defender's fire at an advance.
- `morale_tests`: the morale phase: a good leader's help and risk, the test's result,
  provoked squads.
- `melees`: the melee phase: each contact fought round by round, men routed threefold,
  a commanding officer captured, the winner's victory points, martinets diced for.
- `rallying`: the rally phase: routed men brought back and the squads they join.
"""
