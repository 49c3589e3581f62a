"""Every kind of engine refusal has a message players read in their own language, with its
rule, and each kind, refused in a real position, reads right in French, Spanish and English."""

import random

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import Action, IllegalAction, Refusal, new_game
from games.table.refusals import MESSAGES, translate_engine_error
from tests.support.refusal_positions import POSITIONS

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def test_every_kind_has_a_message_translated_into_every_language():
    assert set(MESSAGES) == set(Refusal)
    assert set(LANGUAGES) == {"fr", "es", "en"}
    for kind, message in MESSAGES.items():
        with translation.override("en"):
            english = str(message)
        for lang in ("fr", "es"):
            with translation.override(lang):
                assert str(message) != english, f"{kind}: no {lang} translation of {english!r}"


@pytest.mark.parametrize("kind", list(Refusal), ids=lambda kind: kind.value)
def test_each_kind_refused_in_a_real_position_reads_in_every_language(kind):
    refused = POSITIONS[kind]()
    error = translate_engine_error(refused)
    assert (error.rule, error.kind, error.values) == (kind.section, kind.value, refused.values)
    texts = set()
    for lang in LANGUAGES:
        with translation.override(lang):
            text = str(error.message)
        assert text and "%(" not in text, (lang, text)
        texts.add(text)
    assert len(texts) == len(LANGUAGES)


def test_a_real_refusal_reads_in_spanish_with_its_rule():
    state = new_game({"players": 4}, random.Random(3))
    not_on_turn = next(s for s in range(4) if s != state.turn)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Action.play(not_on_turn, state.hand(not_on_turn)[0]))
    with translation.override("es"):
        error = translate_engine_error(refused.value)
        assert (str(error.message), error.rule) == ("No es tu turno.", "§2")


def test_a_value_is_put_in_the_message_in_the_language_it_is_read_in():
    error = translate_engine_error(POSITIONS[Refusal.BID_RANGE]())
    with translation.override("fr"):
        assert str(error.message) == "Un contrat est un nombre de plis de 0 à 1."
    with translation.override("es"):
        assert str(error.message) == "Una apuesta es un número de bazas de 0 a 1."


def test_data_that_is_no_action_reads_as_such_without_a_rule():
    error = translate_engine_error(POSITIONS[Refusal.NEEDS_CARD]())
    with translation.override("en"):
        assert (str(error.message), error.rule) == ("That action needs a card, such as 12O.", None)


def test_the_docstring_example_runs():
    import doctest

    import games.table.refusals

    result = doctest.testmod(games.table.refusals)
    assert result.failed == 0 and result.attempted
