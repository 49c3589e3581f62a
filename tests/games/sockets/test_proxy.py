"""Players told apart behind a reverse proxy (settings.TRUSTED_PROXY_COUNT), and never by an
X-Forwarded-For header that no trusted proxy wrote."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import RequestFactory

from accounts.ip import client_ip
from games.models import GameSeat
from games.table import seating
from rankings.models import BoardRow, GameResult
from rankings.services import game_result_award
from tests.support.factories import UserFactory
from tests.support.live import table_socket
from tests.support.play import current, move, next_push

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PROXY = ("10.0.0.2", 41000)


async def play_a_competitive_game(peers, forwarded_for):
    """Two players play a whole 2-player tute at a stake, each socket from `peers[n]` with
    `forwarded_for[n]` as its X-Forwarded-For. Returns the game's id."""
    master, guest = await sync_to_async(lambda: (UserFactory(chips=500), UserFactory(chips=500)))()
    table = await sync_to_async(seating.table_create)(
        master=master, options={"variant": "tute", "players": 2, "stake": 20}
    )
    sockets = []
    for user, peer, forwarded in zip((master, guest), peers, forwarded_for, strict=True):
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        socket, _ = await table_socket(table.pk, user, client=peer, headers=headers)
        sockets.append(socket)
    await sockets[1].send_json_to({"type": "sit", "seat": 1})
    # Both sockets know the sit (the sitter's has joined its seat's group) before the start.
    await current(sockets[1])
    await current(sockets[0])
    await sockets[0].send_json_to({"type": "start"})
    for socket in sockets:
        while (frame := await next_push(socket))["event"]["kind"] != "start":
            pass
    while frame["event"]["kind"] != "end":  # a move's update holds the game's changes only
        frame = (await move(sockets))[0]
    for socket in sockets:
        await socket.disconnect()
    return frame["game"]["id"]


def award_and_boards(game_id):
    game_result_award(game_id=game_id)
    result = GameResult.objects.get(game_id=game_id)
    users = list(GameSeat.objects.filter(game_id=game_id).values_list("user_id", flat=True))
    addresses = sorted(
        GameSeat.objects.filter(game_id=game_id).values_list("ip_address", flat=True)
    )
    on_boards = BoardRow.objects.filter(user_id__in=users, period="all", variant="").count()
    return result, addresses, on_boards


@pytest.mark.asyncio
async def test_two_players_behind_the_trusted_proxy_count_for_the_rankings(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # Each client wrote an address of its own before the proxy's: only the proxy's counts.
    game_id = await play_a_competitive_game(
        (PROXY, PROXY), ("192.0.2.1, 198.51.100.7", "192.0.2.1, 203.0.113.9")
    )
    result, addresses, on_boards = await sync_to_async(award_and_boards)(game_id)
    assert addresses == ["198.51.100.7", "203.0.113.9"]
    assert result.exclusion == "" and on_boards == 2


@pytest.mark.asyncio
async def test_two_players_at_one_address_behind_the_proxy_are_kept_off_the_boards(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    game_id = await play_a_competitive_game((PROXY, PROXY), ("198.51.100.7", "198.51.100.7"))
    result, addresses, on_boards = await sync_to_async(award_and_boards)(game_id)
    assert addresses == ["198.51.100.7", "198.51.100.7"]
    assert result.exclusion == GameResult.Exclusion.SAME_IP and on_boards == 0


@pytest.mark.asyncio
async def test_a_forwarded_for_header_without_a_trusted_proxy_changes_nothing(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    # Two players on their own connections both claim one address: it is ignored.
    game_id = await play_a_competitive_game(
        (("198.51.100.7", 5000), ("203.0.113.9", 5001)), ("192.0.2.1", "192.0.2.1")
    )
    result, addresses, on_boards = await sync_to_async(award_and_boards)(game_id)
    assert addresses == ["198.51.100.7", "203.0.113.9"]
    assert result.exclusion == "" and on_boards == 2


@pytest.mark.parametrize(
    "proxies, forwarded, expected",
    [
        (0, "192.0.2.1", "10.0.0.2"),
        (1, "192.0.2.1", "192.0.2.1"),
        (1, "192.0.2.66, 192.0.2.1", "192.0.2.1"),
        (2, "192.0.2.66, 192.0.2.1, 10.0.0.9", "192.0.2.1"),
        (1, None, "10.0.0.2"),
    ],
)
def test_pages_read_the_client_address_by_the_same_setting(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = settings.ALLAUTH_TRUSTED_PROXY_COUNT = proxies
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", **extra)
    assert client_ip(request) == expected
