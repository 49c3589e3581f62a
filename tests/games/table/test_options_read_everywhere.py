"""The table options are declared once (games/options.py) and read everywhere: the model, the
form, the labels, the frames, the rules pages and the lobby; no other code lists them or
works an option fact out again."""

import ast
import doctest
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import options as declaration
from games.engine.options import PLAYERS_ALLOWED, RULE_OPTIONS, VARIANTS, Options
from games.forms import TableOptionsForm
from games.models import Table
from games.options import (
    DEFAULT_OPTIONS,
    OPTION,
    OPTIONS,
    RULE_NAMES,
    TABLE_OPTIONS,
    Kind,
    option_label,
    option_value_label,
)
from games.rules.content import table_options as rules_page_rows
from games.table import seating
from tests.support.factories import UserFactory
from tests.support.html import find
from tests.support.tables import DECLARATION, ENGLISH_LABELS, ROOT

# --- One declaration, read everywhere --------------------------------------------------------


def test_the_model_the_form_the_labels_and_the_frames_cover_exactly_the_declaration():
    names = list(TABLE_OPTIONS)
    assert names == [o.name for o in OPTIONS] and len(set(names)) == len(names)
    model_fields = {f.name: f for f in Table._meta.get_fields()}
    for option in OPTIONS:
        field = model_fields[option.name]
        assert field.verbose_name == option.label
        assert field.get_default() == option.default
    assert list(TableOptionsForm().fields) == names
    with translation.override("en"):
        assert {name: str(option_label(name)) for name in names} == ENGLISH_LABELS
    assert list(DEFAULT_OPTIONS) == names
    # The rules pages explain each option a player sets, in the same order.
    explained = [row["label"] for row in rules_page_rows()]
    assert explained == [o.label for o in OPTIONS if o.meaning is not None]


def test_the_rule_options_are_the_engines():
    engine_options = list(Options.__dataclass_fields__)
    assert list(RULE_NAMES) == engine_options == ["variant", *RULE_OPTIONS]
    game = Options()
    for name in RULE_NAMES:
        assert OPTION[name].default == getattr(game, name)
    for name in ("rounds", "points_to_win"):
        accepted = [n for n in range(-1, 12) if OPTION[name].accepts(n)]
        assert (accepted[0], accepted[-1]) == (OPTION[name].minimum, OPTION[name].maximum)
    assert OPTION["variant"].codes() == VARIANTS
    assert {n for allowed in PLAYERS_ALLOWED.values() for n in allowed} == set(
        range(OPTION["players"].minimum, OPTION["players"].maximum + 1)
    )


def test_every_choice_has_a_label_for_each_code_but_the_robots():
    for option in OPTIONS:
        if option.kind is Kind.CHOICE and option.name != "robot_level":
            assert set(option.value_labels) == set(option.codes()), option.name
    assert option_value_label("pairs", True) == "on"
    assert option_value_label("robot_level", "strong") == "strong"


def option_names_listed(node: ast.AST) -> set[str]:
    """The option names a literal tuple, list, set or dict (its keys) lists, when it lists
    nothing else (an admin's columns or a row of JSON mix in other names)."""
    if isinstance(node, ast.Dict):
        items = [key for key in node.keys if key is not None]
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = list(node.elts)
    else:
        return set()
    names = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
    return names if names <= set(TABLE_OPTIONS) else set()


def test_no_code_but_the_declaration_lists_the_options():
    """Four option names, and nothing else, in one literal is a list of options: only the
    declaration (and the engine, for the rules) may hold one. Tables' options given as data
    (the tests, the tools of bench/) live outside these folders."""
    engine = ROOT / "games" / "engine"
    found = []
    for part in ("accounts", "games", "rankings", "tute_site"):
        for path in sorted((ROOT / part).rglob("*.py")):
            if "migrations" in path.parts or path == DECLARATION or engine in path.parents:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if len(option_names_listed(node)) >= 4:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


# A variant's code compared with something: `variant == "tute"`, `"pocha" !== v`.
CODES = "|".join(VARIANTS)
COMPARED = re.compile(rf"""[=!]==?\s*["'](?:{CODES})["']|["'](?:{CODES})["']\s*[=!]==?""")
# A line that also names an option (the variant included) works out an option's fact.
OPTION_WORD = re.compile(rf"\b(?:variant|{'|'.join(RULE_OPTIONS)})\b")
# What scans: the apps' code, the pages and the scripts. The engine is where the facts live.
SCANNED = ("accounts", "games", "rankings", "tute_site", "templates", "static/js")
HOME_OF_THE_FACTS = ("games/engine", "games/migrations")
# Known and someone else's to remove, each with why it stays for now.
KNOWN = {
    # The rating's kinds are stored keys (tute4pairs); rankings reads the variant as data.
    ("rankings/kinds.py", 'if variant != "tute":'),
}


def re_derived_option_facts(root: Path, parts: tuple[str, ...] = SCANNED) -> list[str]:
    """Each line, in Python, templates or scripts under `parts`, that compares a variant's
    code while naming an option: a fact the engine decides (which options apply, who plays
    in pairs, what wins a game), worked out again."""
    found = []
    for part in parts:
        for path in sorted((root / part).rglob("*")):
            where = path.relative_to(root).as_posix()
            if path.suffix not in (".py", ".html", ".js") or where.startswith(HOME_OF_THE_FACTS):
                continue
            text = path.read_text(encoding="utf-8")
            lines = text.splitlines()
            numbers = (
                _compared_in_python(text)
                if path.suffix == ".py"
                else {n for n, line in enumerate(lines, 1) if COMPARED.search(line)}
            )
            for n in sorted(numbers):
                line = lines[n - 1]
                if OPTION_WORD.search(line) and not any(
                    where == known and snippet in line for known, snippet in KNOWN
                ):
                    found.append(f"{where}:{n}: {line.strip()}")
    return found


def _compared_in_python(text: str) -> set[int]:
    """The lines of a comparison with a variant's code, or with a collection of them."""

    def code(node: ast.AST) -> bool:  # "tute", or the model's choice Variant.TUTE
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return node.value.id == "Variant" and node.attr.lower() in VARIANTS
        return isinstance(node, ast.Constant) and node.value in VARIANTS

    def codes(node: ast.AST) -> bool:
        items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
        return any(code(i) for i in items)

    return {
        node.lineno
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Compare) and any(codes(o) for o in (node.left, *node.comparators))
    }


def test_no_code_page_or_script_works_out_an_option_fact_again():
    """Which options apply, who plays in pairs, what a game is won by: the engine's
    (games/engine/options.py `options_that_apply`, `Rules`), read by everything else."""
    assert re_derived_option_facts(ROOT) == []


def test_the_scan_catches_a_planted_option_fact(tmp_path):
    planted = {
        "games/frames.py": 'pairs = table.variant == "tute" and table.players == 4\n',
        "games/kinds.py": 'def f(variant, allow_tute):\n    return variant in ("tute", "habanero")'
        " and allow_tute\n",
        "games/models.py": "players = 2 if self.variant == Variant.HABANERO else 4\n",
        "templates/row.html": '{% if o.variant == "habanero" %}{{ o.points_to_win }}{% endif %}\n',
        "static/js/lobby.js": 'if (o.variant === "tute" && o.players === 4) line += pairs;\n',
        "static/js/form.js": 'if (players && "habanero" == select.value) players.value = 2;\n',
        # Not option facts: an action's kind, a variant compared with a variable.
        "games/bots/play.py": 'calls = [a for a in legal if a.kind == "tute"]\n',
        "static/js/filter.js": "if (variant && row.options.variant !== variant) return false;\n",
    }
    for name, text in planted.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = re_derived_option_facts(tmp_path, ("games", "templates", "static/js"))
    assert [line.split(":")[0] for line in found] == [
        "games/frames.py",
        "games/kinds.py",
        "games/models.py",
        "templates/row.html",
        "static/js/form.js",
        "static/js/lobby.js",
    ]


def test_no_game_template_spells_a_variant_name():
    from games.engine.options import VARIANT_NAMES

    for path in sorted((ROOT / "templates" / "games").rglob("*.html")):
        text = path.read_text()
        for name in VARIANT_NAMES.values():
            assert f">{name}<" not in text and f"%}}{name}{{%" not in text, (path, name)


@pytest.mark.django_db
def test_the_lobby_names_each_variant_by_its_declared_name(client):
    for variant in VARIANTS:
        seating.table_create(master=UserFactory(), options={"variant": variant})
    html = client.get("/tables/").content.decode()
    titles = [a.text for a in find(html, "a", class_="tile-title")]
    names = sorted(str(option_value_label("variant", v)) for v in VARIANTS)
    assert sorted(title.split(" #")[0] for title in titles) == names


def test_the_declarations_examples_run_as_written():
    assert doctest.testmod(declaration).failed == 0
