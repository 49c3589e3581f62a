"""The lobby's list and filters, creating a table from the form, and a table's page."""

import pytest

from games.models import Table
from games.selectors import lobby_tables
from games.table import seating
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_lobby_filters_by_variant_free_seats_and_stake():
    full = seating.table_create(master=UserFactory(chips=100), options={"variant": "habanero"})
    seating.table_sit(table_id=full.pk, user=UserFactory())
    rich = seating.table_create(master=UserFactory(chips=900), options={"stake": 500})
    cheap = seating.table_create(master=UserFactory(chips=100), options={"stake": 20})
    ids = lambda rows: sorted(row["id"] for row in rows)  # noqa: E731
    assert ids(lobby_tables()) == sorted([full.pk, rich.pk, cheap.pk])
    assert ids(lobby_tables(variant="habanero")) == [full.pk]
    assert ids(lobby_tables(free_seats=True)) == sorted([rich.pk, cheap.pk])
    assert ids(lobby_tables(max_stake=100)) == sorted([full.pk, cheap.pk])


def test_the_lobby_page_lists_tables_and_reads_its_filters(client):
    table = seating.table_create(master=UserFactory(username="alice"), options={})
    page = client.get("/tables/").content.decode()
    assert f"/tables/{table.pk}/" in page and "alice" in page
    assert f"/tables/{table.pk}/" not in client.get("/tables/?variant=pocha").content.decode()


def test_creating_a_table_from_the_form_seats_its_master(client):
    master = UserFactory(chips=100)
    client.force_login(master)
    form = {
        "variant": "habanero",
        "players": "2",
        "rounds": "1",
        "points_to_win": "3",
        "move_time": "20",
        "competitive": "on",
        "stake": "50",
        "guests": "on",
        "allow_tute": "on",
        "stock_play": "free",
    }
    response = client.post("/tables/new/", form)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert (table.variant, table.points_to_win, table.stake, table.master) == (
        "habanero",
        3,
        50,
        master,
    )
    assert client.get(f"/tables/{table.pk}/").status_code == 200


def test_a_form_error_is_shown_next_to_its_field(client):
    client.force_login(UserFactory(chips=10))
    base = {"players": "4", "rounds": "1", "points_to_win": "4", "move_time": "30"}
    response = client.post(
        "/tables/new/", {**base, "variant": "tute", "stake": "10", "stock_play": "free"}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["stake"] == [
        "Only a competitive table plays for a stake."
    ]
    broke = client.post(
        "/tables/new/",
        {**base, "variant": "tute", "competitive": "on", "stake": "500", "stock_play": "free"},
    )
    assert "stake" in broke.context["form"].errors
    assert not Table.objects.exists()
