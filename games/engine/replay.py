"""The replay command (NOTATION.md): a record in, one JSON document out.

``python -m games.engine replay RECORD.json`` exits 0 with the steps, deal summaries, next
legal actions and game result; 1 at the first illegal action; 2 for an invalid record.
"""

from __future__ import annotations

import json
from typing import Any

from .actions import Action, IllegalAction
from .deal import InvalidRecord
from .record import parse_record, start_listed_deal
from .state import GameState


def legal_json(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """Legal actions of every seat that has some, keyed by seat as a string."""
    return {str(seat): [a.to_dict() for a in acts] for seat, acts in state.legal_actions().items()}


def game_json(state: GameState) -> dict[str, Any]:
    return {"over": state.over, "winner": state.winner, "score": list(state.score)}


def replay(data: Any) -> tuple[int, dict[str, Any]]:
    """Replay a parsed record; returns (exit status, output document)."""
    try:
        options, deals = parse_record(data)
    except InvalidRecord as exc:
        return 2, {"error": {"reason": str(exc)}}
    state = GameState(options)
    steps: list[dict[str, Any]] = []
    index = 0
    for k, (deal, actions) in enumerate(deals):
        try:
            start_listed_deal(state, k, deal)
        except InvalidRecord as exc:
            return 2, {"error": {"reason": str(exc)}}
        for action in actions:
            legal = legal_json(state)
            try:
                state.apply(action)
            except IllegalAction as exc:
                error = {"index": index, "action": action.to_dict(), "reason": str(exc)}
                return 1, {"steps": steps, "error": error}
            steps.append({"legal": legal, "action": action.to_dict()})
            index += 1
    return 0, {
        "steps": steps,
        "deals": state.deal_summaries(),
        "next": {"legal": legal_json(state)},
        "game": game_json(state),
    }


def replay_text(text: str) -> tuple[int, str]:
    """Replay a record given as JSON text; returns (exit status, JSON output line)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        status, out = 2, {"error": {"reason": f"The record is not valid JSON: {exc}."}}
    else:
        status, out = replay(data)
    return status, json.dumps(out)


def replay_file(path: str) -> tuple[int, str]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        return 2, json.dumps({"error": {"reason": f"Cannot read the record: {exc}."}})
    return replay_text(text)


__all__ = ["Action", "legal_json", "replay", "replay_file", "replay_text"]
