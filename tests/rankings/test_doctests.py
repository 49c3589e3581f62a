import doctest

import pytest
from django.utils import translation

from games import feats, robot_names
from games.arenas import pairing, scoring
from rankings import arena_pots, awards, boards, grades, pots, rating_math, xp


@pytest.mark.parametrize(
    "module",
    [
        grades,
        xp,
        pots,
        awards,
        boards,
        rating_math,
        feats,
        robot_names,
        arena_pots,
        scoring,
        pairing,
    ],
    ids=lambda module: module.__name__,
)
def test_docstring_examples_hold(module):
    # The examples read English names; an earlier request may have left another language on.
    with translation.override("en"):
        result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
