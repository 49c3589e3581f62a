"""Forms of the lobby and the table page. They turn HTML fields into Python values; the rules
of RULES.md §10 (what a variant allows, a stake only at a competitive table, enough chips) are
checked by the services, and a form shows their refusal next to the field it names."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import selectors
from games.bots import bot_names
from games.models import Report, StockPlay, Variant
from games.table.options import DEFAULT_OPTIONS, clean_table_options
from games.table.refusals import TableError


class TableOptionsForm(forms.Form):
    """Every §10 option, for creating a table and for the master changing it."""

    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices, initial="tute")
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=4,
        help_text=_("Habanero is for two; tute and pocha for two to four."),
    )
    pairs = forms.BooleanField(
        label=_("Play in pairs (4-player tute)"), required=False, initial=True
    )
    rounds = forms.IntegerField(label=_("Deals to win (tute)"), min_value=1, max_value=5, initial=1)
    points_to_win = forms.IntegerField(
        label=_("Points to win (habanero)"), min_value=1, max_value=5, initial=4
    )
    move_time = forms.IntegerField(
        label=_("Seconds per move"),
        min_value=0,
        max_value=300,
        initial=30,
        help_text=_("At 0 the server plays for a player whose turn it is."),
    )
    competitive = forms.BooleanField(
        label=_("Competitive (XP, rankings and chips)"),
        required=False,
        initial=True,
        help_text=_("Off: a practice table, nothing won or lost."),
    )
    stake = forms.IntegerField(
        label=_("Stake in chips"),
        min_value=0,
        initial=0,
        help_text=_("Each player puts it in the pot; competitive tables only."),
    )
    private = forms.BooleanField(
        label=_("Private (invited players and my friends only)"), required=False, initial=False
    )
    guests = forms.BooleanField(label=_("Guests may watch and chat"), required=False, initial=True)
    allow_tute = forms.BooleanField(label=_("Tute allowed"), required=False, initial=True)
    stock_play = forms.ChoiceField(
        label=_("Play while the stock lasts (2-player tute)"),
        choices=StockPlay.choices,
        initial="free",
    )
    robot_level = forms.ChoiceField(
        label=_("Robots"),
        # The robot registry's names, read when the form is built: new robots appear alone.
        choices=lambda: [(name, name) for name in bot_names()],
        initial="heuristic",
        # Left out (an older page or a tool): the default robot.
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        data["robot_level"] = data.get("robot_level") or DEFAULT_OPTIONS["robot_level"]
        try:
            return clean_table_options(data=data, current=DEFAULT_OPTIONS)
        except TableError as error:
            self.add_service_error(error)
        return data

    def add_service_error(self, error: TableError) -> None:
        """Show a service's refusal next to the field it names (or above the form)."""
        self.add_error(error.field if error.field in self.fields else None, str(error.message))


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

    def tables(self) -> list[dict[str, Any]]:
        """The lobby rows (docs/protocol.md's table summaries) that pass the filters; an
        invalid filter is ignored rather than refused."""
        data = self.cleaned_data if self.is_valid() else {}
        free = data.get("free")
        rows = selectors.lobby_tables(
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
        self.fields["message"].choices = [("", _("None: I report a player"))] + [
            (m.pk, f"{m.user.username}: {m.text}") for m in messages
        ]
        self.fields["player"].choices = [("", "–")] + [(p.username, p.username) for p in people]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and data.get("message") is None and not data.get("player"):
            raise forms.ValidationError(_("Choose a message or a player to report."))
        return data
