"""How much XP a competitive game gives (RULES.md §12). Pure: no Django, no database.

>>> xp_for_game(players=2, pairs=False, deals_to_win=1, won=True)
20
>>> xp_for_game(players=4, pairs=True, deals_to_win=1, won=True)
20
>>> xp_for_game(players=3, pairs=False, deals_to_win=3, won=True)
50
>>> xp_for_game(players=4, pairs=True, deals_to_win=2, won=False)
5
"""

XP_PER_PLAYER = 10
XP_PER_EXTRA_DEAL = 10
XP_FOR_LOSER = 5


def xp_for_game(players: int, pairs: bool, deals_to_win: int, won: bool) -> int:
    """The XP one player earns from a finished competitive game.

    The winner gets 10 × the number of players; in pairs the two winners split it, 20 each.
    Each deal to win beyond the first (`rounds`, or `points_to_win` in Habanero) adds 10 to
    each winner: the split applies to the base only. Each loser gets 5.
    """
    if players not in (2, 3, 4):
        raise ValueError(f"a game has 2 to 4 players, not {players}")
    if pairs and players != 4:
        raise ValueError("only 4-player games are played in pairs")
    if deals_to_win < 1:
        raise ValueError(f"a game needs at least one deal to win, not {deals_to_win}")
    if not won:
        return XP_FOR_LOSER
    base = XP_PER_PLAYER * players
    if pairs:
        base //= 2
    return base + XP_PER_EXTRA_DEAL * (deals_to_win - 1)
