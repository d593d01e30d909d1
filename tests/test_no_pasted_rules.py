"""The rules' own prose stays out of the project: we encode facts, and write docs ourselves.

Any run of RUN_WORDS consecutive words shared with a source text in ../shared/seeds fails,
except the games' own titles, which are names. Markdown table cells are checked one by one,
so that a row of short facts ("all 3 dice | highest 2 dice | ...") does not read as a
sentence, while a sentence copied into one cell still does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RUN_WORDS = 10
ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
CHECKED_SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".svg", ".sh", ".service"}
SKIPPED_PARTS = {".git", ".venv", "__pycache__", "build", "dist"}
TITLES = (
    "fighting swashbucklers of the foreign legion the battle with the desert tribes",
    "scrubs of the desert french foreign legion skirmish rules",
)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def prose_runs(text: str) -> set[tuple[str, ...]]:
    """Every run of RUN_WORDS words that is mostly real words, not numbers."""
    found: set[tuple[str, ...]] = set()
    tokens = words(text)
    for start in range(len(tokens) - RUN_WORDS + 1):
        run = tuple(tokens[start : start + RUN_WORDS])
        if sum(1 for w in run if w.isalpha() and len(w) >= 3) >= RUN_WORDS * 0.6:
            found.add(run)
    return found


def project_texts(path: Path) -> list[str]:
    """The file's running text, then each table cell, with the games' titles taken out."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    running = [line for line in lines if not line.lstrip().startswith("|")]
    cells = [cell for line in lines if line.lstrip().startswith("|") for cell in line.split("|")]
    texts = []
    for text in ["\n".join(running), *cells]:
        flat = " ".join(words(text))
        for title in TITLES:
            flat = flat.replace(title, " ")
        texts.append(flat)
    return texts


def file_runs(path: Path) -> set[tuple[str, ...]]:
    return set().union(*(prose_runs(text) for text in project_texts(path)))


def project_files() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*")
        if path.is_file()
        and path.suffix in CHECKED_SUFFIXES
        and not SKIPPED_PARTS.intersection(path.relative_to(ROOT).parts)
    )


def test_no_sentence_of_the_rules_texts_is_pasted_into_the_project() -> None:
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} not found: the rules texts sit beside the repo in CI")
    seed_runs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        if seed.name != "README.md":
            seed_runs |= prose_runs(seed.read_text(encoding="utf-8", errors="replace"))
    pasted = {
        str(path.relative_to(ROOT)): sorted(" ".join(run) for run in shared)
        for path in project_files()
        if (shared := file_runs(path) & seed_runs)
    }
    assert not pasted, f"rules prose copied into the project (rewrite it): {pasted}"


SAMPLE = "the quick brown fox jumps over the lazy dog again and again today"


def test_the_check_finds_a_pasted_sentence(tmp_path: Path) -> None:
    assert prose_runs(SAMPLE) & prose_runs("A note: " + SAMPLE.upper() + ", and more.")
    page = tmp_path / "page.md"
    facts = " | ".join(" ".join(SAMPLE.split()[i : i + 3]) for i in range(0, 12, 3))
    page.write_text(f"| {facts} |\n\n{TITLES[0]}\n", encoding="utf-8")
    assert not file_runs(page), "a row of short cells and a title are not prose"
    page.write_text(f"| x | {SAMPLE} |\n", encoding="utf-8")
    assert file_runs(page) & prose_runs(SAMPLE), "a sentence inside one cell is still prose"
