"""The table form: Django fields for RULES.md §10's options; the rules are the services'."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bots import bot_names
from games.models import StockPlay, Variant
from games.services import DEFAULT_OPTIONS, TableError, clean_table_options


class TableOptionsForm(forms.Form):
    """Every §10 option. `clean()` asks `clean_table_options` and puts its error next to the
    field it names; the chips check happens in the service that creates or changes the table."""

    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices, initial="tute")
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=4
    )
    pairs = forms.BooleanField(label=_("Pairs (4-player tute)"), required=False, initial=True)
    rounds = forms.IntegerField(label=_("Deals to win (tute)"), min_value=1, max_value=5, initial=1)
    points_to_win = forms.IntegerField(
        label=_("Points to win (habanero)"), min_value=1, max_value=5, initial=4
    )
    move_time = forms.IntegerField(
        label=_("Seconds per move"), min_value=0, max_value=300, initial=30
    )
    competitive = forms.BooleanField(label=_("Competitive"), required=False, initial=True)
    stake = forms.IntegerField(label=_("Stake"), min_value=0, initial=0)
    private = forms.BooleanField(label=_("Private"), required=False, initial=False)
    guests = forms.BooleanField(label=_("Guests may watch"), required=False, initial=True)
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
            self.add_error(error.field if error.field in self.fields else None, str(error.message))
        return data

    def add_service_error(self, error: TableError) -> None:
        """Show a service's refusal next to the field it names (or above the form)."""
        self.add_error(error.field if error.field in self.fields else None, str(error.message))
