"""Live play: everything that happens at a table, one concern a module.

Every change at a table passes through one door, `room.locked_room`: the table's row is
locked and the room (table, seats, game, game seats and engine state) is loaded once; the
service works on that room and the frames are built from it.
"""
