"""Every write to a table's rows goes through the table's door.

The room (games/table/room.py) promises that every change to a table's rows (the table, its
seats, its game, the game's seats, the open proposal to cancel) is made under the table's
lock and pushed with the table's version: the robots think on a room read earlier and act
only if the version did not move, and the process that made the last change keeps the room
for the next one. A write past the door breaks both without a sound.

So, read from the source with `ast`: a query that writes those rows (`update`, `delete`,
`create`, `bulk_create`, `bulk_update`, `get_or_create`, `update_or_create` on
`<Model>.objects…`, or on a queryset a function kept in a name) is found only in the
live-play wing (games/table/), in a function that

- is given the room (a parameter annotated `Room`), or
- takes it through the door (`locked_room(...)`) before the write, or
- creates the table itself (`Table.objects.create`) before the write: nobody sees a table
  before its creation is committed.

A row's own `save()` cannot be told from another model's by reading alone; the wing saves
only the rows its room gave it. Each rule is shown to find a planted breach, the two side
doors this check was written against among them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = ("accounts", "rankings", "games", "tute_site")
WING = ("games", "table")
ROOM_MODELS = {"Table", "TableSeat", "Game", "GameSeat", "CancelProposal"}
WRITES = {
    "update",
    "delete",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
}


def _model_of(node: ast.AST, kept: dict[str, str]) -> str | None:
    """The room's model a query chain starts from (`Game.objects.filter(...)`, or a name
    holding such a queryset), or None."""
    through_objects = False
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            through_objects = through_objects or node.attr == "objects"
            node = node.value
        elif isinstance(node, ast.Name):
            if through_objects and node.id in ROOM_MODELS:
                return node.id
            return None if through_objects else kept.get(node.id)
        else:
            return None


def _calls(function: ast.AST, name: str) -> list[int]:
    """The lines where `function` calls `name(...)` (or `x.name(...)`)."""
    lines = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called == name:
                lines.append(node.lineno)
    return lines


def _given_the_room(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        annotation = argument.annotation
        if annotation is not None and ast.unparse(annotation).strip("'\"") == "Room":
            return True
    return False


def _creations(function: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "create"
            and _model_of(node.func.value, {}) == "Table"
        ):
            lines.append(node.lineno)
    return lines


def writes_past_the_door(root: Path = ROOT) -> list[str]:
    """`path:line function: Model.write` for every write to a table's rows past its door."""
    found = []
    for part in APPS:
        for path in sorted((root / part).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            in_wing = relative.parts[:2] == WING
            tree = ast.parse(path.read_text(), filename=str(path))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                found += _function_writes(relative, function, in_wing)
    return found


def _function_writes(
    relative: Path, function: ast.FunctionDef | ast.AsyncFunctionDef, in_wing: bool
) -> list[str]:
    kept: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            model = _model_of(node.value, {})
            if isinstance(target, ast.Name) and model is not None:
                kept[target.id] = model
    doors = _calls(function, "locked_room")
    creations = _creations(function)
    found = []
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in WRITES
        ):
            continue
        model = _model_of(node.func.value, kept)
        if model is None:
            continue
        line = node.lineno
        through_the_door = in_wing and (
            _given_the_room(function)
            or any(door < line for door in doors)
            or any(created <= line for created in creations)
        )
        if not through_the_door:
            found.append(f"{relative}:{line} {function.name}: {model}.{node.func.attr}")
    return found


def test_every_write_to_a_tables_rows_goes_through_its_door():
    assert writes_past_the_door() == []


# --- Each rule finds a planted breach ------------------------------------------------------


def plant(root: Path, files: dict[str, str]) -> Path:
    for part in APPS:
        (root / part).mkdir(exist_ok=True)
    for where, source in files.items():
        path = root / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return root


# The sweeper's lease as it was: an UPDATE of the games' rows outside any table's lock.
OLD_LEASE = """
def claim_due_games(*, now):
    due = list(due_games(now=now).values_list("pk", "deadline_count"))
    Game.objects.filter(pk__in=[pk for pk, _ in due]).update(deadline_claimed_until=now)
    return due
"""
# A seat's address as it was written: a kept queryset, with no lock.
OLD_ADDRESS = """
def table_socket_open(*, table_id, user, ip_address):
    seats = TableSeat.objects.filter(table_id=table_id, user=user)
    seats.exclude(ip_address=ip_address).update(ip_address=ip_address)
"""
# "Play now" as it was: the new table written past its room, before the lock.
OLD_MATCHMAKING = """
def play_now(*, user, table):
    Table.objects.filter(pk=table.pk).update(matchmaking=True)
    room = locked_room(table.pk)
    return room
"""
THROUGH_THE_DOOR = """
def given(room: Room) -> None:
    TableSeat.objects.filter(table=room.table).delete()


def taken(table_id):
    room = locked_room(table_id)
    Game.objects.filter(table_id=table_id).delete()


def created(master):
    table = Table.objects.create(master=master)
    TableSeat.objects.create(table=table, seat=0, user=master)


def elsewhere():
    ChatMessage.objects.filter(pk=1).delete()  # not a row of the room
"""


def test_the_check_finds_the_old_side_doors(tmp_path):
    root = plant(
        tmp_path,
        {
            "games/timers.py": OLD_LEASE,
            "games/table/presence.py": OLD_ADDRESS,
            "games/table/matchmaking.py": OLD_MATCHMAKING,
        },
    )
    assert writes_past_the_door(root) == [
        "games/table/matchmaking.py:3 play_now: Table.update",
        "games/table/presence.py:4 table_socket_open: TableSeat.update",
        "games/timers.py:4 claim_due_games: Game.update",
    ]


def test_the_check_lets_the_door_and_the_creations_through(tmp_path):
    root = plant(tmp_path, {"games/table/seating.py": THROUGH_THE_DOOR})
    assert writes_past_the_door(root) == []
    # The same functions outside the wing are side doors, whatever they are given.
    root = plant(tmp_path, {"games/arenas/services.py": THROUGH_THE_DOOR})
    assert writes_past_the_door(root) == [
        "games/arenas/services.py:3 given: TableSeat.delete",
        "games/arenas/services.py:8 taken: Game.delete",
        "games/arenas/services.py:12 created: Table.create",
        "games/arenas/services.py:13 created: TableSeat.create",
    ]
