"""The variants are declared once, by the engine (games/engine/options.py): the models, the
forms, the option labels and the rankings read that declaration, and no other code lists them."""

import ast
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine.options import VARIANT_NAMES, VARIANTS, OptionError, Options
from games.forms import TableOptionsForm
from games.models import Game, Table, Variant
from games.options import option_value_label
from rankings.models import VARIANTS as RANKED_VARIANTS

ROOT = Path(__file__).resolve().parents[2]
CODES = {"tute", "habanero", "pocha"}
DECLARATION = ROOT / "games" / "engine" / "options.py"


def listed_strings(node: ast.AST) -> set[str]:
    """The string constants a tuple, list, set or dict lists, or the first of each pair; or
    that a class assigns (an enum or Django choices)."""
    if isinstance(node, ast.Dict):
        items = [key for key in node.keys if key is not None]
    elif isinstance(node, ast.ClassDef):
        values = [stmt.value for stmt in node.body if isinstance(stmt, ast.Assign)]
        items = [v.elts[0] if isinstance(v, ast.Tuple) and v.elts else v for v in values]
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [
            elt.elts[0] if isinstance(elt, ast.Tuple) and elt.elts else elt for elt in node.elts
        ]
    else:
        return set()
    return {item.value for item in items if isinstance(item, ast.Constant)} & CODES


def test_the_engine_declares_the_variants_and_the_site_reads_them():
    assert VARIANTS == ("tute", "habanero", "pocha")
    choices = list(VARIANT_NAMES.items())
    assert Variant.choices == choices
    assert Game._meta.get_field("variant").choices == choices
    assert Table._meta.get_field("variant").choices == choices
    assert list(TableOptionsForm().fields["variant"].choices) == choices
    assert list(RANKED_VARIANTS) == choices
    assert [option_value_label("variant", code) for code in VARIANTS] == list(
        VARIANT_NAMES.values()
    )
    assert Variant.HABANERO == "habanero" and Variant.TUTE.label == "Tute"


def test_an_unknown_variant_is_refused_naming_the_engine_list():
    try:
        Options.from_dict({"variant": "brisca"})
    except OptionError as error:
        assert str(error) == "Unknown variant 'brisca'; it must be tute, habanero or pocha."
    else:
        raise AssertionError("brisca was accepted")


def test_no_code_but_the_engine_lists_the_variants():
    found = []
    for part in ("accounts", "games", "rankings", "tute_site"):
        for path in sorted((ROOT / part).rglob("*.py")):
            if "migrations" in path.parts or path == DECLARATION:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if listed_strings(node) == CODES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
    declared = ast.parse(DECLARATION.read_text())
    assert any(listed_strings(node) == CODES for node in ast.walk(declared))


@pytest.mark.django_db
def test_the_choices_need_no_migration():
    call_command("makemigrations", "games", "rankings", check=True, dry_run=True, verbosity=0)
