"""A Magic line of play and outcome in words, for explore's human report."""

from __future__ import annotations

import json
from typing import Any

from comparator.text.language import N_, _, current
from comparator.text.messages import spaced
from comparator.text.phrases import term
from versions.mtg.scenario import Scenario


def describe_decision(d: dict[str, Any], scenario: Scenario) -> str:
    """A decision of a line of play in words, in the language spoken (names as written)."""
    who = d["player"]
    then = _(", then ")
    match d["kind"]:
        case "blocks":
            pairs = [_("{blocker} blocks {attackers}").format(
                blocker=b, attackers=a if isinstance(a, str) else ", ".join(a))
                for b, a in d["choice"].items()]
            return _("{player} declares blocks: {blocks}").format(
                player=who, blocks=_("; ").join(pairs) if pairs else _("no blocks"))
        case "order":
            return _("{player} orders {creature}'s damage: {order}").format(
                player=who, creature=d["creature"], order=then.join(d["choice"]))
        case "divide":
            parts = _(", ").join(_("{n} to {target}").format(n=n, target=k)
                                 for k, n in d["choice"].items()) or _("nothing")
            return _("{player} divides {creature}'s combat damage: {division}").format(
                player=who, creature=d["creature"], division=parts)
        case "act":
            a = scenario.actions[d["action"]]
            what = action_words(a, d.get("target"), scenario)
            if a.effect == "activate":
                return _("{player} activates {source}'s ability: {what}").format(
                    player=who, source=_source_name(a, scenario), what=what)
            return _("{player} plays {card}: {what}").format(player=who, card=a.card,
                                                              what=what) if a.card \
                else _("{player}: {what}").format(player=who, what=what)
        case "pass":
            return _("{player} passes").format(player=who)
        case "trigger-order":
            return _("{player} puts triggers on the stack: {order}").format(
                player=who, order=then.join(d["choice"]))
    return json.dumps(d)


def _source_name(a: Any, scenario: Scenario | None) -> str:
    p = scenario.permanent(a.source) if scenario is not None and a.source else None
    return (a.card or (p.card if p is not None else None) or a.source or _("its source"))


# What an action that only names its target does to it ({target}: the target).
_DONE_TO = {"destroy": N_("{target} is destroyed"), "sacrifice": N_("{target} is sacrificed"),
            "bounce": N_("{target} is returned to its owner's hand"),
            "tap": N_("{target} is tapped"),
            "regenerate": N_("a regeneration shield on {target}"),
            "remove-from-combat": N_("{target} is removed from combat"),
            "become-blocked": N_("{target} becomes blocked"),
            "discard": N_("{target} discards a card")}


def action_words(a: Any, target: str | None, scenario: Scenario | None = None) -> str:
    """What an action (or an ability) does, as a sentence: "bear gets +3/+3", "wall is
    tapped"; an activation says what its ability does. In the language spoken; names as
    written."""
    t = target or _("it")
    n = getattr(a, "amount", None)
    match a.effect:
        case "pump":
            return _("{target} gets {power}/{toughness}").format(
                target=t, power=f"{a.power:+d}", toughness=f"{a.toughness:+d}")
        case "damage":
            return _("{n} damage to {target}").format(n=n, target=t)
        case effect if effect in _DONE_TO:
            return _(_DONE_TO[effect]).format(target=t)
        case "prevent":
            origin = getattr(a, "from_", None)
            return (_("the next {n} damage {source} would deal is prevented").format(
                n=n, source=origin) if origin else
                _("the next {n} damage to {target} is prevented").format(n=n, target=t))
        case "grant":
            return _("{target} gains {keyword}").format(target=t, keyword=term(str(a.keyword)))
        case "lose-keyword":
            return _("{target} loses {keyword}").format(target=t, keyword=term(str(a.keyword)))
        case "gain-life":
            return _("{target} gains {n} life").format(target=t, n=n)
        case "lose-life":
            return _("{target} loses {n} life").format(target=t, n=n)
        case "counters":
            return _("{n} {kind} counter(s) on {target}").format(
                n=n, kind=getattr(a, "kind", None) or "+1/+1", target=t)
        case "prevent-all-combat-damage":
            origin = getattr(a, "from_", None)
            return _("all combat damage {source} would deal this turn is prevented").format(
                source=origin) if origin else _("all combat damage this turn is prevented")
        case "enter-blocking":
            return _("{id} enters the battlefield blocking {attacker}").format(
                id=getattr(a, "id", None) or _("a creature"),
                attacker=getattr(a, "attacker", None) or _("an attacker"))
        case "add-mana":
            return _("{player} adds {n} mana").format(
                player=getattr(a, "by", None) or _("its controller"), n=n)
        case "return-creature-cards":
            return _("each player returns the creature cards in their graveyard to their "
                     "hand")
        case "activate":
            p = scenario.permanent(a.source) if scenario is not None else None
            if p is not None and a.ability < len(p.abilities):
                ability = p.abilities[a.ability]
                aimed = a.source if ability.target == "self" else target
                return action_words(ability, aimed, scenario)
            return _("{source}'s ability {index}").format(source=a.source, index=a.ability) + (
                _(" on {target}").format(target=target) if target else "")
    return _("{effect} on {target}").format(effect=term(a.effect), target=t)


def _each_player(state: dict[str, Any], scenario: Scenario
                 ) -> list[tuple[str, bool, list[str], int]]:
    """Each player's name, whether they lost the game, their permanents gone from the
    battlefield, and their life's change."""
    out = []
    for p in scenario.players:
        gone = [pid for pid, s in state["permanents"].items()
                if s.get("controller") == p.name and s.get("zone") != "battlefield"]
        now = state["players"][p.name]
        out.append((p.name, bool(now["lost"]), gone, now["life"] - p.life))
    return out


def losses(state: dict[str, Any], scenario: Scenario) -> str:
    """Who loses what in this outcome, in words."""
    if current() != "en":
        return _losses_said(state, scenario)
    parts = []
    for name, lost_game, gone, change in _each_player(state, scenario):
        bits = (["the game"] if lost_game else []) + ([", ".join(gone)] if gone else [])
        if change < 0:
            bits.append(f"{-change} life")
        elif change > 0:
            bits.append(f"nothing, and gains {change} life")
        parts.append(f"{name} loses {' and '.join(bits) if bits else 'nothing'}")
    return "; ".join(parts)


def _losses_said(state: dict[str, Any], scenario: Scenario) -> str:
    """``losses`` in another language: each player's losses as one clause, the game first,
    said as its own verb."""
    parts = []
    for name, lost_game, gone, change in _each_player(state, scenario):
        lost = gone + ([_("{n} points of life").format(n=-change)] if change < 0 else [])
        if lost_game:
            said = {(True, True): _("{player} loses the game, loses {what}, and gains {n} "
                                    "life"),
                    (True, False): _("{player} loses the game, and loses {what}"),
                    (False, True): _("{player} loses the game, and gains {n} life"),
                    (False, False): _("{player} loses the game")}[bool(lost), change > 0]
        elif change > 0:
            said = (_("{player} loses {what}, and gains {n} life") if lost else
                    _("{player} loses nothing, and gains {n} life"))
        else:
            said = _("{player} loses {what}") if lost else _("{player} loses nothing")
        parts.append(spaced(said.format(player=name, what=_(", ").join(lost), n=change)))
    return _("; ").join(parts)
