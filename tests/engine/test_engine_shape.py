"""The engine's shape (issue #10): imports run one way, nothing outside the state writes its
fields, and every method of the state says what it does."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games.engine import GameState, new_game

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
BOTS = ROOT / "games" / "bots"
FORBIDDEN = {"django", "channels", "celery", "accounts", "rankings", "tute_site"}


def runtime_imports(path: Path) -> set[str]:
    """Modules ``path`` imports when it runs (``if TYPE_CHECKING:`` blocks left out), as
    dotted names; relative imports are resolved against the file's package."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.rsplit(".", child.level - 1)[0] if child.level > 1 else package
                    found.add(f"{base}.{child.module}" if child.module else base)
                else:
                    found.add(child.module or "")
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def test_engine_modules_import_one_way():
    graph = {
        f"games.engine.{p.stem}": {
            m for m in runtime_imports(p) if m.startswith("games.engine.") and m != "games.engine"
        }
        for p in ENGINE.glob("*.py")
        if p.stem != "__init__"
    }
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> None:
        assert module not in path, "import cycle: " + " -> ".join([*path, module])
        if module in done:
            return
        path.append(module)
        for imported in graph.get(module, ()):
            walk(imported)
        path.pop()
        done.add(module)

    for module in graph:
        walk(module)
    assert "games.engine.view" in graph["games.engine.state"]  # the check sees imports


@pytest.mark.parametrize("folder", [ENGINE, BOTS], ids=["engine", "bots"])
def test_engine_and_robots_import_nothing_from_django_or_the_apps(folder):
    for path in folder.glob("*.py"):
        for module in runtime_imports(path):
            top = module.split(".")[0]
            assert top not in FORBIDDEN, f"{path.name} imports {module}"
            if top == "games":
                assert module.startswith(("games.engine", "games.bots")), module


def test_the_state_fields_are_read_only_from_outside():
    state = new_game({"players": 4}, random.Random(1))
    turn = state.turn
    with pytest.raises(AttributeError):
        state.turn = (turn + 1) % 4
    with pytest.raises(AttributeError):
        state.hands = [[], [], [], []]
    state.hands[turn].clear()  # a copy: the real hand is untouched
    state.points[0] = 99
    assert len(state.hands[turn]) == 10 and state.points == [0, 0]
    assert state.legal_actions_for(turn)


def test_every_method_of_the_state_has_a_docstring():
    tree = ast.parse((ENGINE / "state.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    missing = [
        f.name for f in cls.body if isinstance(f, ast.FunctionDef) and not ast.get_docstring(f)
    ]
    assert missing == []
    assert GameState.apply.__doc__ and GameState.start_deal.__doc__
