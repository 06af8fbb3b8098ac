"""Build the starting game state of a scenario: attackers declared, blockers not yet."""

from __future__ import annotations

from versions.mtg.engine.state import Board, Card, Permanent, PlayerState
from versions.mtg.rules import Era
from versions.mtg.scenario import Scenario, ZoneCard
from versions.mtg.table import Table


def new_board(era: Era, scenario: Scenario) -> Board:
    """`scenario` must be resolved (cards merged in) and checked (comparator.games.mtg.checks).
    The era is kept, not read: the board is the same in every era but for it, which lets
    written blocks be checked in every era on one board (``Board.under``)."""
    table = Table.of(scenario)
    players = {p.name: PlayerState(p.name, p.life, p.mana, poison=p.poison,
                                   protection=tuple(p.protection),
                                   graveyard=[_card(c) for c in p.graveyard],
                                   hand=[_card(c) for c in p.hand])
               for p in scenario.players}
    permanents: dict[str, Permanent] = {}
    for spec in scenario.permanents:
        types = frozenset(spec.types or ["creature"])
        if spec.animated_by is not None:
            types |= {"creature"}  # while what animates it is on the battlefield
        permanents[spec.id] = Permanent(
            id=spec.id,
            name=spec.name or spec.card or spec.id,
            controller=spec.controller,
            printed_power=spec.power or 0,
            printed_toughness=spec.toughness or 0,
            printed_loyalty=spec.loyalty,
            base_keywords=list(spec.keywords),
            abilities=list(spec.abilities),
            colors=frozenset(spec.colors),
            types=types - {"artifact"},
            artifact="artifact" in types,
            token=spec.token,
            block_cost=spec.block_cost,
            damage=spec.damage,
            plus=spec.counters.get("+1/+1", 0),
            minus=spec.counters.get("-1/-1", 0),
            tapped=spec.tapped,
            loyalty=spec.loyalty,
            printed_defense=spec.defense,
            defense=spec.defense,
            protector=(spec.protector or spec.controller) if "battle" in types else None,
            animated_by=spec.animated_by,
            grows=spec.graveyard_count,
        )
    board = Board(
        era=era, scenario=scenario, players=players, permanents=permanents,
        order=[p.id for p in scenario.permanents], active=scenario.active, table=table,
    )
    combat = scenario.combat
    for attacker, target in combat.attacks.items():
        # Two-Headed Giant: a creature may be written attacking the defending team.
        board.attacks[attacker] = table.team_attacked(target, scenario.active) or target
        # Attacking tapped it, unless it has vigilance (the scenario starts after attacks).
        if not permanents[attacker].has("vigilance"):
            permanents[attacker].tapped = True
    for band in combat.bands:
        for member in band:
            board.bands[member] = tuple(m for m in band if m != member)
    board.count_graveyards()
    return board


def _card(c: ZoneCard | str) -> Card:
    """A card in a graveyard or hand as combat begins (the loader has written every name
    of the library out as a ZoneCard; a bare name left is not a creature card)."""
    return Card(c, False) if isinstance(c, str) else Card(c.name, c.creature)
