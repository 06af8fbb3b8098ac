"""`rulesdiff dataset generate`: reproducible random combats for the regression dataset.

Scenario `i` of seed `s` is drawn from its own random stream (seeded with "s:i"), so any
scenario can be made again alone, a generation can be resumed or split, and a file's
content never depends on how many were generated. Each board is checked as `validate`
checks it (the format, and the blocks in every era) before it is written; a board whose
blocks some era refuses is drawn again from the same stream.

What is drawn (the distribution `docs/dataset.md` describes): two players (or, for the
share `multiplayer_share` of the boards, a multiplayer game: Free-for-All of three or
four players attacking several of them, or Two-Headed Giant); one to three
attackers and up to four possible blockers, each either a creature card from the library
or a creature made of keyword combinations; a legal block declaration chosen among those
the rules allow (so multi-blocks, creatures blocking several attackers, and 509.1c
requirements all occur); sometimes an intended division or `most-kills`; and up to two
tricks (pumps, sacrifices, bounces, regeneration, prevention, burn) in the windows of the
eras, some of which exist in one era only.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from versions.mtg.scenario import Window

GENERATOR_VERSION = 2  # 2: tricks in the damage prevention windows of `fifth` too
COLORS = ["white", "blue", "black", "red", "green"]
# Written into YAML as plain text. Not the window before blocks: an action there can make
# the generated blocks illegal (a blocker tapped or bounced), which the generator can't know.
WINDOWS = [str(w) for w in Window if w != Window.DECLARE_ATTACKERS]


@dataclass(frozen=True)
class Parameters:
    """The distribution. Stored with the dataset (the manifest, then the database)."""

    attackers: tuple[int, int] = (1, 3)
    blockers: tuple[int, int] = (0, 4)
    card_share: float = 0.4  # creatures that are library cards rather than drawn
    keyword_chance: float = 0.15  # each keyword of a pool, for a drawn creature
    trigger_chance: float = 0.1  # a block trigger on a drawn creature
    low_life_chance: float = 0.2  # the defending player at 1-5 life
    intention_chance: float = 0.35  # an intended division for a multi-blocked attacker
    most_kills_share: float = 0.4  # of those, `most-kills` rather than amounts
    tricks: tuple[int, int] = (0, 2)
    attacker_keywords: tuple[Any, ...] = (
        "flying", "first-strike", "double-strike", "trample", "deathtouch", "lifelink",
        "menace", "vigilance", "flanking", "fear", {"rampage": 1}, {"bushido": 1}, "lure")
    blocker_keywords: tuple[Any, ...] = (
        "flying", "reach", "first-strike", "double-strike", "deathtouch", "lifelink",
        "can-block-additional", "must-block", "indestructible", {"bushido": 1})
    seed_scheme: str = "random.Random(f'{seed}:{index}')"
    # Boards drawn as multiplayer games (docs/multiplayer.md). At 0, the default, no draw
    # is spent on it: the two-player boards of a seed are those of earlier generators.
    multiplayer_share: float = 0.0

    def document(self) -> dict[str, Any]:
        return json.loads(json.dumps(asdict(self)))


@dataclass
class DrawnBoard:
    """A scenario being drawn, as the YAML mapping it becomes."""

    players: list[dict[str, Any]]
    permanents: list[dict[str, Any]] = field(default_factory=list)

    def ids(self, controller: str) -> list[str]:
        return [p["id"] for p in self.permanents if p["controller"] == controller]


@cache
def _creature_cards() -> tuple[list[str], list[str]]:
    """Library creatures that may attack, and those that may be on the defending side."""
    from comparator.games.mtg.cards import shipped_library

    cards = [c for c in shipped_library().values() if "creature" in c.types and c.power is not None]
    attackers = [c.name for c in cards if not {"defender", "cant-attack"} & {
        k if isinstance(k, str) else next(iter(k)) for k in c.keywords}]
    return attackers, [c.name for c in cards]


def _creature(rng: random.Random, p: Parameters, pid: str, controller: str,
              pool: tuple[Any, ...], cards: list[str], trigger: str) -> dict[str, Any]:
    if rng.random() < p.card_share:
        return {"id": pid, "controller": controller, "card": rng.choice(cards)}
    kws: list[Any] = []
    for k in pool:
        if rng.random() < p.keyword_chance:
            kws.append({next(iter(k)): rng.randint(1, 2)} if isinstance(k, dict) else k)
    if rng.random() < p.keyword_chance / 2:
        kws.append({"protection": rng.choice(COLORS)})
    out: dict[str, Any] = {"id": pid, "controller": controller,
                           "power": rng.randint(0, 6), "toughness": rng.randint(1, 6),
                           "colors": [rng.choice(COLORS)]}
    if kws:
        out["keywords"] = kws
    if rng.random() < p.trigger_chance:
        out["abilities"] = [{"trigger": trigger, "effect": "pump", "target": "self",
                             "power": rng.randint(0, 2), "toughness": rng.randint(0, 2)}]
    return out


def _board(rng: random.Random, p: Parameters) -> DrawnBoard:
    attack_cards, block_cards = _creature_cards()
    low = rng.random() < p.low_life_chance
    board = DrawnBoard([{"name": "A", "life": 20},
                   {"name": "B", "life": rng.randint(1, 5) if low else 20,
                    "mana": rng.randint(0, 2)}])
    for i in range(rng.randint(*p.attackers)):
        board.permanents.append(_creature(rng, p, f"a{i + 1}", "A", p.attacker_keywords,
                                          attack_cards, "becomes-blocked"))
    for i in range(rng.randint(*p.blockers)):
        board.permanents.append(_creature(rng, p, f"b{i + 1}", "B", p.blocker_keywords,
                                          block_cards, "blocks"))
    return board


def _multiplayer_board(rng: random.Random, p: Parameters
                       ) -> tuple[DrawnBoard, dict[str, Any], dict[str, str]]:
    """A multiplayer game: Free-for-All of three or four players, the active player A
    attacking any of them (the attack multiple players option), or Two-Headed Giant, team
    A and B against C and D, both of A's team attacking; each defending player with up
    to two possible blockers. The board, its `multiplayer`, and who attacks whom."""
    attack_cards, block_cards = _creature_cards()
    if rng.random() < 0.5:
        variant = "two-headed-giant"
        life = rng.randint(1, 5) if rng.random() < p.low_life_chance else 30
        players = [{"name": "A", "team": "ab", "life": 30},
                   {"name": "B", "team": "ab", "life": 30},
                   {"name": "C", "team": "cd", "life": life, "mana": rng.randint(0, 2)},
                   {"name": "D", "team": "cd", "life": life, "mana": rng.randint(0, 2)}]
        attacking, defending = ["A", "B"], ["C", "D"]
    else:
        variant = "free-for-all"
        names = ["A", "B", "C", "D"][:rng.randint(3, 4)]
        players = [{"name": n, "life": 20} for n in names]
        for player in players[1:]:
            player["mana"] = rng.randint(0, 2)
            if rng.random() < p.low_life_chance / 2:
                player["life"] = rng.randint(1, 5)
        attacking, defending = ["A"], names[1:]
    board = DrawnBoard(players)
    attacks: dict[str, str] = {}
    for i in range(rng.randint(*p.attackers)):
        pid = f"a{i + 1}"
        board.permanents.append(_creature(rng, p, pid, rng.choice(attacking),
                                          p.attacker_keywords, attack_cards,
                                          "becomes-blocked"))
        attacks[pid] = rng.choice(defending)
    n = 0
    for player in defending:
        for _ in range(rng.randint(0, 2)):
            n += 1
            board.permanents.append(_creature(rng, p, f"b{n}", player, p.blocker_keywords,
                                              block_cards, "blocks"))
    return board, {"variant": variant}, attacks


def _blocks(rng: random.Random, board: Any) -> dict[str, tuple[str, ...]]:
    """A legal declaration, drawn among the first 500 the rules allow, favouring many
    blocks (the interesting ones) over none."""
    from versions.mtg.engine.blocks import legal_declarations

    seen: list[dict[str, tuple[str, ...]]] = []
    for decl in legal_declarations(board):
        seen.append(decl)
        if len(seen) == 500:
            break
    weights = [1 + 3 * len(d) for d in seen]
    return rng.choices(seen, weights)[0] if seen else {}


def _intentions(rng: random.Random, p: Parameters, doc: dict[str, Any],
                blocks: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    by_attacker: dict[str, list[str]] = {}
    for b, attackers in blocks.items():
        for a in attackers:
            by_attacker.setdefault(a, []).append(b)
    powers = _powers(doc)
    assign: dict[str, Any] = {}
    for a, blockers in by_attacker.items():
        if len(blockers) < 2 or rng.random() >= p.intention_chance:
            continue
        if rng.random() < p.most_kills_share or powers.get(a) is None:
            assign[a] = "most-kills"
            continue
        left = powers[a]
        amounts: dict[str, int] = {}
        for i, b in enumerate(blockers):
            give = left if i == len(blockers) - 1 else rng.randint(0, left)
            if give:
                amounts[b] = give
            left -= give
        assign[a] = amounts
    return assign


def _powers(doc: dict[str, Any]) -> dict[str, int | None]:
    from comparator.games.mtg.cards import shipped_library

    cards = shipped_library()
    return {p["id"]: p.get("power", cards[p["card"]].power if "card" in p else None)
            for p in doc["permanents"]}


def _tricks(rng: random.Random, p: Parameters, board: DrawnBoard,
            in_combat: list[str]) -> list[dict[str, Any]]:
    owner = {q["id"]: q["controller"] for q in board.permanents}
    names = [q["name"] for q in board.players]
    actions = []
    for _ in range(rng.randint(*p.tricks)):
        by = rng.choice(names)
        mine = [c for c in in_combat if owner[c] == by]
        kind = rng.choice(["pump", "pump", "damage", "bounce", "sacrifice", "regenerate",
                           "prevent"])
        action: dict[str, Any] = {"at": rng.choice(WINDOWS), "by": by}
        if kind == "pump":
            action.update(effect="pump", target=rng.choice(in_combat), power=3, toughness=3,
                          card="Giant Growth")
        elif kind == "damage":
            amount = rng.choice([2, 3])
            action.update(effect="damage", target=rng.choice(in_combat), amount=amount,
                          card="Shock" if amount == 2 else "Lightning Bolt")
        elif kind == "bounce":
            action.update(effect="bounce", target=rng.choice(in_combat), card="Unsummon")
        elif kind == "prevent":
            target = rng.choice([*in_combat, *names])
            action.update(effect="prevent", target=target, amount=rng.randint(1, 4))
        elif mine:
            action.update(effect=kind, target=rng.choice(mine))
        else:
            continue
        action["if-missing"] = rng.choice(["skip", "earlier", "later"])
        actions.append(action)
    return actions


def scenario_document(seed: int, index: int, p: Parameters | None = None) -> dict[str, Any]:
    """Scenario `index` of `seed`: a mapping that the loader accepts and whose blocks every
    era allows."""
    from comparator.files.problems import ScenarioError
    from comparator.games.mtg.blocks import blocks_refused
    from comparator.games.mtg.loading import resolve_cards
    from versions import eras_of, find_era
    from versions.mtg.play import combat

    p = p or Parameters()
    rng = random.Random(f"{seed}:{index}")
    for _ in range(100):
        table: dict[str, Any] | None = None
        if p.multiplayer_share and rng.random() < p.multiplayer_share:
            board, table, attacks = _multiplayer_board(rng, p)
        else:
            board = _board(rng, p)
            attacks = {a: "B" for a in board.ids("A")}
        attackers = list(attacks)
        doc: dict[str, Any] = {
            "id": f"gen-{seed}-{index:07d}",
            "title": f"Generated combat {index} of seed {seed}",
            "sources": [f"rulesdiff dataset generate --seed {seed} "
                        f"(generator {GENERATOR_VERSION})"],
            "tags": ["generated", "multiplayer"] if table else ["generated"],
            "players": board.players, "active": "A",
            **({"multiplayer": table} if table else {}),
            "permanents": board.permanents,
            "combat": {"attacks": attacks},
        }
        try:
            written = _checked(doc)
        except ScenarioError:  # e.g. a drawn card that may not attack: draw again
            continue
        scenario = resolve_cards(written)
        eras = list(eras_of("mtg"))  # generated combats are Magic's
        played = combat(find_era(eras[-1])(), scenario).board  # the newest era runs anything
        blocks = _blocks(rng, played)
        if blocks:
            doc["combat"]["blocks"] = {b: list(a) if len(a) > 1 else a[0]
                                       for b, a in blocks.items()}
        assign = _intentions(rng, p, doc, blocks)
        if assign:
            doc["combat"]["assign"] = assign
        in_combat = attackers + list(blocks)
        actions = _tricks(rng, p, board, in_combat)
        if actions:
            doc["actions"] = actions
        try:
            whole = _checked(doc, written)
        except ScenarioError:
            continue
        # Merging the cards in goes player by player and permanent by permanent, and these
        # are the ones merged above.
        whole = whole.model_copy(update={"players": scenario.players,
                                         "permanents": scenario.permanents})
        if blocks_refused(whole, eras, played) is None:
            return doc
    raise RuntimeError(f"seed {seed}, scenario {index}: no valid board in 100 draws")


# libyaml's emitter when PyYAML has it: the same text as the pure-Python one, much faster.


def _checked(doc: dict[str, Any], drawn: Any = None) -> Any:
    """The board as `validate` reads it, cards not merged in: the model and the
    whole-scenario checks of the document. It holds only strings, whole numbers, booleans,
    lists and mappings, which YAML gives back the same, so it is validated as it is, not
    written out and read back (a fifth of checking it; the model copies the containers it
    keeps, so the document may grow after). `drawn`: this document's players and
    permanents, checked already (before its blocks were drawn); they are taken as they
    are, not validated again (they were a third of generating), which gives the same
    models: a model's validation depends on its own fields alone. A problem is never
    shown (the board is drawn again), so it needs no line numbers: no text."""
    from comparator.games.mtg.loading import checked

    raw = doc
    if drawn is not None:
        raw = {k: v for k, v in doc.items() if k not in ("players", "permanents")}
        raw["players"], raw["permanents"] = drawn.players, drawn.permanents
    return checked("", "<generated>", raw)


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def to_text(doc: dict[str, Any]) -> str:
    """The file's text: JSON, one top-level field a line. JSON is YAML for such a document
    (strings, whole numbers, booleans, lists, mappings), so the file is a scenario file like
    any other, and the loader reads it with the C decoder (``comparator.files.documents``)
    at a fraction of PyYAML's cost; writing it is the C encoder's."""
    return "{\n" + ",\n".join(f"  {_ENCODE(k)}: {_ENCODE(v)}" for k, v in doc.items()) + "\n}\n"










