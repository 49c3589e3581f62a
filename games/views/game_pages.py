"""A finished game's pages: its replay, its record (NOTATION.md) and its awards."""

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from games.analysis import analysis_for_page, game_analysis_for
from games.arenas.scoring import game_arena_points
from games.models import Game
from games.replays import game_replay
from games.robot_names import robot_label, robot_name
from games.views.table_strings import TABLE_STRINGS, all_cards
from rankings import selectors as rankings_selectors
from rankings.services import BANK_CUT_PERCENT


def game_detail(request, pk: int):
    """A finished game: its players, result and a replay of every deal, hands revealed.
    Hidden (404) while the game runs, since the replay shows every hand."""
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    if game.status == Game.Status.PLAYING:
        raise Http404
    seats = list(game.seats.all())
    names = {s.seat: (s.user.username if s.user_id else str(robot_name(s.seat))) for s in seats}
    replay = game_replay(game=game) if game.record.get("deals") else None
    payout = payout_for_page(game.pk) if game.status == Game.Status.FINISHED else None
    paid = (payout or {}).get("seats", {})
    decisions = _decisions(game)
    rows = [
        {
            "seat": s,
            "name": s.user.username if s.user_id else robot_label(s.seat, s.robot),
            "paid": paid.get(s.seat),
            # A player's decisions and how many a robot made for them (away, timeouts).
            "decisions": decisions.get(s.seat, 0),
        }
        for s in seats
    ]
    on_cards = (game.result or {}).get("on_cards")
    # The replay is drawn from the viewer's own seat when they played in the game.
    viewer = next((s.seat for s in seats if s.user_id and s.user_id == request.user.pk), 0)
    context = {"game": game, "seats": rows, "replay": replay, "payout": payout}
    if on_cards is not None:
        ahead = on_cards if isinstance(on_cards, list) else [on_cards]
        sides = (replay or {}).get("sides") or list(range(len(seats)))
        context["ahead_on_cards"] = ", ".join(
            " & ".join(names[seat] for seat, side in enumerate(sides) if side == s) for s in ahead
        )
    if replay is not None:
        context.update(
            viewer_seat=viewer,
            names=[names.get(seat, "") for seat in range(replay["players"])],
            all_cards=all_cards(),
            strings=TABLE_STRINGS,
            deals=[_deal_for_page(deal, replay, names) for deal in replay["deals"]],
        )
        data = game_analysis_for(game=game)
        if data is not None:
            context["analysis"] = analysis_for_page(data, replay, context["names"])
    return render(request, "games/game_detail.html", context)


def _decisions(game: Game) -> dict[int, int]:
    """How many decisions each seat made in the finished game (its actions in the record)."""
    counts: dict[int, int] = {}
    for deal in game.record.get("deals", []):
        for action in deal.get("actions", []):
            counts[action["seat"]] = counts.get(action["seat"], 0) + 1
    return counts


def _side_names(replay: dict, names: dict, side: int) -> str:
    return " & ".join(names.get(seat, "") for seat, s in enumerate(replay["sides"]) if s == side)


def _deal_for_page(deal: dict, replay: dict, names: dict) -> dict:
    """A deal as the page shows it without the script: hands dealt, tricks, points."""
    first = deal["steps"][0]
    summary = deal["summary"]
    sides = max(replay["sides"]) + 1
    return {
        "number": deal["number"],
        "dealer": names.get(deal["dealer"], ""),
        "trump_card": first["trump_card"],
        "hands": [(names.get(seat, ""), hand) for seat, hand in enumerate(first["hands"])],
        "tricks": [[(names.get(p["seat"], ""), p["card"]) for p in t] for t in summary["tricks"]],
        "sides": [
            {
                "names": _side_names(replay, names, side),
                "points": None if summary["points"] is None else summary["points"][side],
                "cantes": summary["cantes"][side] if side < len(summary["cantes"]) else [],
            }
            for side in range(sides)
        ],
        "winner": None
        if summary["winner"] is None
        else _side_names(replay, names, summary["winner"]),
        # Pocha: each player's bid, the tricks they took and the hand's points.
        "pocha": None
        if summary["bids"] is None
        else [
            (names.get(seat, ""), bid, taken, points)
            for seat, (bid, taken, points) in enumerate(
                zip(
                    summary["bids"],
                    deal["steps"][-1]["tricks_won"],
                    summary["points"] or [None] * len(summary["bids"]),
                    strict=True,
                )
            )
        ],
    }


def game_record(request, pk: int):
    """The game record as JSON, for finished games only: a live one would show hidden cards."""
    game = get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED)
    response = JsonResponse(game.record, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="tute-game-{game.pk}.json"'
    return response


EXCLUDED = {
    "same_ip": _(
        "This game counts for no leaderboard: two of its players played from the same "
        "internet address. Chips and XP were paid all the same."
    ),
    "moderator": _(
        "This game counts for no leaderboard: a moderator excluded it. Chips and XP were "
        "paid all the same."
    ),
}


def payout_for_page(game_id: int) -> dict | None:
    """A finished game's chips and XP, by seat, and why it counts for no leaderboard, in
    the reader's words; None before its result was handed over."""
    payout = rankings_selectors.game_payout(game_id=game_id)
    if payout is None:
        return None
    excluded = str(EXCLUDED[payout.exclusion]) if payout.exclusion in EXCLUDED else None
    # Only a moderator's own words are shown: an automatic exclusion's note names the
    # address and the accounts, which are for the moderators alone (the admin).
    if payout.exclusion == "moderator" and payout.exclusion_note:
        reason = _("The moderator's reason: %(note)s") % {"note": payout.exclusion_note}
        excluded = f"{excluded} {reason}"
    return {
        "competitive": payout.competitive,
        "pot": payout.pot,
        "cut": f"{BANK_CUT_PERCENT}%",
        "bank": payout.bank,
        "excluded": excluded,
        "seats": {s.seat: {"staked": s.staked, "chips": s.chips, "xp": s.xp} for s in payout.seats},
    }


def game_awards(request, pk: int):
    """A finished game's rating changes, new trophies and, at an arena's table, the arena
    points it earned, by seat, for the end-of-game summary. The award (and an arena's score)
    runs just after the game ends: until it has, `awarded` is false and the page asks
    again."""
    game = get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED)
    ratings = rankings_selectors.game_rating_changes(game_id=game.pk)
    trophies = rankings_selectors.game_trophies(game_id=game.pk)
    # An arena's game: what it earned each player there, awarded once the arena scored it.
    arena = game_arena_points(game_id=game.pk)
    seats = []
    for seat in game.seats.select_related("user").order_by("seat"):
        if seat.user_id is None:
            continue
        rating = ratings.get(seat.user_id)
        seats.append(
            {
                "seat": seat.seat,
                "user": seat.user.username,
                # What the game earned them in its arena, once scored (None: no arena's).
                "arena": arena["points"].get(seat.user_id) if arena else None,
                "rating": None
                if rating is None
                else {"shown": rating.shown, "change": f"{rating.change:+d}"},
                "trophies": [
                    str(rankings_selectors.trophy(code).name)
                    for code in trophies.get(seat.user_id, [])
                ],
            }
        )
    awarded = rankings_selectors.game_awarded(game_id=game.pk) and (
        arena is None or arena["scored"]
    )
    payout = payout_for_page(game.pk)
    for seat in seats:
        paid = (payout or {"seats": {}})["seats"].get(seat["seat"])
        seat["paid"] = paid
    return JsonResponse(
        {
            "awarded": awarded,
            "arena": {"name": arena["name"], "url": arena["url"]} if arena else None,
            "seats": seats,
            "competitive": bool(payout and payout["competitive"]),
            "pot": payout["pot"] if payout else 0,
            "bank": payout["bank"] if payout else 0,
            "excluded": payout["excluded"] if payout else None,
        }
    )
