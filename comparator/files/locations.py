"""Where the shipped data lives: installed as the `rulesdiff_data` package, or the source
tree's `data/` when running from a checkout without installing."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    try:
        import rulesdiff_data

        return Path(rulesdiff_data.__file__).parent
    except ImportError:
        return Path(__file__).resolve().parent.parent / "data"


def scenarios_dir() -> Path:
    return data_dir() / "scenarios"


@cache  # the card library is looked up for every card a scenario names
def cards_file() -> Path:
    return data_dir() / "cards.yaml"


def template_file() -> Path:
    """The commented scenario `rulesdiff new` writes (and docs/scenario-format.md shows)."""
    return data_dir() / "new-scenario.yaml"


def shipped_scenarios() -> list[Path]:
    return sorted(scenarios_dir().glob("*.yaml"))


def find_scenario(name: str) -> Path | None:
    """A path as given, or the shipped scenario with that id or file name."""
    path = Path(name)
    if path.exists():
        return path
    for candidate in (scenarios_dir() / name, scenarios_dir() / f"{name}.yaml"):
        if candidate.exists():
            return candidate
    return None
