"""Who is connected where: the daphne processes while they beat, and the sockets they hold."""

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.game import Game
from games.models.table import Table


class ServerProcess(models.Model):
    """A running daphne process, alive while it beats: the sockets of one that stopped
    beating (killed) are swept away, and their players counted as gone."""

    id = models.UUIDField(primary_key=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"daphne {self.pk}"


class TimerClaim(models.Model):
    """A sweeper's lease on a game's move timer (games/timers.py): the sweeper that handed
    the timer due `at` to a worker, until `until`; no other sweep hands that timer out
    again before then (if that worker dies, it fires again after). A timer set anew has
    another due time, and is not held by its predecessor's lease. Its own
    row, not the game's: the game's rows change only under its table's lock, each change
    pushed with the table's version (games/table/room.py), and a lease is neither."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="timer_claim"
    )
    at = models.DateTimeField()
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"timer of game {self.game_id} due {self.at}, claimed until {self.until}"


class TableSocket(models.Model):
    """One open table socket of a logged-in user, in whichever process holds it: a player
    with none left at a running game is away."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.ForeignKey(ServerProcess, on_delete=models.CASCADE, related_name="sockets")
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"


class UserSocket(models.Model):
    """One open site socket (`/ws/me/`, on every page) of a logged-in player: they are
    online while they have one. Swept with its process when that stops beating."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.ForeignKey(
        ServerProcess, on_delete=models.CASCADE, related_name="user_sockets"
    )
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user"], name="games_usersocket_user")]

    def __str__(self) -> str:
        return f"{self.user} online"


def note_socket(model: type[models.Model], *, channel_name: str, process_id: Any, **fields) -> None:
    """A socket open in daphne process `process_id`, noted as a row of `model` (a table's, a
    player's own or an arena's socket) with `fields`; its process is noted the first time.
    Swept with its process when that stops beating."""
    ServerProcess.objects.get_or_create(id=process_id, defaults={"last_seen": timezone.now()})
    model.objects.update_or_create(
        channel_name=channel_name, defaults={**fields, "process_id": process_id}
    )


def forget_socket(model: type[models.Model], *, channel_name: str) -> None:
    """A socket closed: its row of `model` goes."""
    model.objects.filter(pk=channel_name).delete()
