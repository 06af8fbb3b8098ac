"""The card library (data/cards.yaml): real cards in the scenario vocabulary."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from comparator.data_files import cards_file
from versions.scenario import Ability, Keyword, parse_keyword


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    name: str
    types: list[str]
    type_line: str = Field(alias="type-line")
    power: int | None = None
    toughness: int | None = None
    artifact: bool = False
    colors: list[str] = []
    keywords: list[Keyword] = []
    abilities: list[Ability] = []
    oracle: str = ""
    not_modelled: str | None = Field(default=None, alias="not-modelled")
    source: str

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, v: list) -> list[Keyword]:
        return [parse_keyword(k) for k in v]

    @property
    def is_permanent_card(self) -> bool:
        return "creature" in self.types or "planeswalker" in self.types


@cache
def library(path: Path | None = None) -> dict[str, Card]:
    raw = yaml.safe_load((path or cards_file()).read_text(encoding="utf-8"))
    return {c["name"]: Card.model_validate(c) for c in raw["cards"]}
