"""Dependencies run one way, and every floor can be seen.

- accounts (identity) imports neither rankings nor games; rankings (chips, XP, ratings,
  leaderboards) imports nothing from games but the engine; the engine and the robots import
  nothing from Django or the apps; the tools (bench/) import nothing from the tests.
- No import cycle anywhere in the project, not even one only a type checker follows.
- The models (games/models/) and the options' declaration they read (games/options.py) sit
  below the live-play wing: they import nothing of it.
- The bus a game's end is published on (games/events.py) imports no app: the wing publishes
  on it and the arenas, the analysis and the puzzles subscribe, none reaching into another.
- The arenas use the wing through its doors only (games/table/__init__.py says which), and
  the site reads rankings through its public modules (rankings/services.py says which),
  never a private name.
- No module over 400 lines unless its docstring says why ("Over 400 lines: ...").

Read from the source with `ast`, so an import inside a function, under `TYPE_CHECKING` or
relative to its package counts like any other. Each check is shown to find a planted breach.

Over 400 lines: each check sits beside the planted breach that shows it finds one, and all of
them share one reader of the imports; apart, a check could change without its proof.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.apps import apps
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parent.parent.parent
# Every folder of Python the project holds: the apps, the site, the tools and the tests.
PARTS = ("accounts", "rankings", "games", "tute_site", "bench", "tests")
APPS = ("accounts", "rankings", "games", "tute_site")
PURE = ("games.engine", "games.bots")

# The packages each part may not import, and the exceptions among them.
FORBIDDEN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "accounts": (("rankings", "games"), ("games.engine",)),
    "rankings": (("games",), ("games.engine",)),
    "games.engine": (("django", *APPS), PURE),
    "games.bots": (("django", *APPS), PURE),
    # The tools (load, faults, benchmarks) serve the tests; they import nothing from them.
    "bench": (("tests",), ()),
    # A game's end is published here by the wing, and every app may subscribe.
    "games.events": (APPS, ()),
}
# What the models and the options' declaration may import of games: the floors below them.
BELOW_THE_WING = ("games.models", "games.options")
FLOORS_UNDER_THE_MODELS = ("games.models", "games.options", "games.engine", "games.bots")
# The wing's doors (games/table/__init__.py) and rankings' public modules (rankings/services.py).
WING_DOORS = (
    "games.table",
    "games.table.seating",
    "games.table.refusals",
    "games.table.options",
    "games.table.requests",
)
RANKINGS_PUBLIC = (
    "rankings.services",
    "rankings.selectors",
    "rankings.kinds",
    "rankings.grades",
    "rankings.xp",
    "rankings.rating_math",
    "rankings.svg",
)
# The parts that must read rankings through its public modules: the tools and the tests may
# build and inspect its rows.
READ_RANKINGS_IN_PUBLIC = ("accounts", "games", "tute_site")
MAX_LINES = 400
REASON = "Over 400 lines:"


# --- Reading the imports -------------------------------------------------------------------


def project_files(root: Path) -> dict[str, Path]:
    """Each module of the project by its dotted name (a package by its own name)."""
    files = {}
    for part in PARTS:
        for path in sorted((root / part).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            files[name.removesuffix(".__init__")] = path
    return files


def imports(name: str, path: Path) -> list[tuple[str, str | None, int]]:
    """(module, name imported from it or None, line) of every import in a module, at any
    depth, relative imports made absolute; `importlib.import_module("x")` counts too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                for _up in range(node.level - 1):
                    package = package.rpartition(".")[0]
                module = f"{package}.{module}" if module else package
            found += [(module, alias.name, node.lineno) for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((str(node.args[0].value), None, node.lineno))
    return found


def target(module: str, imported: str | None, files: dict[str, Path]) -> str | None:
    """The project module an import reaches: `from a import b` reaches a.b when it is a
    module, else a (or the nearest package above it)."""
    if imported is not None and f"{module}.{imported}" in files:
        return f"{module}.{imported}"
    while module and module not in files:
        module = module.rpartition(".")[0]
    return module or None


def module_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the project and the modules of the project it imports."""
    files = project_files(root)
    graph = {}
    for name, path in files.items():
        reached = {target(module, imported, files) for module, imported, _ in imports(name, path)}
        graph[name] = reached - {None, name}
    return graph


def within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(f"{package}.") for package in packages)


# --- The checks ----------------------------------------------------------------------------


def forbidden_imports(root: Path = ROOT) -> list[str]:
    """Imports against FORBIDDEN, as 'path:line imports module'."""
    found = []
    for name, path in project_files(root).items():
        for part, (banned, allowed) in FORBIDDEN.items():
            if not within(name, (part,)):
                continue
            found += [
                f"{path.relative_to(root)}:{line} imports {module}"
                for module, _imported, line in imports(name, path)
                if within(module, banned) and not within(module, allowed)
            ]
    return sorted(found)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of `graph`: its strongly connected parts of two modules or more
    (Tarjan's algorithm, with a stack of its own: the project is deeper than Python's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, following = work[-1]
            other = next(following, None)
            if other is not None:
                if other not in graph:
                    continue
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph[other]))))
                elif other in on_stack:
                    low[module] = min(low[module], index[other])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                part = []
                while True:
                    popped = stack.pop()
                    on_stack.discard(popped)
                    part.append(popped)
                    if popped == module:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def models_above_their_floor(graph: dict[str, set[str]]) -> list[str]:
    """Imports by the models (or the declaration they read) of games above them."""
    return sorted(
        f"{module} imports {other}"
        for module, reached in graph.items()
        if within(module, BELOW_THE_WING)
        for other in reached
        if within(other, ("games",)) and not within(other, FLOORS_UNDER_THE_MODELS)
    )


def side_doors(root: Path = ROOT) -> list[str]:
    """The arenas reaching into the wing past its doors or into rankings past its public
    modules; any app importing rankings' private modules or private names."""
    files = project_files(root)
    found = []
    for name, path in files.items():
        for module, imported, line in imports(name, path):
            reached = target(module, imported, files)
            if reached is None:
                continue
            where = f"{path.relative_to(root)}:{line} imports {reached}"
            arena_past_the_doors = within(name, ("games.arenas",)) and within(
                reached, ("games.table",)
            )
            if arena_past_the_doors and reached not in WING_DOORS:
                found.append(where)
            if within(name, READ_RANKINGS_IN_PUBLIC) and within(reached, ("rankings",)):
                if reached not in RANKINGS_PUBLIC:
                    found.append(where)
                elif imported is not None and imported.startswith("_"):
                    found.append(f"{where}.{imported}")
    return sorted(found)


def oversized(root: Path = ROOT) -> dict[str, int]:
    """Modules over MAX_LINES lines whose docstring does not say why, with their length."""
    found = {}
    for path in project_files(root).values():
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > MAX_LINES and not says_why(text):
            found[str(path.relative_to(root))] = lines
    return found


def says_why(text: str) -> bool:
    """The module's own docstring has a paragraph that begins with REASON and goes on to
    give one; the marker quoted inside a sentence (as a rule about other modules) is none."""
    paragraphs = (p.strip() for p in (ast.get_docstring(ast.parse(text)) or "").split("\n\n"))
    return any(p.startswith(REASON) and p.removeprefix(REASON).strip() for p in paragraphs)


# --- The project passes them ---------------------------------------------------------------


def test_no_import_against_the_layering():
    assert forbidden_imports() == []


def test_no_import_cycle_anywhere():
    assert cycles(module_graph()) == []


def test_the_models_sit_below_the_wing():
    assert models_above_their_floor(module_graph()) == []


def test_arenas_and_apps_come_in_through_public_doors():
    assert side_doors() == []


def test_no_module_over_400_lines_without_a_stated_reason():
    assert oversized() == {}


def test_the_clock_imports_neither_play_nor_robots():
    """The clock decides who plays a seat and when the timer runs out; acting on it is
    robots' job, on play's services."""
    assert not module_graph()["games.table.clock"] & {"games.table.play", "games.table.robots"}


def test_the_engine_is_the_ground_floor_of_the_wing():
    graph = module_graph()
    engine = {name for name in graph if name.startswith("games.engine")}
    assert engine and not any(graph[name] - engine for name in engine)


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


# --- Each check finds a planted breach -----------------------------------------------------


def plant(root: Path, files: dict[str, str]) -> Path:
    """A small project under `root`: each file's path and source."""
    for part in PARTS:
        (root / part).mkdir(exist_ok=True)
    for where, source in files.items():
        path = root / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return root


def test_the_scan_sees_late_relative_and_type_checking_imports(tmp_path):
    root = plant(
        tmp_path,
        {
            "games/__init__.py": "",
            "games/engine/__init__.py": "",
            "games/engine/state.py": "from . import view\n",
            "games/engine/view.py": (
                "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                "    from .state import GameState\n"
            ),
            "games/late.py": (
                "def late():\n    from games.engine import state\n"
                "    import importlib\n    importlib.import_module('django.db')\n"
            ),
        },
    )
    graph = module_graph(root)
    assert graph["games.engine.view"] == {"games.engine.state"}
    assert graph["games.late"] == {"games.engine.state"}
    assert cycles(graph) == [["games.engine.state", "games.engine.view"]]
    assert within("games.models", ("games",)) and not within("gamesx", ("games",))


def test_the_layering_check_finds_a_planted_breach(tmp_path):
    root = plant(
        tmp_path,
        {
            "games/engine/cards.py": "from django.conf import settings\n",
            "accounts/models.py": "from rankings import selectors\n",
            "bench/tool.py": "from tests.support import live\n",
            "games/events.py": "def publish():\n    from games.arenas import tasks\n",
        },
    )
    assert forbidden_imports(root) == [
        "accounts/models.py:1 imports rankings",
        "bench/tool.py:1 imports tests.support",
        "games/engine/cards.py:1 imports django.conf",
        "games/events.py:2 imports games.arenas",
    ]


def test_the_cycle_check_finds_a_cycle_through_a_late_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_floor_check_finds_a_model_importing_the_wing(tmp_path):
    root = plant(
        tmp_path,
        {
            "games/models/table.py": "from games.table.options import clean_table_options\n",
            "games/options.py": "from games.engine import options\n",
            "games/engine/options.py": "",
            "games/table/options.py": "from games.options import OPTION\n",
        },
    )
    assert models_above_their_floor(module_graph(root)) == [
        "games.models.table imports games.table.options"
    ]


def test_the_door_check_finds_side_doors(tmp_path):
    root = plant(
        tmp_path,
        {
            "games/arenas/services.py": (
                "from games.table.seating import table_for_players\n"
                "from games.table.play import end_game\n"
                "from rankings.services import chips_arena_entry\n"
                "from rankings.arena_pots import chips_arena_payout\n"
            ),
            "games/profiles.py": (
                "from rankings.models import TrophyAward\n"
                "from rankings.selectors import _board_rows\n"
            ),
            "games/table/seating.py": "",
            "games/table/play.py": "",
            "rankings/services.py": "",
            "rankings/selectors.py": "",
            "rankings/arena_pots.py": "",
            "rankings/models.py": "",
            "tests/test_rankings.py": "from rankings.models import TrophyAward\n",
        },
    )
    assert side_doors(root) == [
        "games/arenas/services.py:2 imports games.table.play",
        "games/arenas/services.py:4 imports rankings.arena_pots",
        "games/profiles.py:1 imports rankings.models",
        "games/profiles.py:2 imports rankings.selectors._board_rows",
    ]


def test_the_size_check_finds_a_long_module_unless_it_says_why(tmp_path):
    body = "x = 1\n" * MAX_LINES
    root = plant(
        tmp_path,
        {
            "games/short.py": body,
            "games/long.py": '"""A module."""\n' + body,
            "games/said.py": f'"""A module.\n\n{REASON} one piece, said here."""\n' + body,
            "games/quoted.py": f'"""Long ones say why ("{REASON} ...")."""\n' + body,
            "games/empty.py": f'"""A module.\n\n{REASON}"""\n' + body,
            "games/comment.py": f'"""A module."""\n# {REASON} one piece.\n' + body,
        },
    )
    assert oversized(root) == {
        "games/long.py": MAX_LINES + 1,
        "games/quoted.py": MAX_LINES + 1,
        "games/empty.py": MAX_LINES + 3,
        "games/comment.py": MAX_LINES + 2,
    }


@pytest.mark.parametrize("part", PARTS)
def test_every_part_is_read(part):
    assert any(within(name, (part,)) for name in project_files(ROOT))
