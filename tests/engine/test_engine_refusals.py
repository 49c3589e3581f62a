"""Every refusal is typed: its kind (with the RULES.md section it enforces) and its values,
and each kind of :class:`Refusal` comes from a real position (tests/engine/refusal_positions)."""

from __future__ import annotations

import pickle

import pytest

from games.engine import Action, IllegalAction, MalformedAction, Refusal, from_record
from games.engine.refusals import MALFORMED
from tests.support.engine import random_game
from tests.support.refusal_positions import POSITIONS


def test_every_kind_of_refusal_has_a_real_position():
    assert set(POSITIONS) == set(Refusal)


@pytest.mark.parametrize("kind", list(Refusal), ids=lambda kind: kind.value)
def test_each_position_is_refused_with_its_kind_and_values(kind):
    refused = POSITIONS[kind]()
    assert refused.kind is kind
    assert type(refused) is (MalformedAction if kind in MALFORMED else IllegalAction)
    assert isinstance(refused, ValueError)  # callers that catch ValueError keep working
    assert tuple(refused.values) == kind.fields
    # Each value names what the player tried or what the rule needs: none is left out.
    assert None not in refused.values.values()
    text = str(refused)
    assert text == kind.english(refused.values)
    assert text.endswith(f" ({kind.section}).") if kind.section else "(§" not in text
    again = pickle.loads(pickle.dumps(refused))
    assert (type(again), again.kind, again.values, str(again)) == (
        type(refused),
        kind,
        refused.values,
        text,
    )


def test_the_sections_are_those_of_the_rules():
    sections = {kind.section for kind in Refusal}
    assert sections == {None, "§2", "§5", "§6", "§7", "§8", "§9"}
    assert {k for k in Refusal if k.section == "§5"} == {
        Refusal.ANSWER_TRUMP_LEAD,
        Refusal.FOLLOW_SUIT,
        Refusal.BEAT_LED,
        Refusal.OVERTRUMP,
        Refusal.TRUMP,
    }
    assert all(kind.section is None for kind in MALFORMED)


def test_a_refused_card_names_the_duty_with_the_cards_that_explain_it():
    refused = POSITIONS[Refusal.OVERTRUMP]()
    assert refused.values == {"card": "2C", "trump": "C", "to_beat": "4C"}
    refused = POSITIONS[Refusal.BEAT_LED]()
    assert refused.values == {"card": "4O", "led": "O", "to_beat": "12O"}
    assert str(refused) == "You must follow suit with a higher card when you can (§5)."


def test_a_bid_out_of_range_names_the_bid_and_the_most_allowed():
    refused = POSITIONS[Refusal.BID_RANGE]()
    assert refused.values == {"bid": 2, "most": 1}
    assert str(refused) == "A bid must be a number of tricks from 0 to 1 (§9)."


def test_malformed_data_keeps_its_english_sentence():
    with pytest.raises(MalformedAction) as caught:
        Action.from_dict({"seat": 0, "play": "1O", "bid": 1})
    assert str(caught.value) == (
        "An action must have exactly one of bid, capote, exchange, play, sing, tute."
    )


def test_a_refused_record_keeps_the_kind_with_the_index():
    state = random_game({"players": 4}, 7, max_deals=1)
    record = state.to_record()
    record["deals"][0]["actions"].insert(3, dict(record["deals"][0]["actions"][0]))
    with pytest.raises(IllegalAction) as caught:
        from_record(record)
    assert caught.value.index == 3
    assert caught.value.kind in (Refusal.NOT_YOUR_TURN, Refusal.NOT_HELD)


def test_a_kind_is_found_by_its_code():
    assert all(Refusal(kind.value) is kind for kind in Refusal)
    assert len({kind.value for kind in Refusal}) == len(Refusal)
