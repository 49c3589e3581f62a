"""Every refusal text of the engine has a message players read in their own language."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from games.engine import Action, IllegalAction, MalformedAction, new_game
from games.errors import ENGINE_MESSAGES, NOT_ALLOWED, translate_engine_error

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def template(node: ast.expr, constants: dict[str, ast.expr], functions: dict) -> set[str]:
    """The texts an expression can give, with `{}` where an f-string inserts a value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.JoinedStr):
        return {
            "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
        }
    if isinstance(node, ast.Name) and node.id in constants:
        return template(constants[node.id], constants, functions)
    if isinstance(node, ast.IfExp):
        return template(node.body, constants, functions) | template(
            node.orelse, constants, functions
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        function = functions.get(node.func.attr)
        if function is not None:
            return {
                text
                for ret in ast.walk(function)
                if isinstance(ret, ast.Return) and ret.value is not None
                for text in template(ret.value, constants, functions)
            }
    raise AssertionError(f"cannot read the refusal text at line {node.lineno}")


def engine_refusal_texts() -> set[str]:
    texts: set[str] = set()
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        constants = {
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        }
        functions = {
            node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("IllegalAction", "MalformedAction")
                and node.args
            ):
                texts |= template(node.args[0], constants, functions)
    return texts


def test_every_illegal_and_malformed_text_of_the_engine_is_mapped():
    texts = engine_refusal_texts()
    assert len(texts) > 40  # the reading found the engine's refusals
    missing = sorted(texts - set(ENGINE_MESSAGES))
    assert not missing, f"add these to games/errors.py: {missing}"


def test_a_real_refusal_reads_in_spanish_with_its_rule():
    state = new_game({"players": 4}, __import__("random").Random(3))
    not_on_turn = next(s for s in range(4) if s != state.turn)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Action.play(not_on_turn, state.hand(not_on_turn)[0]))
    with translation.override("es"):
        error = translate_engine_error(str(refused.value))
        assert (str(error.message), error.rule) == ("No es tu turno.", "§2")


def test_an_inserted_value_is_kept_and_an_unknown_text_falls_back_with_its_rule():
    with translation.override("fr"):
        bid = translate_engine_error("A bid must be a number of tricks from 0 to 7 (§9).")
        assert str(bid.message) == "Un contrat est un nombre de plis de 0 à 7."
        unknown = translate_engine_error("A brand new rule (§5).")
        assert (str(unknown.message), unknown.rule) == (str(NOT_ALLOWED), "§5")
        assert str(NOT_ALLOWED) == "Ce coup n’est pas permis."
    with pytest.raises(MalformedAction) as malformed:
        Action.from_dict({"seat": 0, "play": "13X"})
    assert translate_engine_error(str(malformed.value)).message != NOT_ALLOWED
