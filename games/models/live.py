"""Who is connected where: the daphne processes while they beat, and the sockets they hold."""

from django.conf import settings
from django.db import models

from games.models.table import Table


class ServerProcess(models.Model):
    """A running daphne process, alive while it beats: the sockets of one that stopped
    beating (killed) are swept away, and their players counted as gone."""

    id = models.UUIDField(primary_key=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"daphne {self.pk}"


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
