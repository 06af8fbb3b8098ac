"""The one choice point: every player decision goes through `choose(player, kind, options)`,
and a combat copied at a decision continues independently along another choice."""

from eras import ERAS, has
from helpers import scenario

from versions import find_era, run
from versions.mtg.engine.outcome import outcome
from versions.mtg.engine.script import ScriptedChooser
from versions.mtg.play import combat as combat_for

TEXT = """
id: t-choices
title: A double block, two pumps, two triggers of one player
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 5, toughness: 5}
  - {id: bear, controller: B, card: Grizzly Bears}
  - id: badger
    controller: B
    power: 2
    toughness: 2
    abilities:
      - {trigger: blocks, effect: pump, target: self, power: 1, toughness: 1}
      - {trigger: blocks, effect: gain-life, target: controller, amount: 1}
combat:
  attacks: {wurm: B}
  blocks: {bear: wurm, badger: wurm}
actions:
  - {at: declare-blockers, by: B, effect: pump, target: bear, power: 3, toughness: 3}
"""


class Recorder(ScriptedChooser):
    def __init__(self, s):
        super().__init__(s)
        self.asked: list[tuple[str, str]] = []
        self.divisions: dict[str, list] = {}

    def choose(self, player, kind, options):
        self.asked.append((player, kind))
        if kind == "divide":
            self.divisions[options.creature] = list(options)
        return super().choose(player, kind, options)


def test_every_decision_goes_through_choose():
    for era in ERAS:
        s = scenario(TEXT)
        rec = Recorder(s)
        combat_for(find_era(era)(), s).play(rec)
        kinds = [k for _, k in rec.asked]
        assert rec.asked[0] == ("B", "blocks")
        # The wurm's order is announced by its controller, only where an order exists.
        assert (("A", "order") in rec.asked) == has(era, "damage-order"), era
        assert ("B", "trigger-order") in rec.asked  # badger's two block triggers
        # The wurm divides 5 between the bear (5/5 after the pump) and the badger: freely
        # (6 ways) without an order; with the bear first in its order, only all 5 to it.
        assert len(rec.divisions["wurm"]) == (1 if has(era, "damage-order") else 6), era
        # Each blocker has one way: all to the wurm.
        assert rec.divisions["bear"] == [{"wurm": 5}]  # 5/5 after the pump
        # A priority decision is asked only of a player who has something to do: B once,
        # with the pump; passing with nothing to take is not a choice.
        assert rec.asked.count(("B", "priority")) == 1 and ("A", "priority") not in rec.asked
        assert kinds.count("priority") == 1


def test_a_copy_at_a_decision_continues_independently():
    s = scenario(TEXT)
    era = find_era("m11")()
    combat = combat_for(era, s)
    chooser = ScriptedChooser(s)
    # Play to the wurm's damage assignment order.
    while (d := combat.advance()).kind != "order":
        combat.resume(chooser.choose(d.player, d.kind, d.options))
    assert set(d.options) == {("bear", "badger"), ("badger", "bear")}
    twin = combat.copy()
    combat.resume(("bear", "badger"))
    twin.resume(("badger", "bear"))
    first = combat.play(chooser)
    second = twin.play(chooser)
    # The bear becomes 5/5 at declare blockers. Ordered first, it needs all 5 (the default
    # gives each in turn its lethal damage) and dies; the badger lives. Ordered second, the
    # badger (3/3 after its trigger) takes 3 and dies, the bear takes the other 2 and lives.
    assert first["permanents"]["bear"]["zone"] == "graveyard"
    assert first["permanents"]["badger"]["zone"] == "battlefield"
    assert second["permanents"]["badger"]["zone"] == "graveyard"
    assert second["permanents"]["bear"] == {**second["permanents"]["bear"],
                                            "zone": "battlefield", "damage": 2}
    # The copy shared nothing: the original's outcome is what a fresh run gives.
    assert first == run("m11", s)


def test_priority_options_start_with_pass_and_the_scripted_actions():
    s = scenario(TEXT)
    combat = combat_for(find_era("foundations")(), s)
    chooser = ScriptedChooser(s)
    seen = []
    while (d := combat.advance()) is not None:
        if d.kind == "priority" and d.options.window == "declare-blockers":
            seen.append((d.player, [type(o).__name__ for o in d.options]))
        combat.resume(chooser.choose(d.player, d.kind, d.options))
    # The pump was taken: the bear was 5/5 and took all 5 of the wurm's damage.
    bear = [e for e in outcome(combat.board)["events"] if e["type"] == "damage"
            and e["target"] == "bear"]
    assert [e["amount"] for e in bear] == [5]
    # A has priority first with nothing to take (not asked); B is asked and takes the pump;
    # then neither has anything left to take.
    assert seen == [("B", ["Pass", "Act"])]
