"""The frame's `may` is the server's own answer (games/table/permits.py): for every table
request, every kind of user and every moment of a table, what the frame allows is accepted
and what it does not is refused.

Each request is tried in a transaction rolled back afterwards, so that every try starts from
the same table.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from games.bots import seat_to_act
from games.models import Game, GameSeat, Invitation, Table
from games.table import cancel, permits, play, rematch, requests, robots, seating
from games.table.frames import MOVE, socket_state, update_frames
from games.table.record import game_state
from games.table.refusals import TableError
from games.table.room import Part, Room
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

ASKED = {
    "sit": {"seat": None},
    "options": {"options": {}},
    "invite": {"username": "dora"},
    "chat": {"text": "hola"},
    "cancel_answer": {"accept": True},
    "rematch_answer": {"accept": True},
}


class Rollback(Exception):
    pass


def accepted(table_id: int, user, kind: str) -> bool:
    """Whether the server accepts `kind` from `user` now; nothing it does is kept."""
    request = requests.parse({"type": kind, **ASKED.get(kind, {})})
    try:
        with transaction.atomic():
            try:
                requests.handle(request, table_id=table_id, user=user, ip_address="198.51.100.9")
            except TableError:
                return False
            raise Rollback
    except Rollback:
        return True


def frame_may(table_id: int, user) -> dict[str, bool]:
    """The `may` of the whole state this user's socket gets (a spectator's narrowed)."""
    real = None if user is None or not user.is_authenticated else user
    frame, _facts = socket_state(table_id=table_id, user=real)
    return frame["may"]


def play_until(table: Table, done) -> None:
    """Each seat's first legal action, by its own player, until `done(state)`."""
    for _ in range(500):
        game = Game.objects.get(pk=Table.objects.get(pk=table.pk).game_id)
        state = game_state(game=game)
        if done(state):
            return
        if state.needs_deal:
            dealer = GameSeat.objects.filter(game=game, user__isnull=False).first().user
            play.game_next_deal(table_id=table.pk, user=dealer)
            continue
        seat = seat_to_act(state)
        user = GameSeat.objects.get(game=game, seat=seat).user
        if user is None:  # a robot's seat: its timer, due (not the player's, 30 s)
            later = timezone.now() + timedelta(seconds=5)
            robots.game_timer_fire(game_id=game.pk, count=game.action_count, now=later)
            continue
        action = state.legal_actions_for(seat)[0]
        play.game_act(
            table_id=table.pk, user=user, action=action.to_dict(), count=game.action_count
        )
    raise AssertionError("the game did not get there")


def two_player(**options) -> tuple[Table, list]:
    master, other = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(
        master=master, options={"variant": "tute", "players": 2, "rounds": 2, **options}
    )
    seating.table_sit(table_id=table.pk, user=other)
    return table, [master, other]


# Each moment: the table, and the players seated at it (their seats in order).
def waiting():
    master = UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "tute", "players": 2})
    return table, [master]


def full():
    return two_player()


def playing():
    table, users = two_player()
    play.game_start(table_id=table.pk, user=users[0])
    play_until(table, lambda state: len(state.trick) == 1)
    return table, users


def deal_over():
    table, users = two_player()
    play.game_start(table_id=table.pk, user=users[0])
    play_until(table, lambda state: state.needs_deal or state.over)
    return table, users


def game_over():
    table, users = two_player(rounds=1)
    play.game_start(table_id=table.pk, user=users[0])
    play_until(table, lambda state: state.over)
    return table, users


def rematch_offered():
    table, users = game_over()
    rematch.rematch_offer(table_id=table.pk, user=users[1])
    return table, users


def cancel_proposed():
    table, users = playing()
    cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    return table, users


def robot_holds():
    table, users = playing()
    game = Table.objects.get(pk=table.pk).game
    GameSeat.objects.filter(game=game, seat=1).update(timeouts=3)
    return table, users


def practice():
    master = UserFactory()
    table = seating.table_practice(master=master, options={"variant": "habanero"})
    play_until(table, lambda state: seat_to_act(state) == 0 and not state.needs_deal)
    return table, [master]


def guest_practice():
    guest = UserFactory(is_guest=True)
    table = seating.table_practice(master=guest, options={"variant": "habanero"})
    play_until(table, lambda state: seat_to_act(state) == 0 and not state.needs_deal)
    return table, [guest]


def private():
    master = UserFactory(chips=1000)
    table = seating.table_create(
        master=master, options={"variant": "tute", "players": 2, "private": True}
    )
    return table, [master]


def staked():
    master = UserFactory(chips=1000)
    table = seating.table_create(
        master=master, options={"variant": "tute", "players": 2, "stake": 500}
    )
    return table, [master]


MOMENTS = [
    waiting,
    full,
    playing,
    deal_over,
    game_over,
    rematch_offered,
    cancel_proposed,
    robot_holds,
    practice,
    guest_practice,
    private,
    staked,
]


def onlookers() -> dict[str, object]:
    """Everyone who is not seated: a player with chips and one without, an invited one, a
    muted one, a guest, and someone not logged in."""
    UserFactory(username="dora")
    return {
        "spectator": UserFactory(chips=1000),
        "poor": UserFactory(chips=10),
        "muted": UserFactory(chips=1000, muted_until=timezone.now() + timedelta(hours=1)),
        "guest": UserFactory(is_guest=True),
        "anonymous": AnonymousUser(),
    }


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: m.__name__)
def test_every_request_the_frame_allows_is_accepted_and_every_other_refused(moment):
    table, seated = moment()
    people = {**{f"seat {n}": user for n, user in enumerate(seated)}, **onlookers()}
    invited = UserFactory(chips=1000)
    Invitation.objects.create(table=table, user=invited, invited_by=seated[0])
    people["invited"] = invited
    allowed_somewhere = set()
    for who, user in people.items():
        shown = frame_may(table.pk, user)
        assert set(shown) == set(permits.KINDS), who
        for kind in permits.KINDS:
            assert accepted(table.pk, user, kind) == shown[kind], (moment.__name__, who, kind)
            if shown[kind]:
                allowed_somewhere.add(kind)
    # The walk is no walk of refusals alone: each moment lets someone do something.
    assert allowed_somewhere


def test_the_walk_reaches_every_request_both_ways():
    """Across the moments, each request is allowed to someone and refused to someone."""
    allowed, refused = set(), set()
    for moment in MOMENTS:
        with transaction.atomic():
            table, seated = moment()
            people = [*seated, *onlookers().values()]
            for user in people:
                for kind, ok in frame_may(table.pk, user).items():
                    (allowed if ok else refused).add(kind)
            transaction.set_rollback(True)
    assert allowed == refused == set(permits.KINDS)


@pytest.mark.parametrize("moment", [playing, deal_over, cancel_proposed, robot_holds, practice])
def test_a_moves_update_says_the_same_as_the_whole_state(moment):
    """After a move only the requests a move changes are answered, from the game's seats
    alone: the same answers the whole state gives."""
    table, seated = moment()
    room = Room(table=Table.objects.get(pk=table.pk))
    frames = update_frames(room, {"kind": "move"}, table=False, game=MOVE)
    for seat, user in enumerate(seated):
        whole = frame_may(table.pk, user)
        assert frames[seat]["may"] == {kind: whole[kind] for kind in permits.GAME_KINDS}
    assert not any(frames[None]["may"].values())
    # The table's seats were never read for it.
    assert Part.SEATS not in room.loaded
