"""Live play: everything that happens at a table, one concern a module.

Every change at a table passes through one door, `room.locked_room`: the table's row is
locked and the room (table, seats, game, game seats and engine state) is loaded once; the
service works on that room and the frames are built from it.

The rest of the site comes in through the wing's doors: `requests` (a request from a socket
or a page, handled), `seating` (tables opened and closed for players, as the arenas do),
`options` (the check of a table's options) and `refusals` (`TableError`, the one refusal, and
`require_user`, the one login check). The arenas use no other module of the wing
(tests/site/test_layering.py). The wing tells no one that a game ended: it publishes the
end (games/events.py), and whoever cares subscribes.
"""
