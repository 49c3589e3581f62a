"""The site's WebSockets (docs/protocol.md), one module each: a table's, the lobby's and a
player's own, on what they share (games/sockets/base.py). The arenas' socket is the arenas'
(games/arenas/consumers.py)."""
