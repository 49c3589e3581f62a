"""A player muted while at a table hears it on their own socket, and the page reads the
mute's end and reason from the server; a muted chat message is refused with `muted`."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.services import user_mute, user_unmute
from games.table import seating
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.live import WAIT, table_socket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def two_at_a_table():
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    table = seating.table_create(master=ana, options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=beto)
    return table, ana, beto, ModeratorFactory(username="mod")


def mute_of(user) -> dict:
    client = Client()
    client.force_login(user)
    return client.get("/chat/mute/").json()


@pytest.mark.asyncio
async def test_a_mute_reaches_the_muted_players_socket_only_and_the_page_reads_it():
    table, ana, beto, mod = await sync_to_async(two_at_a_table)()
    ana_socket, _first = await table_socket(table.pk, ana)
    beto_socket, _first = await table_socket(table.pk, beto)
    assert await sync_to_async(mute_of)(beto) == {"until": None, "reason": ""}

    until = (timezone.now() + timedelta(hours=1)).replace(microsecond=0)
    await sync_to_async(user_mute)(user=beto, moderator=mod, until=until, reason="Insults")
    assert await beto_socket.receive_json_from(timeout=WAIT) == {
        "type": "mute",
        "table_id": table.pk,
    }
    assert await ana_socket.receive_nothing(timeout=0.5)
    assert await sync_to_async(mute_of)(beto) == {
        "until": until.isoformat().replace("+00:00", "Z"),
        "reason": "Insults",
    }

    await beto_socket.send_json_to({"type": "chat", "text": "hola"})
    error = await beto_socket.receive_json_from(timeout=WAIT)
    assert (error["type"], error["code"]) == ("error", "muted")

    await sync_to_async(user_unmute)(user=beto, moderator=mod)
    assert await beto_socket.receive_json_from(timeout=WAIT) == {
        "type": "mute",
        "table_id": table.pk,
    }
    assert await sync_to_async(mute_of)(beto) == {"until": None, "reason": ""}
    for socket in (ana_socket, beto_socket):
        await socket.disconnect()
