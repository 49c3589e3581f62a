"""``{% labelled label value %}``: a label and its value joined as the reader's language
writes them (tute_site/typography.py), both escaped."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tute_site.typography import labelled as joined

register = template.Library()


@register.simple_tag
def labelled(label: object, value: object) -> SafeString:
    """The label, the language's colon and the value."""
    return mark_safe(joined(conditional_escape(label), conditional_escape(value)))
