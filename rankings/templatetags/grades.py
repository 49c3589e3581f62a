from django import template
from django.utils.safestring import SafeString

from rankings.grades import Grade, grade_for_xp
from rankings.svg import grade_badge_svg

register = template.Library()


@register.simple_tag
def grade_badge(grade_or_xp: Grade | int, size: int = 48) -> SafeString:
    """`{% grade_badge player.xp %}` or `{% grade_badge standing.grade size=24 %}`."""
    grade = grade_or_xp if isinstance(grade_or_xp, Grade) else grade_for_xp(int(grade_or_xp or 0))
    return grade_badge_svg(grade, size=size)
