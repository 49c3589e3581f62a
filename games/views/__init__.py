"""The pages of games: a finished game's (game_pages), the lobby's and a table's (tables),
and the table page's words (table_strings). The finding pages are games/finding.py, the
players' profiles games/profiles.py."""
