"""The moderators' admin for tables, games, chat and players' reports.

Moderators see tables and games (read only), close a table (an action calling
`table_close`), read a table's chat, and mute a message's author (an action calling
`accounts.services.user_mute`, with the same form as on a player). Players' reports wait in
a queue; each is read with the chat around it and its game, and decided on its own page
(`games.reports.report_decide`).

A module by concern: tables, games and chat (tables.py), players' reports (reports.py) and
the search by number both lists share (search.py); importing this package registers them.
"""

from games.admin import reports, tables

__all__ = ["reports", "tables"]
