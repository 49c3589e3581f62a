"""The table options (RULES.md §10), declared once.

`OPTIONS` lists every option a table has, in the order players see them: its name, its kind
(a switch, a number from a minimum to a maximum, or a choice among codes), its default, whether
it is a rule of the game (passed to the engine's `Options`), and what players read: its label,
the labels of its values, a help text for the form and the meaning the rules pages give it.

The service's check (games/table/options.py), the defaults of a new table, the Table model's
fields, the table form, the lobby and the rules pages all read this declaration. It sits
below the models and the live-play wing: both read it, it reads neither. What the
engine already decides (the variants, who plays them, the rule options' defaults and ranges)
is read from the engine, never retyped here.

>>> [o.name for o in OPTIONS if o.rule]
['variant', 'players', 'pairs', 'rounds', 'points_to_win', 'allow_tute', 'stock_play']
>>> DEFAULT_OPTIONS["players"], DEFAULT_OPTIONS["move_time"], OPTION["rounds"].maximum
(4, 30, 5)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.bots import bot_names
from games.engine.options import (
    DEFAULT_PLAYERS,
    PLAYERS_ALLOWED,
    RANGES,
    RULE_OPTIONS,
    STOCK_PLAY,
    VARIANT_NAMES,
    VARIANTS,
    Options,
)


class Kind(StrEnum):
    """What values an option takes, which decides how it is checked and shown."""

    SWITCH = "bool"  # on or off
    NUMBER = "int"  # a whole number from `minimum` to `maximum`
    CHOICE = "choice"  # one of `codes()`


@dataclass(frozen=True, slots=True)
class TableOption:
    """One table option: what it takes, its default, and what players read about it."""

    name: str
    kind: Kind
    default: bool | int | str
    label: Promise
    # The refusal of a value out of range; it may say %(min)s, %(max)s, %(names)s and
    # %(either)s (the codes a choice takes: "a, b, c" and "a, b or c") and, for players,
    # %(allowed)s (what the variant allows).
    refusal: Promise
    minimum: int = 0
    maximum: int = 0
    # A choice's codes, or a function giving them when asked (the robot registry may grow).
    choices: Sequence[str] | Callable[[], Sequence[str]] = ()
    # What players read for a code of a choice; a code without a label reads as itself.
    value_labels: Mapping[str, str | Promise] = field(default_factory=dict)
    listed: bool = False  # a number the form offers as a list of its few values
    help_text: Promise | str = ""  # under the field on the table form
    # What the rules pages' table of options says it does (None: the pages leave it out)
    # and, when a range would not do, how they word its values.
    meaning: Promise | None = None
    values_text: Promise | None = None

    @property
    def rule(self) -> bool:
        """Whether it is a rule of the game, passed to the engine's Options."""
        return self.name in RULE_NAMES

    def codes(self) -> tuple[str, ...]:
        """The codes a choice takes, read now."""
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def value_label(self, value: object) -> str | Promise:
        """What players read for `value`: on/off for a switch, a choice's label, a number."""
        if isinstance(value, bool):
            return _("on") if value else _("off")
        return self.value_labels.get(str(value), str(value))

    def accepts(self, value: object) -> bool:
        """Whether `value` is of the option's kind and in its range (§10)."""
        if self.kind is Kind.SWITCH:
            return isinstance(value, bool)
        if self.kind is Kind.NUMBER:
            return _is_int(value) and self.minimum <= value <= self.maximum
        return isinstance(value, str) and value in self.codes()


# The engine's defaults for the rule options: a table starts as the engine's default game.
_GAME = Options()
YES_OR_NO = _("Choose yes or no.")
NUMBER_FROM_TO = _("Choose a number from %(min)s to %(max)s.")
# The options passed to the engine's Options: the variant and the engine's rule options.
RULE_NAMES: tuple[str, ...] = ("variant", *RULE_OPTIONS)

OPTIONS: tuple[TableOption, ...] = (
    TableOption(
        name="variant",
        kind=Kind.CHOICE,
        default=_GAME.variant,
        label=pgettext_lazy("table option", "Game"),
        refusal=_("Choose %(either)s."),
        choices=VARIANTS,
        value_labels=VARIANT_NAMES,
        meaning=_("The game played at the table."),
    ),
    TableOption(
        name="players",
        kind=Kind.NUMBER,
        default=_GAME.players,
        label=pgettext_lazy("table option", "Players"),
        refusal=_("This variant is played by %(allowed)s players."),
        minimum=min(min(allowed) for allowed in PLAYERS_ALLOWED.values()),
        maximum=max(max(allowed) for allowed in PLAYERS_ALLOWED.values()),
        listed=True,
        help_text=_("Habanero is for two; tute and pocha for two to four."),
        meaning=_("How many seats the table has."),
        values_text=_("2, 3 or 4, as the game allows"),
    ),
    TableOption(
        name="pairs",
        kind=Kind.SWITCH,
        default=_GAME.pairs,
        label=pgettext_lazy("table option", "In pairs"),
        refusal=YES_OR_NO,
        meaning=_("Four-player Tute in two pairs, partners face to face."),
    ),
    TableOption(
        name="rounds",
        kind=Kind.NUMBER,
        default=_GAME.rounds,
        label=pgettext_lazy("table option", "Deals to win"),
        refusal=NUMBER_FROM_TO,
        minimum=RANGES["rounds"][0],
        maximum=RANGES["rounds"][1],
        meaning=_("Deals to win a game of Tute."),
    ),
    TableOption(
        name="points_to_win",
        kind=Kind.NUMBER,
        default=_GAME.points_to_win,
        label=pgettext_lazy("table option", "Points to win"),
        refusal=NUMBER_FROM_TO,
        minimum=RANGES["points_to_win"][0],
        maximum=RANGES["points_to_win"][1],
        meaning=_("Deals (points) to win a game of Habanero."),
    ),
    TableOption(
        name="move_time",
        kind=Kind.NUMBER,
        default=30,
        label=pgettext_lazy("table option", "Time per move"),
        refusal=_("Choose a number of seconds from 0 to %(max)s."),
        minimum=0,
        maximum=300,
        help_text=_(
            "Seconds to play each turn. At 0 the game plays itself: a robot plays every "
            "player's turn for them about a second after it comes."
        ),
        meaning=_("Seconds for each move; when they run out the server plays for you."),
        values_text=_("seconds"),
    ),
    TableOption(
        name="competitive",
        kind=Kind.SWITCH,
        default=True,
        label=pgettext_lazy("table option", "Competitive"),
        refusal=YES_OR_NO,
        help_text=_("Off: a practice table, nothing won or lost."),
        meaning=_(
            "Play for XP, ranking and chips. Off, the game is practice: nothing is won or lost."
        ),
    ),
    TableOption(
        name="stake",
        kind=Kind.NUMBER,
        default=0,
        label=pgettext_lazy("table option", "Stake"),
        refusal=_("A stake is a number of chips from 0 to %(max)s."),
        minimum=0,
        maximum=1_000_000,
        help_text=_("Each player puts it in the pot; competitive tables only."),
        meaning=_("Chips each player puts in the pot (competitive games only)."),
        values_text=_("chips"),
    ),
    TableOption(
        name="private",
        kind=Kind.SWITCH,
        default=False,
        label=pgettext_lazy("table option", "Private table"),
        refusal=YES_OR_NO,
        meaning=_("Only invited players and the master's friends may sit."),
    ),
    TableOption(
        name="guests",
        kind=Kind.SWITCH,
        default=True,
        label=pgettext_lazy("table option", "Spectators"),
        refusal=YES_OR_NO,
        meaning=_(
            "Anyone may watch the game, even without an account; those logged in may also chat."
        ),
    ),
    TableOption(
        name="allow_tute",
        kind=Kind.SWITCH,
        default=_GAME.allow_tute,
        label=pgettext_lazy("table option", "Tute allowed"),
        refusal=YES_OR_NO,
        meaning=_("Whether a tute may be announced."),
    ),
    TableOption(
        name="stock_play",
        kind=Kind.CHOICE,
        default=_GAME.stock_play,
        label=pgettext_lazy("table option", "Play while the stock lasts"),
        refusal=_("Choose %(either)s."),
        choices=STOCK_PLAY,
        value_labels={
            "free": pgettext_lazy("table option", "Free play"),
            "follow_trump": pgettext_lazy("table option", "Trump on a trump lead"),
            "strict": pgettext_lazy("table option", "All duties"),
        },
        meaning=_("How strictly to answer while the stock lasts (two-player Tute)."),
    ),
    TableOption(
        name="robot_level",
        kind=Kind.CHOICE,
        # The heuristic robot, as players read it (games/table/practice.py's levels).
        default="medium",
        label=_("Robots"),
        refusal=_("Choose a robot among: %(names)s."),
        # The robot registry's names, read when asked: a new robot is offered at once.
        choices=bot_names,
    ),
)

OPTION: Mapping[str, TableOption] = MappingProxyType({o.name: o for o in OPTIONS})
TABLE_OPTIONS: tuple[str, ...] = tuple(OPTION)
DEFAULT_OPTIONS: Mapping[str, Any] = MappingProxyType({o.name: o.default for o in OPTIONS})
MAX_MOVE_TIME = OPTION["move_time"].maximum
MAX_STAKE = OPTION["stake"].maximum


def option_label(code: str) -> Promise:
    """The name players read for the table option `code`; an unknown code is an error."""
    return OPTION[code].label


def option_value_label(code: str, value: object) -> str | Promise:
    """The name players read for a setting of option `code`: on/off for a switch."""
    return OPTION[code].value_label(value)


def variant_players(variant: str) -> int:
    """How many play `variant` when nobody says (§10: 4, but 2 for habanero), by the engine."""
    return DEFAULT_PLAYERS[variant]


def options_at_rest(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` (a table's, an arena's or a record's options, with at least the rule
    options and the variant) with each rule option that does not apply to their game at
    rest: no 2-player or habanero game says "in pairs" (the engine's `Options.normalised`).
    Every maker of a table, an arena or a record goes through here; raises the engine's
    OptionError for options that make no game.

    >>> rest = options_at_rest({**DEFAULT_OPTIONS, "players": 2, "pairs": True})
    >>> rest["players"], rest["pairs"], rest["move_time"]
    (2, False, 30)
    """
    game = Options.from_dict({name: values[name] for name in RULE_NAMES})
    return {**values, **game.normalised().to_dict()}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def declared_field(name: str) -> dict[str, Any]:
    """A model field's verbose name, default and choices (a choice of fixed codes), as this
    declaration gives them: the Table's and the arena's option fields read it."""
    option = OPTION[name]
    kwargs: dict[str, Any] = {"verbose_name": option.label, "default": option.default}
    if option.kind is Kind.CHOICE and not callable(option.choices):
        kwargs["choices"] = [(code, option.value_label(code)) for code in option.codes()]
    return kwargs
