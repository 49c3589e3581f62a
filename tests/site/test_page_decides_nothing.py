"""The table page decides no rule and no "may I": it reads the frame's `may` and the engine's
facts (docs/protocol.md). These are the shapes such decisions took before: who is master,
who sits, which variant, how many seats are free, whether robots alone play, who already
answered. The scan must find none in static/js/table/, and must find each planted one.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "static" / "js" / "table"

# Each pattern, with the decision it would be.
DECISIONS = {
    r"you\.master": "who may act as master (may.start, may.options, may.invite)",
    r"you\.can_chat": "who may chat (may.chat)",
    r"variant\s*[!=]==?": "which variant a rule applies to (the engine's facts)",
    r"free_seats\s*===\s*0": "whether the table may start or be sat at (may.start, may.sit)",
    r"\.every\(.*robot": "whether robots alone play (may.hint)",
    r"waiting\.includes\(": "who must still answer (may.cancel_answer, may.rematch_answer)",
    r"mySeat\(S\)\s*!==\s*null\s*&&": "what a seated player may do (may.*)",
    r"status\s*===\s*\"open\"\s*&&": "what may be done between games (may.*)",
    r"\.points\.some\(": "how a tie on points is settled (view.tie_break)",
    r"carry\s*!==\s*undefined": "what a deal carries (view.carries)",
}


def decisions_in(text: str) -> list[str]:
    return [why for pattern, why in DECISIONS.items() if re.search(pattern, text)]


def test_the_table_page_decides_nothing():
    found = {
        path.name: decisions_in(path.read_text(encoding="utf-8"))
        for path in sorted(PAGE.glob("*.js"))
    }
    assert len(found) > 15  # the page's modules are all read
    assert {name: why for name, why in found.items() if why} == {}


@pytest.mark.parametrize(
    "planted",
    [
        "const start = S.you.master && S.table.free_seats === 0;",
        "canChat: !!(S.you && S.you.can_chat),",
        'if (v.variant === "habanero") lines.push(x);',
        "const robotsOnly = S.table.seats.every((s) => s && s.robot);",
        "answer: !!(me && cancel.waiting.includes(me)),",
        "next: mySeat(S) !== null && v.needs_deal,",
        'again: S.table.status === "open" && over,',
        "const tied = v.points.some((p) => p === top);",
        "if (v.carry !== undefined) lines.push(x);",
    ],
)
def test_the_scan_finds_a_planted_decision(planted):
    assert decisions_in(planted)
