"""The engine's and the robots' docstring examples are tests too: they must run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "games.engine",
    "games.engine.actions",
    "games.engine.cards",
    "games.engine.deal",
    "games.engine.determinize",
    "games.engine.options",
    "games.engine.position",
    "games.engine.record",
    "games.engine.refusals",
    "games.engine.state",
    "games.engine.view",
    "games.bots.arena",
    "games.bots.base",
    "games.bots.countout",
    "games.bots.heuristic",
    "games.bots.knowledge",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
