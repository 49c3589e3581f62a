"""Dependencies between the apps run one way: accounts ← rankings ← games.

accounts (identity) imports neither rankings nor games; rankings (chips, XP, leaderboards)
imports nothing from games; the engine and the robots import nothing from Django or the apps;
the tools (bench/) import nothing from the tests. The engine is the ground floor: any app may
import it (rankings reads its variants).
Read from the source with `ast`, so an import hidden inside a function counts too.
"""

import ast
from pathlib import Path

import pytest
from django.apps import apps
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = ("accounts", "rankings", "games", "tute_site")
PURE = ("games.engine", "games.bots")

# The packages each part may not import, and the exceptions among them.
FORBIDDEN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "accounts": (("rankings", "games"), ("games.engine",)),
    "rankings": (("games",), ("games.engine",)),
    "games/engine": (("django", *APPS), PURE),
    "games/bots": (("django", *APPS), PURE),
    # The tools (load, faults, benchmarks) serve the tests; they import nothing from them.
    "bench": (("tests",), ()),
}


def imported_modules(path: Path) -> set[tuple[str, int]]:
    """(module, line) of every import in a file, at any depth."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {(alias.name, node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module, node.lineno))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add((str(node.args[0].value), node.lineno))
    return found


def within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(f"{package}.") for package in packages)


def violations(part: str) -> list[str]:
    banned, allowed = FORBIDDEN[part]
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / part).rglob("*.py"))
        for module, line in sorted(imported_modules(path))
        if within(module, banned) and not within(module, allowed)
    ]


@pytest.mark.parametrize("part", sorted(FORBIDDEN))
def test_no_import_against_the_layering(part):
    assert (ROOT / part).is_dir()
    assert violations(part) == []


def test_the_scan_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "import os\n\ndef late():\n    from games.models import Game\n"
        "    import importlib\n    importlib.import_module('rankings.services')\n"
    )
    assert {name for name, _line in imported_modules(source)} == {
        "os",
        "games.models",
        "importlib",
        "rankings.services",
    }
    assert within("games.models", ("games",)) and not within("gamesx", ("games",))


def test_no_model_of_accounts_or_rankings_points_at_an_app_above_it():
    above = {"accounts": {"rankings", "games"}, "rankings": {"games"}}
    for label, banned in above.items():
        for model in apps.get_app_config(label).get_models():
            for field in model._meta.get_fields():
                related = getattr(field, "related_model", None)
                if related is not None and field.concrete:
                    assert related._meta.app_label not in banned, f"{model.__name__}.{field.name}"


def test_no_accounts_migration_depends_on_an_app_above_it():
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for app, name in graph.nodes:
        if app == "accounts":
            parents = {parent[0] for parent in graph.node_map[(app, name)].parents}
            assert not parents & {"rankings", "games"}, (name, parents)
