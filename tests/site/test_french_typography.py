"""French pages write a no-break space before a colon, a semicolon, a question mark and an
exclamation mark, so none of them ever starts a line, and French dates in lower case.
Strings the code joins itself ("facile: Joue…" once) go through the language's own pattern."""

import datetime
import re
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.arenas.models import Arena
from tests.support.arenas import habanero_arena
from tests.support.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
# A punctuation mark that needs its space, right after a letter or a plain space.
BARE = re.compile(r"(?<=[\w )»%])[:;!?](?=\s|$)")
TAGS = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|<[^>]*>|https?://\S+", re.S)


def test_the_french_catalogue_puts_a_no_break_space_before_high_punctuation():
    po = polib.pofile(str(ROOT / "locale/fr/LC_MESSAGES/django.po"))
    bad = [
        text
        for entry in po
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if BARE.search(TAGS.sub("", text))
    ]
    assert not bad, bad[:10]


def test_the_french_rules_pages_put_a_no_break_space_before_high_punctuation():
    bad = []
    for page in (ROOT / "templates/rules/fr").glob("*.html"):
        text = TAGS.sub("", page.read_text(encoding="utf-8"))
        bad += [
            f"{page.name}: {text[max(0, m.start() - 30) : m.end()]}" for m in BARE.finditer(text)
        ]
    assert not bad, bad[:10]


@pytest.mark.django_db
def test_the_practice_form_names_each_robot_level_with_the_french_colon(client: Client):
    client.force_login(UserFactory(language="fr"))
    page = client.get(reverse("home")).content.decode()
    assert "facile\u00a0: Joue" in page
    assert not re.search(r"facile: ", page)


@pytest.mark.django_db
def test_a_finished_arena_is_dated_in_french_words(client: Client):
    habanero_arena(
        name="Dec",
        starts_at=timezone.make_aware(datetime.datetime(2026, 12, 6, 20)),
        status=Arena.Status.FINISHED,
    )
    page = client.get(reverse("arena_list"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "6 décembre 2026" in page
    assert "Déc" not in page
