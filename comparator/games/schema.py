"""The JSON Schema of a game's scenario format, for editors (`rulesdiff schema --game`)."""

from __future__ import annotations

from typing import Any

from comparator.games.registry import DEFAULT, game_named


def scenario_schema(game: str = DEFAULT) -> dict[str, Any]:
    return game_named(game).schema()


def model_schema(model: Any, title: str, description: str) -> dict[str, Any]:
    """A scenario model's JSON Schema (2020-12) with its title and description."""
    doc: dict[str, Any] = model.model_json_schema(by_alias=True)
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = title
    doc["description"] = description
    return doc
