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


# --- The live-play wing (games/table/) -----------------------------------------------------


def module_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` and the modules of `package` it imports, at any depth
    (inside functions and under TYPE_CHECKING too); `from a import b` counts as importing
    the module a.b when there is one."""
    files = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name in files}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    module = f"{node.module}.{alias.name}"
                    found.add(module if module in files else node.module)
        graph[name] = (found & files.keys()) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of `graph`: its strongly connected parts of two modules or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_in_games():
    assert cycles(module_graph("games")) == []


def test_the_cycle_finder_finds_a_cycle_through_a_late_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_clock_imports_neither_play_nor_robots():
    """The clock decides who plays a seat and when the timer runs out; acting on it is
    robots' job, on play's services."""
    imported = module_graph("games")["games.table.clock"]
    assert not imported & {"games.table.play", "games.table.robots"}


def test_the_engine_is_the_ground_floor_of_the_wing():
    graph = module_graph("games")
    engine = {name for name in graph if name.startswith("games.engine")}
    assert not any(graph[name] - engine for name in engine)


def test_no_module_of_the_wing_is_over_400_lines():
    sizes = {
        path.name: len(path.read_text().splitlines())
        for path in (ROOT / "games" / "table").glob("*.py")
    }
    assert max(sizes.values()) <= 400, sizes
