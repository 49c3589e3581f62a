"""Table options that change the rules (RULES.md §10) and the rules they imply.

:class:`Options` is what a table sets; :class:`Rules` is the variant as data, derived once
from the options, so the state code asks ``rules.has_stock`` rather than testing variant names.

>>> o = Options.from_dict({"variant": "habanero"})
>>> o.players, o.rules.has_stock, o.rules.stock_play
(2, True, 'follow_trump')
>>> Options.from_dict({"players": 3}).rules.hand_size
12
>>> Options.from_dict({"rounds": 9})
Traceback (most recent call last):
...
games.engine.options.OptionError: Option rounds must be an integer from 1 to 5, not 9.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .rulebook import LAST_TRICK_BONUS

# The games the engine plays (§3), in the order players see them, with their names: proper
# names, the same in every language. Every list of variants (models, forms, rankings) reads this.
VARIANT_NAMES = {"tute": "Tute", "habanero": "Habanero", "pocha": "Pocha"}
VARIANTS = tuple(VARIANT_NAMES)
# How a deal is won (§8, §9): most points, over 100 (habanero), or by bids (pocha).
MOST_POINTS, OVER, BIDS = "most_points", "over", "bids"
STOCK_PLAY = ("free", "follow_trump", "strict")
PLAYERS_ALLOWED = {"tute": (2, 3, 4), "habanero": (2,), "pocha": (2, 3, 4)}
# How many play when nobody says (§10).
DEFAULT_PLAYERS = {"tute": 4, "habanero": 2, "pocha": 4}
# The options that change the rules (§10), besides the variant: every list of them reads this.
RULE_OPTIONS = ("players", "pairs", "rounds", "points_to_win", "allow_tute", "stock_play")
# The numbered rule options and their ranges (§10): deals (tute) or points (habanero) to win.
RANGES = {"rounds": (1, 5), "points_to_win": (1, 5)}


class OptionError(ValueError):
    """An option of the wrong type or out of range."""


def options_that_apply(variant: str, players: int) -> tuple[str, ...]:
    """The rule options that change a game of `variant` at `players` (§10), in the order of
    ``RULE_OPTIONS``. The others change nothing there: the forms leave them out and a table
    stores them at rest (:meth:`Options.normalised`).

    >>> options_that_apply("tute", 4)
    ('players', 'pairs', 'rounds', 'allow_tute')
    >>> options_that_apply("tute", 2)
    ('players', 'rounds', 'allow_tute', 'stock_play')
    >>> options_that_apply("habanero", 2), options_that_apply("pocha", 3)
    (('points_to_win', 'allow_tute'), ('players',))
    """
    applies = {
        "players": len(PLAYERS_ALLOWED[variant]) > 1,  # habanero is for two
        "pairs": variant == "tute" and players == 4,
        "rounds": variant == "tute",
        "points_to_win": variant == "habanero",
        # Announced with the cantes: games of card points (§7), not pocha.
        "allow_tute": variant in ("tute", "habanero"),
        # Habanero always asks for a trump on a trump lead (§5); only two players have a stock.
        "stock_play": variant == "tute" and players == 2,
    }
    return tuple(name for name in RULE_OPTIONS if applies[name])


def pocha_ladder(players: int) -> tuple[int, ...]:
    """Hand sizes of a pocha game: 1..max..1, the peak once (§9).

    >>> len(pocha_ladder(4)), len(pocha_ladder(3)), pocha_ladder(2)[8:11]
    (19, 23, (9, 10, 9))
    """
    top = 12 if players == 3 else 10
    return tuple(range(1, top + 1)) + tuple(range(top - 1, 0, -1))


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the state needs to know about a variant, as plain data."""

    variant: str
    players: int
    pairs: bool  # 4-player tute in teams: seats 0&2 against 1&3
    has_stock: bool
    hand_size: int  # tute and habanero; pocha hand sizes come from ``ladder``
    stock_play: str  # how cards are played while a stock has cards
    cantes: bool
    cante_needs_stock: bool  # 2-player tute: sing only while the stock has cards
    allow_tute: bool
    last_trick_bonus: int  # points for the last trick (0: none)
    counts_card_points: bool  # tricks score their card points (tute, habanero)
    deal_scoring: str  # who wins a deal: MOST_POINTS, OVER (habanero) or BIDS (pocha)
    capote: bool  # habanero's capote decision after the 12th trick
    bids: bool  # players bid their tricks before the first card
    rounds: int  # deals to win (tute)
    points_to_win: int  # habanero
    deals_to_win: int  # deals a side must win to win the game (0: a fixed ladder, pocha)
    ladder: tuple[int, ...]  # pocha hand sizes, () otherwise
    applies: tuple[str, ...]  # the rule options that change this game (options_that_apply)

    @property
    def sides(self) -> int:
        return 2 if self.pairs else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat

    @property
    def deals_in_game(self) -> int | None:
        """Fixed number of deals (pocha), else None."""
        return len(self.ladder) if self.ladder else None


@dataclass(frozen=True, slots=True)
class Options:
    """The rule-changing table options, validated. Build with :meth:`from_dict`."""

    variant: str = "tute"
    players: int = 4
    pairs: bool = True
    rounds: int = 1
    points_to_win: int = 4
    allow_tute: bool = True
    stock_play: str = "free"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None = None, **more: Any) -> Options:
        """Validate options given as a mapping; absent keys take their defaults (§10).

        ``variant`` may be in the mapping. Unknown keys are ignored; an option that does
        not apply to the variant is still checked for type and range (NOTATION.md).
        """
        data = {**(data or {}), **more}
        variant = data.get("variant", "tute")
        if variant not in VARIANTS:
            *others, last = VARIANTS
            raise OptionError(
                f"Unknown variant {variant!r}; it must be {', '.join(others)} or {last}."
            )
        players = data.get("players", DEFAULT_PLAYERS[variant])
        if not _is_int(players) or players not in PLAYERS_ALLOWED[variant]:
            allowed = " or ".join(str(p) for p in PLAYERS_ALLOWED[variant])
            raise OptionError(f"Option players must be {allowed} for {variant}, not {players!r}.")
        values: dict[str, Any] = {"variant": variant, "players": players}
        for name in ("pairs", "allow_tute"):
            value = data.get(name, True)
            if not isinstance(value, bool):
                raise OptionError(f"Option {name} must be true or false, not {value!r}.")
            values[name] = value
        for name, default in (("rounds", 1), ("points_to_win", 4)):
            value = data.get(name, default)
            low, high = RANGES[name]
            if not _is_int(value) or not low <= value <= high:
                raise OptionError(
                    f"Option {name} must be an integer from {low} to {high}, not {value!r}."
                )
            values[name] = value
        stock_play = data.get("stock_play", "free")
        if stock_play not in STOCK_PLAY:
            *others, last = STOCK_PLAY
            raise OptionError(
                f"Option stock_play must be {', '.join(others)} or {last}, not {stock_play!r}."
            )
        values["stock_play"] = stock_play
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The rule options as JSON-safe data, as written in a record."""
        return {name: getattr(self, name) for name in RULE_OPTIONS}

    def normalised(self) -> Options:
        """The same game with each option that does not apply to it at rest: a switch off,
        any other at the variant's default. Two tables that play the same game store the
        same options, and none says "in pairs" where nobody plays in pairs.

        >>> game = Options.from_dict({"variant": "habanero", "pairs": True, "rounds": 3})
        >>> game.normalised().pairs, game.normalised().rounds, game.normalised().points_to_win
        (False, 1, 4)
        """
        applies = self.rules.applies
        rest = Options.from_dict({"variant": self.variant})
        values = {
            name: getattr(self, name)
            if name in applies
            else (False if isinstance(getattr(rest, name), bool) else getattr(rest, name))
            for name in RULE_OPTIONS
        }
        return Options(variant=self.variant, **values)

    @property
    def rules(self) -> Rules:
        return make_rules(self)

    @property
    def sides(self) -> int:
        return self.rules.sides


# A slotted frozen dataclass has no __dict__ for cached_property; memoise by value instead.
_RULES_CACHE: dict[Options, Rules] = {}


def make_rules(options: Options) -> Rules:
    """Derive the variant's rules from its options (§3–§9)."""
    cached = _RULES_CACHE.get(options)
    if cached is not None:
        return cached
    v, n = options.variant, options.players
    applies = options_that_apply(v, n)
    tute_like = v in ("tute", "habanero")
    has_stock = tute_like and n == 2
    rules = Rules(
        variant=v,
        players=n,
        pairs="pairs" in applies and options.pairs,
        has_stock=has_stock,
        hand_size={2: 8, 3: 12, 4: 10}[n],
        # Habanero always asks for a trump on a trump lead while the stock lasts (§5).
        stock_play="follow_trump" if v == "habanero" else options.stock_play,
        cantes=tute_like,
        cante_needs_stock=v == "tute" and has_stock,
        allow_tute="allow_tute" in applies and options.allow_tute,
        last_trick_bonus=LAST_TRICK_BONUS if tute_like else 0,
        counts_card_points=tute_like,
        deal_scoring={"tute": MOST_POINTS, "habanero": OVER, "pocha": BIDS}[v],
        capote=v == "habanero",
        bids=v == "pocha",
        rounds=options.rounds,
        points_to_win=options.points_to_win,
        deals_to_win={"tute": options.rounds, "habanero": options.points_to_win}.get(v, 0),
        ladder=pocha_ladder(n) if v == "pocha" else (),
        applies=applies,
    )
    _RULES_CACHE[options] = rules
    return rules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_options(options: Options | Mapping[str, Any] | None) -> Options:
    """Accept an :class:`Options` or a mapping of them."""
    return options if isinstance(options, Options) else Options.from_dict(options)
