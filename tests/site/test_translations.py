"""The French and Spanish catalogues are complete: every string marked for translation in the
code and templates is in them, translated, not fuzzy, and keeps its placeholders."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fr", "es")
# What makemessages reads: our code and templates, not the tests, the venv or collected files.
SKIP_DIRS = {".venv", "staticfiles", "locale", "tests", "node_modules", ".git", "__pycache__"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def catalogue(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def keys(po: polib.POFile) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in po if not entry.obsolete}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_is_translated_and_not_fuzzy(lang):
    po = catalogue(lang)
    assert not po.metadata_is_fuzzy, f"the {lang} catalogue's header is marked fuzzy"
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    problems = [
        ("fuzzy" if "fuzzy" in entry.flags else "untranslated", entry.msgid)
        for entry in po
        if not entry.obsolete and ("fuzzy" in entry.flags or not entry.translated())
    ]
    # Every plural form the language has (Spanish has three) must be written.
    problems += [
        ("missing plural forms", entry.msgid)
        for entry in po
        if entry.msgid_plural
        and sorted(i for i, text in entry.msgstr_plural.items() if text) != list(range(forms))
    ]
    assert not problems, f"{lang}: {len(problems)} entries to translate: {problems[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_their_placeholders(lang):
    for entry in catalogue(lang):
        if entry.obsolete or not entry.translated():
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            assert set(PLACEHOLDER.findall(text)) <= wanted | set(
                PLACEHOLDER.findall(entry.msgid_plural or "")
            ), f"{lang}: {entry.msgid!r} -> {text!r} changes the placeholders"
            if not entry.msgid_plural:
                assert set(PLACEHOLDER.findall(text)) == wanted, (
                    f"{lang}: {entry.msgid!r} -> {text!r} drops a placeholder"
                )


def _copy_sources(destination: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        for name in filenames:
            if name.endswith((".py", ".html", ".txt")):
                source = Path(dirpath) / name
                target = destination / source.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_catalogues_hold_every_string_marked_in_code_and_templates(tmp_path, monkeypatch):
    """Run makemessages on a copy of the sources, into a scratch locale directory."""
    sources = tmp_path / "src"
    _copy_sources(sources)
    scratch = sources / "locale"
    (scratch / "fr" / "LC_MESSAGES").mkdir(parents=True)
    monkeypatch.chdir(sources)
    with override_settings(LOCALE_PATHS=[str(scratch)]):
        call_command("makemessages", locale=["fr"], verbosity=0, no_obsolete=True)
    extracted = keys(polib.pofile(str(scratch / "fr" / "LC_MESSAGES" / "django.po")))
    assert len(extracted) > 50, "makemessages found too few strings; is the copy complete?"
    for lang in LANGUAGES:
        missing = extracted - keys(catalogue(lang))
        assert not missing, (
            f"{lang}: {len(missing)} marked strings are not in the catalogue; run "
            f"makemessages and translate them: {sorted(m for _c, m in missing)[:10]}"
        )


TRANSLATE_TAG = re.compile(
    r"""\{%\s*(?:translate|trans)\s+(?P<q>["'])(?P<text>.*?)(?P=q)(?P<rest>[^%]*)%\}"""
)


def test_catalogues_hold_every_translate_literal_of_the_templates():
    """A check that needs no gettext tools: the literal {% translate %} strings."""
    literals = set()
    for path in (ROOT / "templates").rglob("*.html"):
        for match in TRANSLATE_TAG.finditer(path.read_text(encoding="utf-8")):
            if "context" not in match.group("rest"):
                literals.add(match.group("text"))
    assert literals
    for lang in LANGUAGES:
        msgids = {entry.msgid for entry in catalogue(lang)}
        missing = sorted(literals - msgids)
        assert not missing, f"{lang}: not in the catalogue: {missing[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gnu_msgfmt_accepts_the_catalogue(lang):
    """Django's compilemessages, Poedit and translators' tools use GNU gettext: the catalogue
    must pass its strictest check, not only polib's reading."""
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is missing (make system-deps installs it)"
    po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    result = subprocess.run(
        [msgfmt, "--check", "--statistics", "-o", os.devnull, str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
