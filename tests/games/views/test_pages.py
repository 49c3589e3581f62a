"""The lobby, the table page and a finished game's page, as a browser without scripts gets
them: what is listed, what the filters keep, where a form's errors go, what stays hidden."""

import json
import random

import pytest

from games.engine import new_game
from games.models import Game, GameSeat, Table
from games.table import seating
from tests.support.factories import UserFactory
from tests.support.html import find
from tests.support.play import play_random_game

pytestmark = pytest.mark.django_db


def open_table(master=None, **options) -> Table:
    master = master or UserFactory(chips=1000)
    return seating.table_create(master=master, options=options)


def tile_ids(html: str) -> list[int]:
    return [int(li.attrs["data-table-id"]) for li in find(html, "li", data_table_id=True)]


def errors_of(html: str, field: str) -> list[str]:
    """The error texts shown next to one field of a form."""
    return [ul.text for ul in find(html, "ul", data_errors_for=field) if ul.text]


def test_lobby_lists_each_table_with_players_free_seats_and_options(client):
    alice = UserFactory(username="alice", chips=1000)
    bob = UserFactory(username="bob", chips=1000)
    table = open_table(alice, variant="tute", players=4, stake=50, rounds=3, private=True)
    seating.table_invite(table_id=table.pk, user=alice, username="bob")
    seating.table_sit(table_id=table.pk, user=bob)
    # A private table is shown only to those who may sit at it: not to a visitor.
    assert tile_ids(client.get("/tables/").content.decode()) == []
    client.force_login(bob)
    html = client.get("/tables/").content.decode()
    (tile,) = [li for li in find(html, "li", data_table_id=str(table.pk))]
    assert "Tute" in tile.text and "4 players, in pairs" in tile.text
    assert "Competitive" in tile.text and "Stake 50 chips" in tile.text
    assert "3 deals to win" in tile.text and "Private" in tile.text
    assert "★alice" in tile.text and "bob" in tile.text
    assert "2 free seats" in tile.text and "Waiting for players" in tile.text


def test_lobby_filters_by_variant_free_seats_and_stake(client):
    tute = open_table(variant="tute", players=4)
    habanero = open_table(variant="habanero", players=2, stake=100)
    full = open_table(variant="habanero", players=2)
    seating.table_sit(table_id=full.pk, user=UserFactory(chips=1000))
    practice = open_table(variant="pocha", players=3, competitive=False)
    assert tile_ids(client.get("/tables/").content.decode()) == [
        practice.pk,
        full.pk,
        habanero.pk,
        tute.pk,
    ]
    by_variant = client.get("/tables/", {"variant": "habanero"}).content.decode()
    assert tile_ids(by_variant) == [full.pk, habanero.pk]
    with_room = client.get("/tables/", {"variant": "habanero", "free": 1})
    assert tile_ids(with_room.content.decode()) == [habanero.pk]
    three_free = client.get("/tables/", {"free": 3}).content.decode()
    assert tile_ids(three_free) == [tute.pk]
    no_stake = client.get("/tables/", {"max_stake": 0}).content.decode()
    assert tile_ids(no_stake) == [practice.pk, full.pk, tute.pk]
    assert tile_ids(client.get("/tables/", {"max_stake": 100}).content.decode()) == [
        practice.pk,
        full.pk,
        habanero.pk,
        tute.pk,
    ]


def test_lobby_answers_htmx_with_the_list_alone(client):
    table = open_table(variant="pocha", players=2)
    response = client.get("/tables/", {"variant": "pocha"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="lobby-tables"')
    assert tile_ids(html) == [table.pk] and "<html" not in html


def test_lobby_in_spanish(client):
    open_table(variant="tute", players=3, competitive=False)
    html = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Práctica" in html and "3 jugadores" in html


def test_creating_a_table_makes_its_creator_master_in_the_first_seat(client):
    alice = UserFactory(username="alice", chips=1000)
    client.force_login(alice)
    response = client.post(
        "/tables/new/",
        {
            "variant": "habanero",
            "players": 2,
            "rounds": 1,
            "points_to_win": 3,
            "move_time": 20,
            "competitive": "on",
            "stake": 30,
            "guests": "on",
            "allow_tute": "on",
            "stock_play": "free",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert (table.variant, table.players, table.points_to_win, table.stake) == (
        "habanero",
        2,
        3,
        30,
    )
    assert table.master == alice and table.seats.get().seat == 0
    html = client.get(response["Location"]).content.decode()
    (first,) = [li for li in find(html, "ol", id="seats")[0:1]]
    assert first.text.startswith("★ alice")


def form_data(**changes) -> dict:
    data = {
        "variant": "tute",
        "players": 4,
        "pairs": "on",
        "rounds": 1,
        "points_to_win": 4,
        "move_time": 30,
        "competitive": "on",
        "stake": 0,
        "guests": "on",
        "allow_tute": "on",
        "stock_play": "free",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_a_stake_at_a_practice_table_is_refused_next_to_the_stake(client):
    client.force_login(UserFactory(chips=1000))
    response = client.post("/tables/new/", form_data(competitive=None, stake=20))
    html = response.content.decode()
    assert response.status_code == 400
    assert errors_of(html, "stake") == ["Only a competitive table plays for a stake."]
    assert errors_of(html, "competitive") == []
    assert not Table.objects.exists()


def test_a_stake_above_the_players_chips_is_refused_next_to_the_stake(client):
    client.force_login(UserFactory(username="poor", chips=100))
    html = client.post("/tables/new/", form_data(stake=500)).content.decode()
    assert errors_of(html, "stake") == ["The table's stake is 500 chips, and you hold 100."]
    assert not Table.objects.exists()


def test_a_field_that_does_not_apply_is_not_a_choice_and_a_number_out_of_range_is_refused(client):
    client.force_login(UserFactory(chips=1000))
    # Without the page's script the players field shows for habanero too: habanero is for
    # two, so whatever it says the table is for two (the socket's request is refused).
    response = client.post("/tables/new/", form_data(variant="habanero", players=4))
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.variant, table.players, table.pairs) == ("habanero", 2, False)
    html = client.post("/tables/new/", form_data(rounds=9)).content.decode()
    assert errors_of(html, "rounds") == ["Ensure this value is less than or equal to 5."]


def test_creating_a_table_needs_a_login(client):
    response = client.post("/tables/new/", form_data())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert "Log in to open a table." in client.get("/tables/").content.decode()


def test_table_page_holds_every_card_face_with_its_name_and_the_socket(client):
    table = open_table(variant="tute", players=2)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    faces = find(html, "template", data_card=True)
    assert len(faces) == 40
    assert [t.attrs["data-card"] for t in faces[:3]] == ["1O", "3O", "12O"]
    assert faces[2].attrs["data-label"] == "King of oros"
    (app,) = find(html, "div", id="table-app")
    assert app.attrs["data-socket"] == f"/ws/tables/{table.pk}/"
    strings = json.loads(find(html, "script", id="table-strings")[0].text)
    assert strings["your_turn"] == "Your turn."
    spanish = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert find(spanish, "template", data_card="12O")[0].attrs["data-label"] == "Rey de oros"


def test_sitting_standing_and_starting_work_without_javascript(client):
    alice = UserFactory(username="alice", chips=1000)
    table = open_table(alice, variant="habanero", players=2)
    bob = UserFactory(username="bob", chips=1000)
    client.force_login(bob)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert find(html, "form", data_ws="sit")
    client.post(f"/tables/{table.pk}/request/", {"do": "sit", "seat": 1})
    assert table.seats.get(seat=1).user == bob
    # Only the master starts a game: bob is told so, and nothing starts.
    response = client.post(f"/tables/{table.pk}/request/", {"do": "start"}, follow=True)
    notices = [p.text for p in find(response.content.decode(), "p", class_="message error")]
    assert notices == ["Only the table's master may do that."]
    assert Table.objects.get(pk=table.pk).game is None
    client.post(f"/tables/{table.pk}/request/", {"do": "stand"})
    assert not table.seats.filter(user=bob).exists()


def test_master_options_form_refuses_next_to_the_field_and_saves(client):
    alice = UserFactory(username="alice", chips=1000)
    table = open_table(alice, variant="tute", players=4)
    client.force_login(alice)
    html = client.post(
        f"/tables/{table.pk}/options/", form_data(competitive=None, stake=10)
    ).content.decode()
    assert errors_of(html, "stake") == ["Only a competitive table plays for a stake."]
    response = client.post(f"/tables/{table.pk}/options/", form_data(players=3, rounds=2))
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.players, table.rounds) == (3, 2)


def stored_game(state, status, names=("ana", "blas")) -> Game:
    game = Game.objects.create(
        variant=state.options.variant,
        options=state.options.to_dict(),
        record=state.to_record(),
        status=status,
    )
    for seat, name in enumerate(names):
        GameSeat.objects.create(game=game, seat=seat, user=UserFactory(username=name))
    return game


def test_a_running_game_page_and_record_stay_hidden(client):
    rng = random.Random(3)
    state = new_game({"variant": "habanero"}, rng)
    game = stored_game(state, Game.Status.PLAYING)
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert client.get(f"/games/{game.pk}/record.json").status_code == 404
    game.status = Game.Status.FINISHED
    game.save()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/{game.pk}/record.json").status_code == 200


def test_finished_game_page_replays_every_deal_step_by_step(client):
    state = play_random_game({"variant": "habanero", "points_to_win": 1}, seed=4)
    game = stored_game(state, Game.Status.FINISHED)
    html = client.get(f"/games/{game.pk}/").content.decode()
    replay = json.loads(find(html, "script", id="replay-data")[0].text)
    assert json.loads(find(html, "script", id="replay-names")[0].text) == ["ana", "blas"]
    record = game.record
    assert len(replay["deals"]) == len(record["deals"])
    for deal, recorded in zip(replay["deals"], record["deals"], strict=True):
        steps = deal["steps"]
        # The position before any action, then one step per recorded action.
        assert [s["action"] for s in steps] == [None, *recorded["actions"]]
        assert [sorted(h) for h in steps[0]["hands"]] == [sorted(h) for h in recorded["hands"]]
        assert steps[0]["trump_card"] == recorded["trump_card"]
        first_play = next(i for i, s in enumerate(steps) if s["action"] and "play" in s["action"])
        played = steps[first_play]["action"]
        assert steps[first_play]["trick"] == [{"seat": played["seat"], "card": played["play"]}]
        assert played["play"] not in steps[first_play]["hands"][played["seat"]]
        assert played["play"] in steps[first_play - 1]["hands"][played["seat"]]
    assert replay["result"] == {"over": True, "winner": state.winner, "score": list(state.score)}
    # Without scripts, each deal's hands and tricks are on the page too.
    assert "Deal 1" in html and "Hands dealt" in html
    first_card = record["deals"][0]["actions"][0]
    assert find(html, "button", id="replay-next")[0].attrs["aria-keyshortcuts"] == "ArrowRight"
    assert first_card


def test_header_and_home_lead_to_the_lobby(client):
    html = client.get("/").content.decode()
    assert find(html, "a", href="/tables/")
    assert "Find a table and play" in html
    (nav,) = find(html, "nav", class_="site-nav")
    assert "Lobby" in nav.text
