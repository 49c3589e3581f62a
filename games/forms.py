"""Forms of the lobby and the table page. They turn HTML fields into Python values; the rules
of RULES.md §10 (what a variant allows, a stake only at a competitive table, enough chips) are
checked by the services, and a form shows their refusal next to the field it names."""

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games import selectors
from games.bots import bot_names
from games.engine.options import PLAYERS_ALLOWED
from games.models import Report, Variant
from games.options import DEFAULT_OPTIONS, OPTION, OPTIONS, Kind, TableOption, variant_players
from games.table.options import clean_table_options, option_applies
from games.table.practice import DEFAULT_LEVEL, level_choices
from games.table.refusals import TableError
from tute_site.typography import labelled

# Options a page may leave out, which then take their default: the robots came after the
# first pages and tools that post options.
LEFT_OUT_TAKES_DEFAULT = ("robot_level",)


def option_field(option: TableOption) -> forms.Field:
    """The form field of a declared option: its label, default, range or choices, and help
    (the form's own, else what the option means, so that the form says where it applies)."""
    common: dict[str, Any] = {
        "label": option.label,
        "initial": option.default,
        "help_text": option.help_text or option.meaning or "",
    }
    if option.kind is Kind.SWITCH:
        return forms.BooleanField(required=False, **common)
    if option.kind is Kind.NUMBER and option.listed:
        numbers = range(option.minimum, option.maximum + 1)
        return forms.TypedChoiceField(choices=[(n, str(n)) for n in numbers], coerce=int, **common)
    if option.kind is Kind.NUMBER:
        return forms.IntegerField(min_value=option.minimum, max_value=option.maximum, **common)
    return forms.ChoiceField(
        # Read when the form is built: a new robot in the registry is offered at once.
        choices=lambda: [(code, option.value_label(code)) for code in option.codes()],
        required=option.name not in LEFT_OUT_TAKES_DEFAULT,
        **common,
    )


class LevelField(forms.ChoiceField):
    """The robots' level: the four levels a player understands are offered, each with how it
    plays; any name of the robot registry is still accepted (older pages, the tools)."""

    def valid_value(self, value: Any) -> bool:
        return value in bot_names()


# The registry's robots that are a level under another name, as the form shows them.
SAME_AS_LEVEL = {"heuristic": "medium", "strong": "hard"}


def level_field(current: Any) -> LevelField:
    option = OPTION["robot_level"]
    current = SAME_AS_LEVEL.get(current, current) or DEFAULT_LEVEL
    choices = level_choices(lines=False)
    if current not in dict(choices):
        choices.append((current, option.value_label(current)))
    return LevelField(label=option.label, choices=choices, initial=current, required=False)


class TableOptionsForm(forms.Form):
    """Every declared option (games/options.py), for creating a table and for the
    master changing it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update((option.name, option_field(option)) for option in OPTIONS)
        self.fields["robot_level"] = level_field(self.initial.get("robot_level"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        for name in LEFT_OUT_TAKES_DEFAULT:
            data[name] = data.get(name) or DEFAULT_OPTIONS[name]
        # A field that does not apply to the game chosen (hidden by the page's script, shown
        # without it) is not the player's choice: the table takes it at rest.
        chosen = {
            name: value
            for name, value in data.items()
            if option_applies(name, variant=data["variant"], players=data["players"])
        }
        try:
            return clean_table_options(data=chosen, current=DEFAULT_OPTIONS)
        except TableError as error:
            self.add_service_error(error)
        return data

    def add_service_error(self, error: TableError) -> None:
        """Show a service's refusal next to the field it names (or above the form)."""
        self.add_error(error.field if error.field in self.fields else None, str(error.message))

    def add_error(self, field: str | None, error: Any) -> None:
        """A refused form comes back with the page opened at its first error: that field
        takes the focus (a browser scrolls to it), not the top of a long page; for an error
        above the form, its first field does."""
        super().add_error(field, error)
        first = next((name for name in self.fields if name in self.errors), next(iter(self.fields)))
        for name, form_field in self.fields.items():
            form_field.widget.attrs.pop("autofocus", None)
            if name == first:
                form_field.widget.attrs["autofocus"] = True


# The practice form: these first, the rest folded away with their defaults.
PRACTICE_FIRST = ("variant", "players", "pairs")
# Folded: the other rules of the game, and the time per move.
PRACTICE_FOLDED = (
    *(o.name for o in OPTIONS if o.rule and o.name not in PRACTICE_FIRST),
    "move_time",
)


class PracticeForm(forms.Form):
    """Practice against robots in three choices: the game (and for tute how many play and
    whether in pairs), the robots' level, play. The other rule options fold away with their
    defaults; nothing is at stake."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "practice_%s")
        super().__init__(*args, **kwargs)
        for name in PRACTICE_FIRST:
            self.fields[name] = option_field(OPTION[name])
            self.fields[name].help_text = ""  # three choices, on a phone: no lines between
        self.fields["robot_level"] = forms.ChoiceField(
            label=_("Robots' level"),
            choices=level_choices,
            initial=DEFAULT_LEVEL,
            widget=forms.RadioSelect,
        )
        for name in PRACTICE_FOLDED:
            self.fields[name] = option_field(OPTION[name])
            self.fields[name].required = False

    def first_fields(self) -> list:
        return [self[name] for name in (*PRACTICE_FIRST, "robot_level")]

    def folded_fields(self) -> list:
        return [self[name] for name in PRACTICE_FOLDED]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        variant = data["variant"]
        # What the variant is played by: habanero by two, whatever the players field says.
        if data["players"] not in PLAYERS_ALLOWED[variant]:
            data["players"] = variant_players(variant)
        for name in PRACTICE_FOLDED:
            if data.get(name) in (None, ""):
                data[name] = DEFAULT_OPTIONS[name]
        return data


# "50 chips", in the language of the page that shows it.
_chips = lazy(lambda n: ngettext("%(n)s chip", "%(n)s chips", n) % {"n": n}, str)

# The stakes "Play now" offers: none, or a few sizes.
PLAY_NOW_STAKES = (0, 10, 50, 100)


class PlayNowForm(forms.Form):
    """ "Play now": a variant and a stake (or none)."""

    variant = option_field(OPTION["variant"])
    stake = forms.TypedChoiceField(
        label=pgettext_lazy("table option", "Stake"),
        choices=[(n, _("No stake") if not n else _chips(n)) for n in PLAY_NOW_STAKES],
        coerce=int,
        initial=0,
    )
    robots = forms.BooleanField(
        label=_("Robots for the empty seats if nobody comes within a minute"),
        # Robots play practice games only (RULES.md §11): said before the player chooses.
        help_text=_(
            "With robots the game becomes practice: no stake, chips, XP or rating. Without "
            "them it waits for people and stays competitive."
        ),
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "play_now_%s")
        super().__init__(*args, **kwargs)
        self.fields["variant"].help_text = ""


ANY = [("", _("Any"))]


class LobbyFilterForm(forms.Form):
    """The lobby's filters, read from the query string: an empty field filters nothing."""

    variant = forms.ChoiceField(
        label=_("Variant"), choices=[*ANY, *Variant.choices], required=False
    )
    free = forms.TypedChoiceField(
        label=_("Free seats"),
        choices=[*ANY, (1, _("At least 1")), (2, _("At least 2")), (3, _("At least 3"))],
        coerce=int,
        empty_value=None,
        required=False,
    )
    max_stake = forms.TypedChoiceField(
        label=_("Stake"),
        choices=[
            *ANY,
            (0, _("No stake")),
            (50, _("Up to 50 chips")),
            (100, _("Up to 100 chips")),
            (500, _("Up to 500 chips")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
    )

    def tables(self, user: Any = None) -> list[dict[str, Any]]:
        """The lobby rows (docs/protocol.md's table summaries) `user` sees that pass the
        filters; an invalid filter is ignored rather than refused."""
        data = self.cleaned_data if self.is_valid() else {}
        free = data.get("free")
        rows = selectors.lobby_tables(
            user=user,
            variant=data.get("variant") or None,
            free_seats=bool(free),
            max_stake=data.get("max_stake"),
        )
        return [row for row in rows if row["free_seats"] >= free] if free else rows


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Invite a player"), max_length=150)


class ReportForm(forms.Form):
    """A player's report: a message of the table's chat or one of its players, a reason from
    the list and a note. The choices are the table's (`reports.table_people`, its chat)."""

    message = forms.TypedChoiceField(
        label=_("The message"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )
    player = forms.ChoiceField(label=_("Or the player"), required=False)
    reason = forms.ChoiceField(
        label=_("Why"), choices=Report.Reason.choices, widget=forms.RadioSelect
    )
    note = forms.CharField(
        label=_("A note for the moderators (optional)"),
        required=False,
        max_length=Report.NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, messages, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["message"].choices = [
            ("", _("No message: I am reporting a player, chosen below"))
        ] + [(m.pk, labelled(m.user.username, m.text)) for m in messages]
        self.fields["player"].choices = [("", "–")] + [(p.username, p.username) for p in people]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and data.get("message") is None and not data.get("player"):
            raise forms.ValidationError(_("Choose a message or a player to report."))
        return data
