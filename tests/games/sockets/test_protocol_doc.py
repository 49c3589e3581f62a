"""docs/protocol.md's examples are the frames the server really sends: each documented frame has
exactly the fields of a real one of its kind, at every depth."""

import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.utils import timezone

from accounts.services import user_mute
from games.arenas.frames import arena_over_messages
from games.table import seating
from games.table.people import invitation_decline
from tests.support.arenas import finished_arena
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.live import WAIT, open_socket, robots_play_first, table_socket
from tests.support.play import current, move, next_push
from tests.support.protocol import DOC, differences

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def documented_server_frames() -> list[dict]:
    """Every JSON example of what the server sends: frames, and parts of one."""
    frames, heading = [], ""
    for block in re.split(r"^(#+ .*)$", DOC.read_text(), flags=re.MULTILINE):
        if block.startswith("#"):
            heading = block if block.startswith("## ") else heading
            continue
        for example in re.findall(r"```json\n(.*?)```", block, flags=re.DOTALL):
            frame = json.loads(example)
            # A client's messages are documented beside the part of a frame they change
            # (`game.cancel`, which has no `type`).
            if "server → client" in heading or "type" not in frame:
                frames.append(frame)
    return frames


async def real_frames() -> dict[str, dict]:
    """One frame of each kind the server sends, from a real table."""
    alice, bob = await sync_to_async(lambda: (UserFactory(chips=500), UserFactory(chips=500)))()
    lobby = await open_socket("/ws/lobby/")
    table = await sync_to_async(seating.table_create)(
        master=alice, options={"variant": "tute", "players": 2, "stake": 10}
    )
    frames = {"tables": await lobby.receive_json_from(timeout=WAIT)}
    frames["table"] = await lobby.receive_json_from(timeout=WAIT)
    sockets = [(await table_socket(table.pk, user))[0] for user in (alice, bob)]
    await sockets[1].send_json_to({"type": "sit", "seat": 1})
    await current(sockets[0])
    await sockets[0].send_json_to({"type": "start"})
    for socket in sockets:
        while (await next_push(socket))["event"]["kind"] != "start":
            pass
    await move(sockets)
    await move(sockets)
    frames["update"] = (await move(sockets))[0]
    frames["state"] = await current(sockets[0])
    await sockets[1].send_json_to({"type": "chat", "text": "hola"})
    while (frame := await sockets[1].receive_json_from(timeout=WAIT))["type"] != "chat":
        pass
    frames["chat"] = frame
    await sockets[1].send_json_to({"type": "start"})
    frames["error"] = await sockets[1].receive_json_from(timeout=WAIT)
    await sockets[0].send_json_to({"type": "cancel"})
    frames["cancel"] = (await next_push(sockets[0]))["game"]["cancel"]
    moderator = await sync_to_async(ModeratorFactory)()
    until = timezone.now() + timedelta(minutes=10)
    await sync_to_async(user_mute)(user=bob, moderator=moderator, until=until, reason="spam")
    while (frame := await sockets[1].receive_json_from(timeout=WAIT))["type"] != "mute":
        pass
    frames["mute"] = frame
    alone = await sync_to_async(seating.table_create)(
        master=await sync_to_async(UserFactory)(), options={"variant": "habanero"}
    )
    await sync_to_async(seating.table_stand)(table_id=alone.pk, user=alone.master)
    while (frame := await lobby.receive_json_from(timeout=WAIT))["type"] != "table_closed":
        pass
    frames["table_closed"] = frame
    player = await open_socket("/ws/lobby/", await sync_to_async(UserFactory)())
    await player.send_json_to({"type": "play_now", "variant": "habanero", "stake": 0})
    while (frame := await player.receive_json_from(timeout=WAIT))["type"] != "seated":
        pass
    frames["seated"] = frame
    me = await open_socket("/ws/me/", bob)
    frames["invitations"] = await me.receive_json_from(timeout=WAIT)
    host, invited = await sync_to_async(lambda: (UserFactory(), UserFactory()))()
    hosting = await open_socket("/ws/me/", host)
    hosted = await sync_to_async(seating.table_create)(master=host, options={"variant": "habanero"})
    await sync_to_async(seating.table_invite)(
        table_id=hosted.pk, user=host, username=invited.username
    )
    invitation = await sync_to_async(lambda: invited.table_invitations.get())()
    await sync_to_async(invitation_decline)(user=invited, invitation_id=invitation.pk)
    while (frame := await hosting.receive_json_from(timeout=WAIT))["type"] != "invitation_declined":
        pass
    frames["invitation_declined"] = frame
    practice = await sync_to_async(seating.table_practice)(
        master=bob, options={"variant": "habanero", "robot_level": "random"}
    )
    await sync_to_async(robots_play_first)(practice.pk)
    hint = (await table_socket(practice.pk, bob))[0]
    await hint.send_json_to({"type": "hint"})
    while (frame := await hint.receive_json_from(timeout=WAIT))["type"] != "hint":
        pass
    frames["hint"] = frame
    finished = await sync_to_async(finished_arena)(
        await sync_to_async(lambda: [UserFactory(chips=100) for _ in range(2)])()
    )
    frames["arena_over"] = (await sync_to_async(arena_over_messages)(finished.pk))[0][1]["frame"]
    for socket in [*sockets, lobby, player, me, hint, hosting]:
        await socket.disconnect()
    return frames


@pytest.mark.asyncio
async def test_every_documented_frame_has_the_fields_the_server_sends():
    real = await real_frames()
    documented = documented_server_frames()
    kinds = [frame.get("type", "cancel") for frame in documented]
    assert sorted(set(kinds)) == sorted(real), "a kind of frame is undocumented, or made up"
    for frame, kind in zip(documented, kinds, strict=True):
        assert differences(frame, real[kind]) == [], kind
