"""Fire combat: rifles, pistols, officers' dice, cover, pins, the Maxim and the gun.

Each volley is one roll of d6 in groups (riflemen, wounded riflemen, pistols)
and gives hits before saves. Heavy cover saves are a follow-up roll (one die
per hit, 4-6 saves). The Maxim and the gun roll again for every 6 (a follow-up
of that many dice); the Maxim jams on three or more 1s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from companion.rules.core import (
    Action,
    DiceGroup,
    DieKind,
    Odds,
    Outcome,
    Param,
    ParamKind,
    Params,
    RollRequest,
    RulesError,
    check_dice,
    counted,
)
from companion.rules.odds import face_chance, odds_from_ways
from companion.rules.tenir_le_fort import tables as t
from companion.rules.tenir_le_fort.dicemath import Judgement, dice_total_action, fold_pool_ways

COVERS = ("none", "light", "heavy")

# ------------------------------------------------------------------ volleys


@dataclass(frozen=True)
class FireGroup:
    label: str
    count: int
    hit_faces: frozenset[int]

    def meaning(self) -> str:
        faces = sorted(self.hit_faces)
        text = f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])
        return f"hits on {text}"  # "6 hits" read as a count of hits


@dataclass(frozen=True)
class Volley:
    """A resolved firing situation: the dice groups and what the dice can do."""

    reason: str
    groups: tuple[FireGroup, ...]
    can_pin: bool  # target in the open and pinnable
    firer_pinned: bool
    heavy_cover: bool  # hits are saved on 4-6
    notes: tuple[str, ...] = ()

    @property
    def dice(self) -> int:
        return sum(g.count for g in self.groups)

    def request(self) -> RollRequest:
        extra = []
        if self.can_pin:
            extra.append("two 6s pin")
        if self.firer_pinned:
            extra.append("a 5-6 recovers from pin")
        tail = ("; " + "; ".join(extra)) if extra else ""
        return RollRequest(
            self.reason,
            tuple(
                DiceGroup(DieKind.D6, g.count, g.label, g.meaning() + tail)
                for g in self.groups
                if g.count
            ),
        )

    def effects_of(self, hits: int, sixes: int, any56: bool) -> frozenset[str]:
        effects: set[str] = set()
        if self.can_pin and sixes >= t.PIN_SIXES:
            effects.add("pinned")
        if self.firer_pinned and any56:
            effects.add("recovered")
        return frozenset(effects)

    def resolve(self, dice: Sequence[int]) -> Outcome:
        request = self.request()
        check_dice(request, dice)
        hits = 0
        lines = list(self.notes)
        at = 0
        for g in self.groups:
            if not g.count:
                continue
            part = dice[at : at + g.count]
            at += g.count
            got = sum(1 for d in part if d in g.hit_faces)
            hits += got
            lines.append(
                f"{g.label}: {', '.join(map(str, part))} -> {counted(got, 'hit')} ({g.meaning()})"
            )
        sixes = sum(1 for d in dice if d == 6)
        any56 = any(d in t.RECOVER_FACES for d in dice)
        effects = self.effects_of(hits, sixes, any56)
        if "pinned" in effects:
            lines.append(f"{sixes} sixes at a unit in the open: target pinned")
        if "recovered" in effects:
            lines.append("a 5 or 6 shows: the firers recover from pin")
        follow = save_request(hits) if self.heavy_cover and hits else None
        if follow:
            lines.append(f"heavy cover: roll {hits}d6 to save, 4-6 saves")
        return Outcome(hits, "hits", effects, tuple(lines), follow_up=follow)

    def odds(self) -> Odds:
        steps: list[tuple[int, Callable[[tuple[int, bool], int], tuple[tuple[int, bool], int]]]]
        steps = []
        for g in self.groups:

            def step(
                s: tuple[int, bool], f: int, faces: frozenset[int] = g.hit_faces
            ) -> tuple[tuple[int, bool], int]:
                key = (min(t.PIN_SIXES, s[0] + (f == 6)), s[1] or f in t.RECOVER_FACES)
                return key, int(f in faces)

            steps.append((g.count, step))
        ways, total = fold_pool_ways((0, False), steps)
        return odds_from_ways(
            "hits",
            ((w, hits, self.effects_of(hits, k[0], k[1])) for (k, hits), w in ways.items()),
            total,
        )


def reduce(count: int, *, pinned: bool, divisor: int) -> int:
    """Dice after halving for pin and dividing for low ammunition (fractions dropped)."""
    if pinned:
        count //= 2
    return count // divisor


def where(cover: str) -> str:
    return "in the open" if cover == "none" else f"in {cover} cover"


def to_hit(side: str, cover: str) -> frozenset[int]:
    if cover == "none":
        return t.TO_HIT_OPEN_FFL if side == "FFL" else t.TO_HIT_OPEN_ARAB
    return t.TO_HIT_COVER


def arab_volley(p: Params) -> Volley:
    figures = int(p["figures"])
    cover = str(p["cover"])
    pinned = bool(p["pinned"])
    front = min(figures, t.ARAB_FRONT_ROW)
    rifles = reduce(front, pinned=pinned, divisor=1)
    pistols = reduce(t.PISTOL_SHOTS * int(p["pistols"]), pinned=pinned, divisor=1)
    notes = [f"front row of {front} fires" + (", halved: pinned" if pinned else "")]
    hit = to_hit("Arab", cover)
    return Volley(
        reason=f"Arab fire at a target {where(cover)}",
        groups=(FireGroup("Arab rifles", rifles, hit), FireGroup("pistols", pistols, hit)),
        can_pin=cover == "none" and not bool(p["target_unpinnable"]),
        firer_pinned=pinned,
        heavy_cover=cover == "heavy",
        notes=tuple(notes),
    )


def ffl_cover(cover: str, *, from_tower: bool) -> str:
    """The cover that counts: from the tower dunes and rooftops give none; a rooftop
    seen from anywhere else is part of its building, heavy cover."""
    if from_tower and cover in t.TOWER_IGNORES_COVER:
        return "none"
    return "heavy" if cover == "rooftop" else cover


def ffl_volley(p: Params) -> Volley:
    riflemen = int(p["riflemen"])
    wounded = int(p["wounded"])
    if wounded > riflemen:
        raise RulesError(f"wounded={wounded} is more than riflemen={riflemen}")
    pistols = int(p["pistols"])
    pistols_wounded = int(p["pistols_wounded"])
    if pistols_wounded > pistols:
        raise RulesError(f"pistols_wounded={pistols_wounded} is more than pistols={pistols}")
    leader_dice = t.SERGEANT_FIRE_DICE * bool(p["sergeant"]) + t.CAPTAIN_FIRE_DICE * int(
        p["officers"]
    )
    leader_dice_wounded = int(p["wounded_leader_dice"])
    if leader_dice_wounded > leader_dice:
        raise RulesError(
            f"wounded_leader_dice={leader_dice_wounded} is more than the leaders' {leader_dice}"
        )
    moving = str(p["mode"]) == "moving"
    from_tower = bool(p["from_tower"])
    cover = ffl_cover(str(p["cover"]), from_tower=from_tower)
    pinned = bool(p["pinned"])
    divisor = t.AMMO_DIVISOR[str(p["ammo"])]
    notes: list[str] = []
    if from_tower and str(p["cover"]) in t.TOWER_IGNORES_COVER:
        notes.append("from the tower dunes and rooftops give no cover")
    elif str(p["cover"]) == "rooftop":
        notes.append("a rooftop is part of its building: heavy cover")
    if moving:
        total = riflemen // 2
        wounded_dice = min(wounded // 2, total)
        healthy_dice = total - wounded_dice
        notes.append(f"moving: 1d6 per 2 riflemen = {total}")
    else:
        healthy_dice = riflemen - wounded + leader_dice - leader_dice_wounded
        wounded_dice = wounded + leader_dice_wounded
        if leader_dice:
            notes.append(f"leaders with the squad add {leader_dice}d6")
        if leader_dice_wounded:
            notes.append(f"{leader_dice_wounded} of them a wounded leader's: hit on 6")
    full = healthy_dice + wounded_dice
    kept = reduce(full, pinned=pinned, divisor=divisor)
    if kept != full:
        why = [w for w, on in (("pinned", pinned), (f"ammo {p['ammo']}", divisor > 1)) if on]
        notes.append(f"{counted(full, 'die', 'dice')} cut to {kept} ({', '.join(why)})")
    healthy_kept = min(healthy_dice, kept)
    wounded_kept = kept - healthy_kept
    # halved pistols keep the unwounded hands' shots first, as the rifles do
    pistol_dice = reduce(t.PISTOL_SHOTS * pistols, pinned=pinned, divisor=divisor)
    pistols_healthy = min(t.PISTOL_SHOTS * (pistols - pistols_wounded), pistol_dice)
    hit = to_hit("FFL", cover)
    return Volley(
        reason=f"FFL fire at a target {where(cover)}",
        groups=(
            FireGroup("FFL rifles", healthy_kept, hit),
            FireGroup("wounded riflemen", wounded_kept, t.TO_HIT_WOUNDED),
            FireGroup("pistols", pistols_healthy, hit),
            FireGroup("wounded pistols", pistol_dice - pistols_healthy, t.TO_HIT_WOUNDED),
        ),
        can_pin=cover == "none" and not bool(p["target_unpinnable"]),
        firer_pinned=pinned,
        heavy_cover=cover == "heavy",
        notes=tuple(notes),
    )


COVER = Param("cover", ParamKind.CHOICE, "the target's cover", "none", choices=COVERS)
PINNED = Param("pinned", ParamKind.BOOL, "the firers are pinned (half dice)", False)
UNPINNABLE = Param(
    "target_unpinnable", ParamKind.BOOL, "the target has a mounted leader (cannot be pinned)", False
)
AMMO = Param(
    "ammo", ParamKind.CHOICE, "FFL ammunition level", "normal", choices=("normal", "half", "third")
)


def _volley_action(
    name: str,
    title: str,
    help_text: str,
    params: tuple[Param, ...],
    build: Callable[[Params], Volley],
    examples: tuple[Params, ...],
) -> Action:
    return Action(
        name=name,
        title=title,
        help=help_text,
        params=params,
        request=lambda p: build(p).request(),
        resolve=lambda p, dice: build(p).resolve(dice),
        odds=lambda p: build(p).odds(),
        examples=examples,
    )


ARAB_FIRE = _volley_action(
    "arab-fire",
    "Arab fire",
    "A stationary Arab unit rolls 1d6 per figure in its front row of six: 5-6 hits in the "
    "open, 6 in cover; two 6s pin a unit in the open; pinned firers roll half.",
    (
        Param("figures", ParamKind.INT, "figures in the unit", 12, minimum=1, maximum=60),
        COVER,
        PINNED,
        Param(
            "pistols",
            ParamKind.INT,
            "pistol-armed figures within 6 inches",
            0,
            minimum=0,
            maximum=10,
        ),
        UNPINNABLE,
    ),
    arab_volley,
    (
        {"figures": 12, "cover": "none"},
        {"figures": 5, "cover": "heavy"},
        {"figures": 10, "cover": "light", "pinned": True},
    ),
)

FFL_FIRE = _volley_action(
    "ffl-fire",
    "FFL fire",
    "Stationary legionnaires roll 1d6 per rifleman (sergeant +1d6, captain or lieutenant "
    "+2d6), moving or counter-charging ones 1d6 per two with no officer dice; 4-6 hits in the "
    "open, 6 in cover; wounded hit on 6; pinned half, low ammunition half or a third.",
    (
        Param("riflemen", ParamKind.INT, "riflemen firing", 6, minimum=0, maximum=40),
        Param("wounded", ParamKind.INT, "of them wounded (hit on 6)", 0, minimum=0, maximum=40),
        Param(
            "mode",
            ParamKind.CHOICE,
            "stationary or moving",
            "stationary",
            choices=("stationary", "moving"),
        ),
        Param("sergeant", ParamKind.BOOL, "a sergeant is attached (+1d6 stationary)", False),
        Param(
            "officers",
            ParamKind.INT,
            "the captain and/or lieutenant attached (+2d6 each)",
            0,
            minimum=0,
            maximum=2,
        ),
        Param(
            "wounded_leader_dice",
            ParamKind.INT,
            "leaders' dice of a wounded leader: hit on 6 (option wounded_leader_bonus)",
            0,
            minimum=0,
            maximum=5,
        ),
        Param(
            "pistols",
            ParamKind.INT,
            "pistol-armed figures within 6 inches",
            0,
            minimum=0,
            maximum=6,
        ),
        Param(
            "pistols_wounded",
            ParamKind.INT,
            "of them wounded (hit on 6)",
            0,
            minimum=0,
            maximum=6,
        ),
        Param(
            "cover",
            ParamKind.CHOICE,
            "the target's cover (a rooftop is heavy, none from the tower)",
            "none",
            choices=(*COVERS, "rooftop"),
        ),
        PINNED,
        AMMO,
        Param(
            "from_tower",
            ParamKind.BOOL,
            "firing from the tower (dunes and rooftops give no cover)",
            False,
        ),
        UNPINNABLE,
    ),
    ffl_volley,
    (
        {"riflemen": 3, "sergeant": True, "cover": "none"},
        {"riflemen": 4, "wounded": 1, "cover": "light", "pinned": True},
        {"riflemen": 6, "mode": "moving", "pistols": 1, "cover": "heavy"},
        {"riflemen": 5, "ammo": "half", "cover": "none", "target_unpinnable": True},
    ),
)

# ------------------------------------------------------------------ saves


def save_request(hits: int) -> RollRequest:
    return RollRequest(
        "heavy cover saves",
        (DiceGroup(DieKind.D6, hits, "save", "4-6 saves the figure"),),
    )


def _save_resolve(p: Params, dice: Sequence[int]) -> Outcome:
    check_dice(save_request(int(p["hits"])), dice)
    saved = sum(1 for d in dice if d in t.HEAVY_COVER_SAVE)
    lost = len(dice) - saved
    return Outcome(
        lost,
        "casualties",
        frozenset({"not_saved"}) if lost else frozenset(),
        (f"saves {', '.join(map(str, dice))}: {saved} saved, {lost} not saved",),
    )


def _save_odds(p: Params) -> Odds:
    n = int(p["hits"])
    ways, total = fold_pool_ways(0, [(n, lambda s, f: (0, int(f not in t.HEAVY_COVER_SAVE)))])
    return odds_from_ways(
        "casualties",
        ((w, v, frozenset({"not_saved"}) if v else frozenset()) for (_, v), w in ways.items()),
        total,
    )


HEAVY_COVER_SAVE = Action(
    name="heavy-cover-save",
    title="Heavy cover saves",
    help="Each hit on a target in heavy cover (rocks, buildings) is saved on 4-6.",
    params=(Param("hits", ParamKind.INT, "hits to save", 3, minimum=1, maximum=40),),
    request=lambda p: save_request(int(p["hits"])),
    resolve=_save_resolve,
    odds=_save_odds,
    examples=({"hits": 1}, {"hits": 4}),
)

# ------------------------------------------------------------------ heavy weapons


@dataclass(frozen=True)
class GunShot:
    side: str
    gun: str  # "maxim" or "artillery"
    dice: int
    hit_faces: frozenset[int]
    jammed: bool  # this is the clearing roll of a jammed Maxim
    clear_fires: bool  # a clearing roll that clears also scores its hits
    bonus: bool  # rolling again for 6s: no jam, no pin
    can_pin: bool
    heavy_cover: bool
    notes: tuple[str, ...] = ()
    firer_pinned: bool = False  # the crew is pinned: half dice, a 5-6 recovers

    def request(self) -> RollRequest:
        if self.bonus:
            reason = f"{t.GUN_WORDS[self.gun]} rolls again for 6s"
        elif self.jammed:
            reason = "jammed Maxim: clearing roll"
        else:
            reason = f"{self.side} {t.GUN_WORDS[self.gun]} fire"
        faces = sorted(self.hit_faces)
        meaning = f"{faces[0]}-{faces[-1]} hits; 6s roll again"
        if self.gun == "maxim" and not self.bonus:
            meaning += "; three 1s jam" if not self.jammed else "; 5-6 clears, three 1s break"
        if self.firer_pinned and not self.bonus:
            meaning += "; a 5-6 recovers from pin"
        return RollRequest(
            reason, (DiceGroup(DieKind.D6, self.dice, self.gun, meaning),) if self.dice else ()
        )

    def evaluate(
        self, hits: int, sixes: int, ones: int, any56: bool
    ) -> tuple[int, frozenset[str], bool]:
        """(hits that count, effects, whether the roll scores and so rolls again for 6s)."""
        effects: set[str] = set()
        scores = True
        if self.firer_pinned and not self.bonus and any56:
            effects.add("recovered")
        # a gun that cannot fire (no crew, no shells, the blind zone) rolls nothing, so
        # neither jams nor clears a jam
        if self.gun == "maxim" and not self.bonus and self.dice:
            if self.jammed:
                if ones >= t.JAM_ONES:
                    effects.add("broken_for_good")
                    scores = False
                elif any56:
                    effects.add("cleared")
                    scores = self.clear_fires
                else:
                    effects.add("jammed")
                    scores = False
            elif ones >= t.JAM_ONES:
                effects.add("jammed")
        if not scores:
            return 0, frozenset(effects), False
        if self.can_pin and sixes >= t.PIN_SIXES:
            effects.add("pinned")
        return hits, frozenset(effects), True

    def resolve(self, dice: Sequence[int]) -> Outcome:
        request = self.request()
        check_dice(request, dice)
        raw_hits = sum(1 for d in dice if d in self.hit_faces)
        sixes = sum(1 for d in dice if d == t.EXPLODE_FACE)
        ones = sum(1 for d in dice if d == 1)
        any56 = any(d in t.RECOVER_FACES for d in dice)
        hits, effects, scoring = self.evaluate(raw_hits, sixes, ones, any56)
        lines = list(self.notes)
        rolled = ", ".join(map(str, dice))
        if dice and scoring:
            lines.append(f"{rolled}: {counted(raw_hits, 'hit')}")
        elif dice:
            # a clearing roll that does not score: the faces that would have hit count for
            # nothing, and the line must not read as hits scored under a "0 hits" headline
            lost = "the hit is lost" if raw_hits == 1 else f"the {raw_hits} hits are lost"
            lines.append(f"{rolled}: " + (f"a clearing roll, {lost}" if raw_hits else "no hits"))
        if "broken_for_good" in effects:
            lines.append("three 1s before the jam cleared: the Maxim is broken for good")
        elif "cleared" in effects:
            lines.append("a 5 or 6: the jam is cleared" + ("" if self.clear_fires else ", no hits"))
        elif "jammed" in effects:
            lines.append(
                "three or more 1s: the Maxim is jammed"
                if not self.jammed
                else "no 5 or 6: still jammed"
            )
        if "pinned" in effects:
            lines.append("two 6s at a unit in the open: target pinned")
        if "recovered" in effects:
            lines.append("a 5 or 6 shows: the crew recovers from pin")
        follow = None
        if scoring and sixes:
            follow = GunShot(
                self.side, self.gun, sixes, self.hit_faces, False, False, True, False, False
            ).request()
            lines.append(
                f"{counted(sixes, 'six', 'sixes')}: roll {counted(sixes, 'more die', 'more dice')}"
            )
        if self.heavy_cover and hits:
            lines.append("heavy cover: the hits will be saved on 4-6")
        return Outcome(hits, "hits", effects, tuple(lines), follow_up=follow)

    def odds(self) -> Odds:
        def step(s: tuple[int, int, bool], f: int) -> tuple[tuple[int, int, bool], int]:
            key = (
                min(t.PIN_SIXES, s[0] + (f == 6)),
                min(t.JAM_ONES, s[1] + (f == 1)),
                s[2] or f in t.RECOVER_FACES,
            )
            return key, int(f in self.hit_faces)

        ways, total = fold_pool_ways((0, 0, False), [(self.dice, step)])
        out = []
        for (k, raw), w in ways.items():
            hits, effects, _ = self.evaluate(raw, k[0], k[1], k[2])
            out.append((w, hits, effects))
        return replace(
            odds_from_ways("hits", out, total),
            follow_up_mean=self.follow_up_mean(),
            follow_up_label="with 6s' dice",
        )

    def follow_up_mean(self) -> Fraction | None:
        """The hits this roll's 6s are expected to add through the dice they earn, and
        the dice those dice's 6s earn, and so on; None when no 6 can earn a die.

        `resolve` rolls one more die per 6 when the roll scores (a jammed Maxim's
        clearing roll may not). A die rolled again hits as this roll's do, with chance
        p, and, a bonus roll always scoring, earns 1/6 of a die more: it is worth
        p + p/6 + p/36 + ... = p / (1 - 1/6) = 6p/5 hits.
        """

        def step(s: tuple[int, bool], f: int) -> tuple[tuple[int, bool], int]:
            key = (min(t.JAM_ONES, s[0] + (f == 1)), s[1] or f in t.RECOVER_FACES)
            return key, int(f == t.EXPLODE_FACE)

        ways, total = fold_pool_ways((0, False), [(self.dice, step)])
        scoring_sixes = sum(
            w * sixes
            for ((ones, any56), sixes), w in ways.items()
            if self.evaluate(0, min(t.PIN_SIXES, sixes), ones, any56)[2]
        )
        if not scoring_sixes:
            return None
        six = face_chance(DieKind.D6, {t.EXPLODE_FACE})
        per_die = face_chance(DieKind.D6, self.hit_faces) / (1 - six)
        return Fraction(scoring_sixes, total) * per_die


def gun_dice(
    side: str, gun: str, crew: int, ammo: str, pinned: bool = False
) -> tuple[int, tuple[str, ...]]:
    """Firing dice of a heavy weapon and the reasons it has fewer than full."""
    full = t.HEAVY_WEAPON_DICE[(side, gun)]
    notes = [f"{side} {t.GUN_WORDS[gun]}: {full}d6"]
    if crew < 1:
        return 0, (*notes, "no crew: cannot fire")
    if ammo == "third":
        return 0, (*notes, "no Maxim or artillery ammunition left")
    dice = full
    if pinned:
        dice //= 2
        notes.append(f"the crew is pinned: {dice}d6")
    lost = t.FULL_CREW[gun] - crew
    if lost * 2 >= t.FULL_CREW[gun]:
        dice //= 2
        notes.append(f"half the crew or more lost: {dice}d6")
    if ammo == "half":
        dice //= 2
        notes.append(f"low ammunition: {dice}d6")
    return dice, tuple(notes)


def gun_shot(p: Params, gun: str) -> GunShot:
    side = str(p["side"])
    cover = str(p["cover"]) if gun == "maxim" else "none"
    bonus = int(p["bonus_dice"])
    pinnable = not bool(p["target_unpinnable"]) and str(p["cover"]) == "none"
    hit = to_hit(side, cover) if gun == "maxim" else t.TO_HIT_ARTILLERY
    if bonus:
        return GunShot(
            side, gun, bonus, hit, False, False, True, False, cover == "heavy" and gun == "maxim"
        )
    if bool(p["too_close"]):
        return GunShot(
            side,
            gun,
            0,
            hit,
            False,
            False,
            False,
            False,
            False,
            (
                f"on the wall the {t.GUN_WORDS[gun]} cannot fire "
                f"within {t.WALL_MIN_RANGE[gun]} inches",
            ),
        )
    pinned = bool(p["pinned"])
    dice, notes = gun_dice(side, gun, int(p["crew"]), str(p["ammo"]), pinned)
    jammed = gun == "maxim" and bool(p["jammed"])
    return GunShot(
        side,
        gun,
        dice,
        hit,
        jammed,
        bool(p.get("clear_fires", False)),
        False,
        pinnable,
        gun == "maxim" and cover == "heavy",
        notes,
        firer_pinned=pinned,
    )


def _gun_params(gun: str) -> tuple[Param, ...]:
    common: tuple[Param, ...] = (
        Param("side", ParamKind.CHOICE, "who mans the gun", "FFL", choices=("FFL", "Arab")),
        Param(
            "crew",
            ParamKind.INT,
            "crew left",
            t.FULL_CREW[gun],
            minimum=0,
            maximum=t.FULL_CREW[gun],
        ),
        AMMO,
        Param(
            "bonus_dice",
            ParamKind.INT,
            "dice rolled again for 6s (0: the main roll)",
            0,
            minimum=0,
            maximum=40,
        ),
        Param(
            "too_close",
            ParamKind.BOOL,
            f"on the wall, target within {t.WALL_MIN_RANGE[gun]} inches",
            False,
        ),
        UNPINNABLE,
        Param("pinned", ParamKind.BOOL, "the crew is pinned (half dice)", False),
    )
    if gun == "maxim":
        return (
            COVER,
            *common,
            Param("jammed", ParamKind.BOOL, "the Maxim is jammed (clearing roll)", False),
            Param("clear_fires", ParamKind.BOOL, "a clearing roll that clears also hits", False),
        )
    return (
        Param(
            "cover", ParamKind.CHOICE, "the target's cover (only pins care)", "none", choices=COVERS
        ),
        *common,
    )


def _gun_action(gun: str, title: str, help_text: str, examples: tuple[Params, ...]) -> Action:
    return Action(
        name=f"{gun}-fire",
        title=title,
        help=help_text,
        params=_gun_params(gun),
        request=lambda p: gun_shot(p, gun).request(),
        resolve=lambda p, dice: gun_shot(p, gun).resolve(dice),
        odds=lambda p: gun_shot(p, gun).odds(),
        examples=examples,
    )


MAXIM_FIRE = _gun_action(
    "maxim",
    "Maxim fire",
    "8d6 for the FFL (4d6 if the Arabs crew it), hits as rifles, every 6 rolls again; three "
    "1s jam it; a jammed gun clears on a 5-6 and breaks on three 1s; half dice with half the "
    "crew lost; on the wall it cannot fire within 6 inches.",
    (
        {"cover": "none", "crew": 1, "ammo": "half"},
        {"side": "Arab", "cover": "light"},
        {"jammed": True, "crew": 1},
        {"bonus_dice": 3, "cover": "heavy"},
    ),
)

ARTILLERY_FIRE = _gun_action(
    "artillery",
    "Artillery fire",
    "8d6 for the FFL (4d6 for the Arabs), 5-6 hits whatever the cover with no save, every 6 "
    "rolls again; half dice with half the crew lost; on the wall it cannot fire within 12 inches.",
    (
        {"side": "Arab"},
        {"crew": 2, "ammo": "half"},
        {"bonus_dice": 2},
    ),
)

# ------------------------------------------------------------------ leaders


def _two_d6_request(reason: str, meaning: str, groups_label: str) -> RollRequest:
    return RollRequest(reason, (DiceGroup(DieKind.D6, 2, groups_label, meaning),))


def _needed(p: Params) -> int:
    return min(t.SNIPE_FACES_2D6) - (1 if bool(p.get("hero", False)) else 0)


def snipe_request(p: Params) -> RollRequest:
    need = _needed(p)
    return _two_d6_request(
        "a rifleman aims at the leader", f"sum {need}-12 hits the leader", "sniper"
    )


def _judge_snipe(p: Params, total: int) -> Judgement:
    need = _needed(p)
    if total >= need:
        # a mounted leader hit is removed; the Captain or a Lieutenant rolls on Effect of hits
        return (
            1,
            frozenset({"leader_hit"}),
            (f"{total}: {need}-12 hits the leader (an officer then rolls on Effect of hits)",),
        )
    return 0, frozenset(), (f"{total}: missed (needs {need}-12)",)


SNIPE = dice_total_action(
    name="snipe-leader",
    title="Sniping a leader",
    help_text="One rifleman per unit per activation may aim at a mounted Arab leader, the Captain "
    "or the Lieutenant in sight: 2d6, 11-12 hits (a hero firing adds 1).",
    params=(Param("hero", ParamKind.BOOL, "the rifleman is a hero (+1)", False),),
    request=snipe_request,
    judge=_judge_snipe,
    label="leader hit",
    examples=({}, {"hero": True}),
    dice=2,
)


def leader_casualty_request() -> RollRequest:
    return _two_d6_request(
        "is the mounted leader among the casualties?",
        "sum 11-12: the leader is one of them",
        "leader check",
    )


def _judge_leader_casualty(p: Params, total: int) -> Judgement:
    if total in t.SNIPE_FACES_2D6:
        return 1, frozenset({"killed"}), (f"{total}: the mounted leader is among the casualties",)
    return 0, frozenset(), (f"{total}: the leader is unharmed",)


LEADER_CASUALTY = dice_total_action(
    name="leader-casualty",
    title="Mounted leader among the casualties",
    help_text="When a unit with a mounted leader takes casualties, 2d6 of 11-12 makes the leader "
    "one of them.",
    params=(),
    request=lambda p: leader_casualty_request(),
    judge=_judge_leader_casualty,
    label="leader lost",
    examples=({},),
    dice=2,
)

ACTIONS: tuple[Action, ...] = (
    ARAB_FIRE,
    FFL_FIRE,
    HEAVY_COVER_SAVE,
    MAXIM_FIRE,
    ARTILLERY_FIRE,
    SNIPE,
    LEADER_CASUALTY,
)
