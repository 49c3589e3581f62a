"""A bare `websockets` fan-out server for the load tool: the floor a push can cost in Python.

Every socket of `/ws/echo/<group>/` joins its group, in this process's memory; a message sent
by one is sent to all of the group's sockets, with nothing else in between: no Django, no
Channels, no Redis. Its CPU a message, beside the Channels echo's and the site's CPU a move,
measured in the same run, says how much of a move's cost is the WebSocket itself.

Run it as `python -m bench.support.fanout_ws --port 8765`.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, broadcast, serve

GROUPS: dict[str, set[ServerConnection]] = defaultdict(set)


async def member(socket: ServerConnection) -> None:
    group = GROUPS[socket.request.path]
    group.add(socket)
    try:
        async for message in socket:
            broadcast(group, message)
    finally:
        group.discard(socket)


async def serve_forever(port: int) -> None:
    async with serve(member, "127.0.0.1", port, compression=None, max_queue=None) as server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    asyncio.run(serve_forever(parser.parse_args().port))


if __name__ == "__main__":
    main()
