"""Moderators see the puzzles in the admin, read only: nobody edits what the solver found."""

import pytest

from games.puzzles.models import Puzzle
from tests.support.factories import ModeratorFactory
from tests.support.mined import mine_games

pytestmark = pytest.mark.django_db


def test_a_moderator_lists_and_reads_the_puzzles_but_changes_none(client):
    puzzle = mine_games(seeds=(8,), variants=("habanero",))[0]
    client.force_login(ModeratorFactory())
    listing = client.get("/admin/puzzles/puzzle/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert f"/admin/puzzles/puzzle/{puzzle.pk}/change/" in html and "1000" in html
    page = client.get(f"/admin/puzzles/puzzle/{puzzle.pk}/change/")
    assert page.status_code == 200 and puzzle.key in page.content.decode()
    response = client.post(f"/admin/puzzles/puzzle/{puzzle.pk}/change/", {"gap": "0"})
    assert response.status_code == 403
    assert client.get("/admin/puzzles/puzzle/add/").status_code == 403
    assert Puzzle.objects.get(pk=puzzle.pk).gap == puzzle.gap
