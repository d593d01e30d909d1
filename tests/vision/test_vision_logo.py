"""Logo faces: `companion dice teach` learns a face from a few frames; the reader uses it."""

from __future__ import annotations

import argparse
import os
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, VisionError, load_image
from companion.vision.cli import add_commands
from companion.vision.compose import _assets, _paste


def _logo_sprite() -> np.ndarray:
    """A black die with a gold skull-and-crossbones-like emblem instead of the 6."""
    s = 64
    img = np.zeros((s, s, 4), np.uint8)
    cv2.rectangle(img, (4, 4), (59, 59), (30, 30, 30, 255), -1)
    gold = (40, 180, 230, 255)
    cv2.circle(img, (32, 27), 12, gold, -1)
    cv2.circle(img, (27, 25), 3, (30, 30, 30, 255), -1)
    cv2.circle(img, (37, 25), 3, (30, 30, 30, 255), -1)
    cv2.line(img, (16, 44), (48, 54), gold, 4)
    cv2.line(img, (16, 54), (48, 44), gold, 4)
    return img


def _frame(n_logo: int, values: list[int], seed: int) -> np.ndarray:
    rng = random.Random(seed)
    tray, crops = _assets()
    frame = tray.copy()
    spots = [(100 + 110 * (i % 5), 120 + 130 * (i // 5)) for i in range(10)]
    rng.shuffle(spots)
    for _i in range(n_logo):
        _paste(frame, _logo_sprite(), *spots.pop(), 42, rng.uniform(0, 360), rng)
    for v in values:
        _paste(frame, rng.choice(crops["d6"][v]), *spots.pop(), 40, rng.uniform(0, 360), rng)
    return frame


@pytest.mark.parametrize("seed", [99, 101, 107, 123])
def test_teach_then_read(tmp_path: Path, seed: int) -> None:
    src = tmp_path / "frames"
    src.mkdir()
    for k in range(3):
        cv2.imwrite(str(src / f"logo{k}.png"), _frame(2, [], k))
    store = tmp_path / "store"
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["dice", "teach", "--from", str(src), "--value", "6",
                              "--name", "skulls", "--store", str(store)])
    assert args.func(args) == 0
    assert list(store.glob("skulls-6.npz"))
    taught = DiceReader(logo_faces_dir=store)
    frame = _frame(1, [2, 3, 5], seed)
    out = taught.read(frame)
    got = [d.value for d in out.dice]
    # The logo die reads as the taught 6; the pip dice are read right or refused.
    assert got.count(6) == 1, out
    assert not Counter(got) - Counter([2, 3, 5, 6]), out
    # Teaching changes only the logo die: the pip dice read as they did untaught (with
    # seed 123 a faint candidate kept for the store once made the 2 "stacked").
    assert set(DiceReader().read(frame).dice) <= set(out.dice), out


def _teach_one(store: Path, tmp_path: Path) -> Path:
    src = tmp_path / "frames"
    src.mkdir(exist_ok=True)
    cv2.imwrite(str(src / "logo.png"), _frame(2, [], 0))
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["dice", "teach", "--from", str(src), "--value", "6",
                              "--name", "skulls", "--store", str(store)])
    assert args.func(args) == 0
    return store / "skulls-6.npz"


def test_taught_face_records_its_model(tmp_path: Path) -> None:
    taught = _teach_one(tmp_path / "store", tmp_path)
    with np.load(taught) as z:
        assert str(z["model"]) == DiceReader().models.d6_id
    assert DiceReader(logo_faces_dir=tmp_path / "store").logos


@pytest.mark.parametrize("dropped, model", [("model", "0123456789abcdef"), ("model", None),
                                            ("patches", "the current one")])
def test_face_taught_with_another_model_is_refused(
    tmp_path: Path, dropped: str, model: str | None
) -> None:
    """After a model update the old embeddings mean nothing, and a face taught before faces
    kept their pictures cannot be matched: ask for the face again."""
    taught = _teach_one(tmp_path / "store", tmp_path)
    with np.load(taught) as z:
        fields = {k: z[k] for k in z.files if k not in (dropped, "format")}
    if model is not None:
        fields["model"] = np.str_(DiceReader().models.d6_id if model == "the current one"
                                  else model)
    np.savez_compressed(taught, **fields)
    with pytest.raises(VisionError, match=r"taught with another version.*teach that face"):
        DiceReader(logo_faces_dir=tmp_path / "store")


def test_a_taught_logo_changes_no_pip_reading(tmp_path: Path, d6_train_dir: Path) -> None:
    """Every third train/ photo reads the same with the skull taught as without it."""
    _teach_one(tmp_path / "store", tmp_path)
    plain, taught = DiceReader(), DiceReader(logo_faces_dir=tmp_path / "store")
    photos = sorted(d6_train_dir.glob("*.jpg"))[::3]
    assert len(photos) > 60
    for photo in photos:
        frame = load_image(photo)
        before, after = plain.read(frame), taught.read(frame)
        assert (before.dice, before.unreadable) == (after.dice, after.unreadable), photo.name


def _face_fields(store: Path, tmp_path: Path) -> dict[str, np.ndarray]:
    with np.load(_teach_one(store, tmp_path)) as z:
        return {k: z[k] for k in z.files}


def _truncated(path: Path, fields: dict[str, np.ndarray]) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


@pytest.mark.parametrize(("damage", "says"), [
    (lambda p, f: p.write_bytes(b""), r"damaged \(EOFError"),
    (_truncated, r"damaged \(BadZipFile"),
    (lambda p, f: np.savez(p, **{**f, "value": np.array([6, 6])}), r"damaged \(TypeError: value"),
    (lambda p, f: np.savez(p, **{**f, "model": np.array([f["model"]] * 2)}), r"TypeError: model"),
    (lambda p, f: np.savez(p, **{**f, "embeddings": f["embeddings"][:, :64]}),
     r"its embeddings are 64 long, the dice model's 96"),
    (lambda p, f: np.savez(p, **{**f, "embeddings": f["embeddings"][:0]}), r"its embeddings"),
    (lambda p, f: np.savez(p, **{**f, "embeddings": f["embeddings"] * np.nan}),
     r"its embeddings"),
    (lambda p, f: np.savez(p, **{**f, "patches": f["patches"][..., :1]}), r"its pictures"),
    (lambda p, f: np.savez(p, **{**f, "value": np.int64(9)}), r"value 9 is not a d6 face"),
    (lambda p, f: (p.unlink(), p.mkdir()), r"damaged \(IsADirectoryError"),
])
def test_a_damaged_face_file_is_a_clear_error(
    tmp_path: Path, damage: Callable[[Path, dict[str, np.ndarray]], object], says: str
) -> None:
    """Each of these once loaded as a store or failed with a bare numpy or zipfile error
    (a wrong embedding width failed on every read, with a matmul ValueError)."""
    store = tmp_path / "store"
    fields = _face_fields(store, tmp_path)
    damage(store / "skulls-6.npz", fields)
    with pytest.raises(VisionError, match=says) as caught:
        DiceReader(logo_faces_dir=store)
    assert "skulls-6.npz" in str(caught.value)
    assert "teach that face again" in str(caught.value)


def test_a_logo_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    """A configured store that is not there (a typo, an unmounted disk) must not read as if
    nothing had been taught: the box turns this into a setup fault."""
    with pytest.raises(VisionError, match=r"logo-face folder .*nowhere does not exist.*"
                                          r"dice teach --store"):
        DiceReader(logo_faces_dir=tmp_path / "nowhere")
    (tmp_path / "nowhere").mkdir()  # made, nothing taught yet: no faces
    assert not DiceReader(logo_faces_dir=tmp_path / "nowhere").logos


def test_teaching_writes_whole_files_or_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    store = tmp_path / "store"
    taught = _teach_one(store, tmp_path)
    before = taught.read_bytes()
    assert sorted(p.name for p in store.iterdir()) == ["skulls-6.json", "skulls-6.npz",
                                                       "skulls-6.png"]

    def power_cut(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", power_cut)  # files.write_atomically's
    with pytest.raises(VisionError, match="cannot save the taught face"):
        _teach_one(store, tmp_path)
    # The face taught before is whole, and no half-written file is left behind.
    assert taught.read_bytes() == before
    assert sorted(p.name for p in store.iterdir()) == ["skulls-6.json", "skulls-6.npz",
                                                       "skulls-6.png"]
    assert DiceReader(logo_faces_dir=store).logos


def test_pictures_kept_per_face_are_capped(tmp_path: Path) -> None:
    """A store taught from 120 dice took 106 MB of templates and 24 ms a die; the cap keeps
    MAX_PICTURES_PER_VALUE pictures, spread over all those taught, when teaching and when
    loading a store taught before the cap."""
    from companion.vision.logos import MAX_PICTURES_PER_VALUE, TURNS, ZOOMS, LogoStore

    model = DiceReader().models
    rng = np.random.default_rng(0)
    embeddings = rng.normal(size=(480, model.embedding_width)).astype(np.float32)
    patches = rng.integers(0, 256, (120, 64, 64, 3), np.uint8)
    patches[:, 0, 0, 0] = np.arange(120)  # which picture is which
    per_picture = TURNS * len(ZOOMS)

    saved = LogoStore.save(tmp_path / "new", "big", 6, embeddings, patches, model.d6_id)
    with np.load(saved) as z:
        kept = z["patches"]
        assert len(kept) == MAX_PICTURES_PER_VALUE and len(z["embeddings"]) == 480
    assert kept[0, 0, 0, 0] == 0 and kept[-1, 0, 0, 0] == 119  # spread over all of them

    old = tmp_path / "old"
    old.mkdir()
    for name, value in (("a-6", 6), ("b-6", 6), ("c-1", 1)):
        np.savez_compressed(old / f"{name}.npz", embeddings=embeddings, value=np.int64(value),
                            model=np.str_(model.d6_id), patches=patches,
                            format=np.int64(2))
    store = LogoStore.load(old, model.d6_id, model.embedding_width)
    for value in (1, 6):
        assert np.count_nonzero(store.template_values == value) == \
            MAX_PICTURES_PER_VALUE * per_picture
    assert store.templates.nbytes < 2 * MAX_PICTURES_PER_VALUE * 0.9e6 * 1.01
    assert len(store.embedding_values) == 3 * 480
