"""The ledger and XP in the admin: read-only for everyone, superusers included.

Chips move only through the services (a moderator uses the "Adjust chips" action on
players); nothing here adds, edits or deletes an entry or a balance.

The player admin is accounts' one, extended here (accounts knows nothing of chips or XP):
grade and chips columns, the player's standing, ledger and XP on their page, and the
chips adjustment action.

A module by concern: the ledger and XP (ledger.py), the players (players.py) and the games'
awards (awards.py); importing this package registers them all.
"""

from rankings.admin import awards, ledger, players

__all__ = ["awards", "ledger", "players"]
