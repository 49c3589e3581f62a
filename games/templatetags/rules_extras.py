"""Template helpers of the rules pages: numbers read from code, card codes, names."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.options import option_label, option_value_label
from games.rules.numbers import rule_numbers
from games.templatetags.cards import OF_SUIT, RANK_NAMES, SUIT_LABELS

register = template.Library()


@register.simple_tag
def num(key: str) -> SafeString:
    """A number the rules state, from the code that applies it, marked for tests to read.

    An unknown key is an error, not an empty string: a page must not state a number that no
    code defines.
    """
    value = rule_numbers()[key]
    return format_html('<data class="num" value="{}" data-rule="{}">{}</data>', value, key, value)


@register.filter
def card_code(rank: int | str, suit: str) -> str:
    """``12|card_code:"O"`` gives ``"12O"``."""
    return f"{rank}{suit}"


@register.simple_tag
def rank_name(rank: int | str) -> str:
    return str(RANK_NAMES[int(rank)])


@register.filter
def suit_name(code: str) -> str:
    """The suit of a card or suit letter, by its Spanish name: ``"12O"|suit_name`` is oros."""
    return SUIT_LABELS[str(code)[-1]]


@register.simple_tag(takes_context=True)
def rules_url(context, slug: str, anchor: str = "") -> str:
    """The address of a rules page in the language shown: ``{% rules_url "tute" "cantes" %}``."""
    from games.rules.pages import PAGES_BY_SLUG

    url = f"{PAGES_BY_SLUG[slug].url}?lang={context['lang']}"
    return f"{url}#{anchor}" if anchor else url


@register.filter
def of_suit(code: str) -> str:
    """ "of oros" in the current language (French elides: "d’oros"), for a card or suit letter."""
    return str(OF_SUIT[str(code)[-1]])


@register.simple_tag
def option(code: str) -> SafeString:
    """A table option by the name players read on the table form, in the language shown."""
    return format_html('<em class="option" data-option="{}">{}</em>', code, option_label(code))


@register.simple_tag
def option_value(code: str, value: str) -> SafeString:
    """One setting of a table option by its name: ``{% option_value "stock_play" "free" %}``."""
    return format_html(
        '<em class="option" data-option="{}" data-value="{}">{}</em>',
        code,
        value,
        option_value_label(code, value),
    )
