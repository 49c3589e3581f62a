from datetime import UTC

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.ip import client_ip
from games import reports
from games.analysis import analysis_for_page, game_analysis_for
from games.engine.cards import CARDS
from games.engine.options import VARIANT_NAMES
from games.engine.rulebook import HABANERO_OVER
from games.finding import finding_context
from games.forms import InviteForm, LobbyFilterForm, ReportForm, TableOptionsForm
from games.models import Game, Table
from games.replays import game_replay
from games.robot_names import LEVEL_WORDS, SEAT_NAMES, robot_label, robot_name
from games.table import permits, requests, seating
from games.table.explain import PLAY_DUTIES
from games.table.frames import table_summary
from games.table.options import OPTION, option_value_label
from games.table.refusals import MESSAGES, TableError
from games.table.room import Room
from games.templatetags.cards import card_label
from rankings import selectors as rankings_selectors
from rankings.services import BANK_CUT_PERCENT
from rankings.trophies import BY_CODE

# The 40 cards in the engine's order (suits O, C, E, B, strongest first): the order a hand
# is sorted in, and the <template> elements the table page's script clones cards from.
ALL_CARDS = [str(card) for card in sorted(set(CARDS), key=lambda c: c.index)]

# Sentences the table page's script shows; %(name)s is filled in by the script.
TABLE_STRINGS = {
    # The page's title names the game: proper names, the same in every language.
    "variants": VARIANT_NAMES,
    "your_turn": _("Your turn."),
    "your_turn_bid": _("Your turn: how many tricks do you bid?"),
    "waiting_for": _("Waiting for %(user)s."),
    "may_sing": _("You may sing now."),
    "waiting_players": _("Waiting for players: %(free)s free seats."),
    "waiting_player": _("Waiting for a player: one free seat."),
    "ready_master": _("Every seat is taken: start the game when you are ready."),
    "ready": _("Every seat is taken: waiting for the master to start."),
    "new_game": _("New game with the same players"),
    "next_deal": _("Next deal"),
    "deal_over": _("Deal %(number)s is over"),
    "deal_n": _("Deal %(n)s"),
    "game_over": _("Game over"),
    "winner": _("%(who)s won."),
    "winners": _("Winners: %(who)s."),
    "no_winner": _("Nobody won this deal."),
    "points": _("Points"),
    "score": _("Game score"),
    "cantes": _("Cantes"),
    "none": _("none"),
    "sing": _("Sing %(value)s in %(suit)s"),
    "sang": _("%(user)s sings %(value)s in %(suit)s!"),
    "tute_12": _("Tute of kings"),
    "tute_11": _("Tute of knights"),
    "sang_tute": _("%(user)s announces a tute!"),
    "exchange": _("Give your %(card)s for the trump card"),
    "exchanged": _("%(user)s gives the %(card)s and takes the trump card."),
    "exchanged_you": _("You give the %(card)s and take the trump card."),
    "sang_you": _("You sing %(value)s in %(suit)s!"),
    "sang_tute_you": _("You announce a tute!"),
    "capote_you": _("You declare capote!"),
    "capote_yes": _("Declare capote"),
    "capote_no": _("No capote"),
    "capote": _("%(user)s declares capote!"),
    "bid": _("Bid %(n)s"),
    "bids": _("Bids"),
    "free_seat": _("Free seat"),
    "sit": _("Sit here"),
    "stand": _("Stand up"),
    "you": _("you"),
    "master": _("table master"),
    "dealer": _("dealer"),
    "team": _("Team %(n)s"),
    "trump": _("Trump"),
    "stock": _("Stock: %(n)s"),
    "last_trick": _("Last trick"),
    "hide_last_trick": _("Hide the last trick"),
    "hand_sizes": _("Cards in hand: %(n)s"),
    "tricks_won": _("Tricks: %(n)s"),
    "connecting": _("Connecting…"),
    "offline": _("Connection lost: reconnecting…"),
    "gone": _("This table is closed or cannot be watched."),
    "watching": _("You are watching this table."),
    "closed": _("This table is closed."),
    "closed_by_moderator": _("A moderator closed this table: %(reason)s"),
    "closed_refunded": _("A moderator closed the table: every stake was given back."),
    "muted_until": _("You are muted until %(time)s: %(reason)s"),
    "report_message": _("Report this message"),
    "options_changed": _("%(user)s changed the options."),
    "sat": _("%(user)s sat down."),
    "stood": _("%(user)s stood up."),
    "started": _("A new game starts!"),
    "dealt": _("A new deal is dealt."),
    "ended": _("The game is over."),
    "invited": _("%(user)s is invited."),
    "see_replay": _("See the replay"),
    "chances": _("Chance of winning: %(list)s"),
    "rating_change": _("%(user)s: rating %(rating)s (%(change)s)"),
    "new_trophy": _("%(user)s earns a trophy: %(trophy)s"),
    "play_step": _("%(user)s plays: %(card)s."),
    "capote_declined": _("%(user)s declines capote."),
    "bid_step": _("%(user)s bids %(n)s."),
    "dealt_step": _("Deal %(number)s: the cards are dealt."),
    "step_of": _("Step %(n)s of %(total)s"),
    # Robots, timers, absences and cancelling (docs/protocol.md).
    "robot_seat": _("Robot (%(robot)s)"),
    "robot": _("Robot"),
    "robot_plays": _("a robot plays for now"),
    "away": _("away"),
    "abandoned": pgettext_lazy("a player", "abandoned"),
    "seconds": _("%(seconds)s s"),
    "your_clock": _("%(seconds)s s left to play."),
    "deal_clock": _("The next deal is dealt in %(seconds)s s."),
    "robot_holds_seat": _("A robot plays your seat: take it back when you are ready."),
    "time_left": _("%(seconds)s s left"),
    "cancel_accepted_by": _("Accepted: %(users)s."),
    "cancel_waiting": _("Waiting for: %(users)s."),
    "cancel_yours": _("You propose to cancel the game."),
    "game_cancelled": _("Game cancelled"),
    "cancelled_text": _("The game was cancelled: nobody wins or loses it."),
    "went_away": _("%(user)s is away: a robot plays their seat."),
    "came_back": _("%(user)s is back."),
    "has_abandoned": _("%(user)s has abandoned the game: a robot finishes it."),
    "has_left": _("%(user)s left the game: a robot finishes it."),
    "resumed": _("%(user)s takes their seat back."),
    "cancel_proposed": _("%(user)s proposes to cancel the game."),
    "cancel_accepted": _("%(user)s accepts to cancel the game."),
    "cancel_refused": _("%(user)s refuses to cancel: the game goes on."),
    "cancel_expired": _("Not everyone answered in time: the game goes on."),
    "cancelled": _("The game was cancelled."),
    "timed_out": _("Time is up for %(user)s: a robot played for them."),
    "timed_out_you": _("Your time was up: a robot played for you."),
    # The table on one screen, every moment explained (issue 22).
    "robot_label": _("%(name)s · %(level)s"),
    "levels": LEVEL_WORDS,
    # Why a card is dimmed on the player's turn: the engine's refusal, by kind.
    "dimmed": {kind.value: MESSAGES[kind] for kind in PLAY_DUTIES},
    "dimmed_title": _("You may not play this card now."),
    "trump_is": _("Trump: %(suit)s"),
    "led": pgettext_lazy("the card that led the trick", "led"),
    "takes_trick": _("%(user)s takes the trick, %(points)s points."),
    "takes_trick_plain": _("%(user)s takes the trick."),
    "you_take_trick": _("You take the trick, %(points)s points."),
    "you_take_trick_plain": _("You take the trick."),
    "partner": _("your partner"),
    "your_team": _("You and %(partner)s"),
    "capote_help": _(
        "Capote: you promise to win every trick left. Win them all and you win the deal; "
        "lose one and the deal goes to the other side at once."
    ),
    "capote_made": _("%(who)s made capote: every trick of the arrastre, and the deal."),
    "capote_lost": _("%(who)s declared capote and lost a trick: the deal goes to the other side."),
    "offer_rematch": _("Offer a rematch"),
    "tie_last_trick": _("Equal points: the last trick decides, and %(who)s took it."),
    "tie_latest_trick": _(
        "Equal points: the tied side that won a trick most recently takes the deal: %(who)s."
    ),
    "no_winner_carry": _(
        "Nobody passed %(over)s points: nobody wins this deal, and its points are carried "
        "into the next one."
    ),
    "carried": _("Carried from the last deal: %(points)s."),
    "habanero_over": HABANERO_OVER,
    "of_over": _("%(total)s of %(over)s"),
    "pocha_bid": _("Bid"),
    "pocha_tricks": _("Tricks"),
    "score_sheet": _("Score sheet"),
    "hide_score_sheet": _("Hide the score sheet"),
    "deal": _("Deal"),
    "winner_col": _("Winner"),
    "title_your_turn": _("Your turn!"),
    "while_away": _("While you were away, a robot played for you: %(moves)s."),
    "close": _("Close"),
    "abandoned_by": _("%(who)s abandoned the game: it counts as lost for them."),
    "pot_line": _(
        "Pot: %(pot)s chips. The bank keeps %(bank)s (%(cut)s); the winners share the rest."
    ),
    "bank_cut": f"{BANK_CUT_PERCENT}%",
    "paid_line": _("%(user)s: staked %(staked)s, received %(chips)s chips, +%(xp)s XP."),
    "xp_line": _("%(user)s: +%(xp)s XP."),
}


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
    rows = [
        {
            "seat": s,
            "name": s.user.username if s.user_id else robot_label(s.seat, s.robot),
            "paid": paid.get(s.seat),
        }
        for s in seats
    ]
    # The replay is drawn from the viewer's own seat when they played in the game.
    viewer = next((s.seat for s in seats if s.user_id and s.user_id == request.user.pk), 0)
    context = {"game": game, "seats": rows, "replay": replay, "payout": payout}
    if replay is not None:
        context.update(
            viewer_seat=viewer,
            names=[names.get(seat, "") for seat in range(replay["players"])],
            all_cards=_all_cards(),
            strings=TABLE_STRINGS,
            deals=[_deal_for_page(deal, replay, names) for deal in replay["deals"]],
        )
        data = game_analysis_for(game=game)
        if data is not None:
            context["analysis"] = analysis_for_page(data, replay, context["names"])
    return render(request, "games/game_detail.html", context)


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


def _all_cards() -> list[tuple[str, str]]:
    return [(code, card_label(code)) for code in ALL_CARDS]


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
    """A finished game's rating changes and new trophies, by seat, for the end-of-game
    summary. The award runs just after the game ends: until it has, `awarded` is false and
    the page asks again."""
    game = get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED)
    ratings = rankings_selectors.game_rating_changes(game_id=game.pk)
    trophies = rankings_selectors.game_trophies(game_id=game.pk)
    seats = []
    for seat in game.seats.select_related("user").order_by("seat"):
        if seat.user_id is None:
            continue
        rating = ratings.get(seat.user_id)
        seats.append(
            {
                "seat": seat.seat,
                "user": seat.user.username,
                "rating": None
                if rating is None
                else {"shown": rating.shown, "change": f"{rating.change:+d}"},
                "trophies": [str(BY_CODE[code].name) for code in trophies.get(seat.user_id, [])],
            }
        )
    awarded = rankings_selectors.game_awarded(game_id=game.pk)
    payout = payout_for_page(game.pk)
    for seat in seats:
        paid = (payout or {"seats": {}})["seats"].get(seat["seat"])
        seat["paid"] = paid
    return JsonResponse(
        {
            "awarded": awarded,
            "seats": seats,
            "competitive": bool(payout and payout["competitive"]),
            "pot": payout["pot"] if payout else 0,
            "bank": payout["bank"] if payout else 0,
            "excluded": payout["excluded"] if payout else None,
        }
    )


# The lobby's script has the watchers' words counted up to this many (then the last one).
WATCHERS_COUNTED = 50


def _lobby_strings() -> dict:
    """The words of the lobby's rows, for its script, which draws the rows the lobby socket
    pushes as the page draws its own (table_list.html; the options sentence comes written in
    each row, `options_text`). Counted words are counted here, for every count an option
    allows (games/table/options.py): the script picks no plural."""

    def counted(singular: str, plural: str, numbers: range) -> dict[int, str]:
        return {n: ngettext(singular, plural, n) % {"n": n} for n in numbers}

    return {
        "variants": {
            code: option_value_label("variant", code) for code in OPTION["variant"].codes()
        },
        "running": _("Game running"),
        "waiting": _("Waiting for players"),
        "master": _("table master"),
        "free_seat": _("free seat"),
        "robot_label": _("%(name)s · %(level)s"),
        "robot_names": [robot_name(n) for n in range(len(SEAT_NAMES))],
        "levels": {code: str(word) for code, word in LEVEL_WORDS.items()},
        "invited": _("You are invited"),
        "watchers": counted("%(n)s watching", "%(n)s watching", range(WATCHERS_COUNTED + 1)),
        "join": _("Join"),
        "watch": _("Watch"),
        "empty": _("No table matches. Open one and wait for players to join!"),
        "free_seats": counted(
            "%(n)s free seat", "%(n)s free seats", range(OPTION["players"].maximum + 1)
        ),
    }


def _lobby_context(request, form: TableOptionsForm | None = None) -> dict:
    filters = LobbyFilterForm(request.GET, auto_id="filter_%s")
    return {
        **finding_context(request),
        "filters": filters,
        "tables": filters.tables(request.user),
        "form": form if form is not None else TableOptionsForm(),
        "strings": _lobby_strings(),
    }


def table_list(request):
    """The lobby: open tables with filters (kept live by /ws/lobby/), and the create form."""
    context = _lobby_context(request)
    template = "games/table_list.html"
    if request.htmx:
        template += "#lobby-tables"
    return render(request, template, context)


@login_required
def table_create(request):
    """Create a table from the lobby's form; the service's refusals go next to their field."""
    if request.method != "POST":
        return redirect("table_list")
    form = TableOptionsForm(request.POST)
    # The lobby's "Practice against robots" button: the same options, robots in the other
    # seats, the game started at once.
    create = seating.table_practice if "practice" in request.POST else seating.table_create
    if form.is_valid():
        try:
            table = create(
                master=request.user, options=form.cleaned_data, ip_address=client_ip(request)
            )
        except TableError as error:
            form.add_service_error(error)
        else:
            return redirect(table)
    return render(request, "games/table_list.html", _lobby_context(request, form), status=400)


def table_detail(request, pk: int, options_form: TableOptionsForm | None = None):
    """A table. Its seats are drawn here for browsers without JavaScript; the script redraws
    everything (seats, options, game, chat) from the table socket's `state` frames."""
    # An arena game's table links back to its arena (games.arenas's `arena_game`).
    tables = Table.objects.select_related("master", "arena_game__arena")
    table = get_object_or_404(tables, pk=pk)
    room = Room(table=table)  # its seats read once, for the summary and what may be asked
    summary = table_summary(table=table, seats=room.seats)
    if options_form is None:
        options_form = TableOptionsForm(initial=summary["options"], auto_id="opt_%s")
    context = {
        "table": table,
        "summary": summary,
        # What the page's first drawing offers; the socket's frames say it from then on.
        "may": permits.may_for(room, request.user),
        "options_form": options_form,
        "invite_form": InviteForm(),
        "all_cards": _all_cards(),
        "strings": TABLE_STRINGS,
        "mute": _mute(request.user),
        "arena": _arena_of(table),
    }
    return render(request, "games/table_detail.html", context)


@login_required
@require_GET
def table_invited(request, pk: int):
    """The master's list of who they invited and what became of it (the table page reads it
    again when it changes)."""
    table = get_object_or_404(Table, pk=pk)
    if table.master_id != request.user.pk:
        raise PermissionDenied
    return render(request, "games/_invitations.html", {"table": table})


def _arena_of(table: Table):
    """The arena whose game this table plays, or None."""
    try:
        return table.arena_game.arena
    except ObjectDoesNotExist:
        return None


def _mute(user) -> dict[str, str] | None:
    """A muted player's mute as the chat box shows it (the script shows the time in the
    player's own clock), or None."""
    if not (user.is_authenticated and user.is_muted):
        return None
    until = user.muted_until.astimezone(UTC)
    return {
        "until": until.isoformat().replace("+00:00", "Z"),
        "time": f"{until:%H:%M} UTC",
        "reason": user.mute_reason,
    }


def chat_mute(request):
    """The player's mute, for the table page's chat box: `{"until": null}` when not muted."""
    mute = _mute(request.user)
    return JsonResponse(
        {"until": mute["until"], "reason": mute["reason"]}
        if mute
        else {"until": None, "reason": ""}
    )


@login_required
@require_POST
def table_request(request, pk: int):
    """One table request from a plain form (sit, stand, start, next deal, invite): parsed
    and answered as the socket's (games/table/requests.py)."""
    get_object_or_404(Table, pk=pk)
    try:
        requests.handle(
            requests.parse_form(request.POST),
            table_id=pk,
            user=request.user,
            ip_address=client_ip(request),
        )
    except requests.Malformed as error:
        messages.error(request, str(error.message))
    except TableError as error:
        messages.error(request, str(error.message))
    return redirect("table_detail", pk=pk)


@login_required
@require_POST
def table_options(request, pk: int):
    """The master's options form, posted without the socket; errors next to their field."""
    get_object_or_404(Table, pk=pk)
    form = TableOptionsForm(request.POST, auto_id="opt_%s")
    if form.is_valid():
        try:
            seating.table_set_options(table_id=pk, user=request.user, options=form.cleaned_data)
        except TableError as error:
            form.add_service_error(error)
        else:
            return redirect("table_detail", pk=pk)
    return table_detail(request, pk, options_form=form)


# How many of the table's latest messages the report page offers.
REPORT_MESSAGES = 30


@login_required
def table_report(request, pk: int):
    """Report a chat message or a player of this table to the moderators: a plain page,
    linked from the table page (`?message=<id>` picks a message, `?player=<name>` a player)."""
    table = get_object_or_404(Table, pk=pk)
    if not reports.may_report_at(user=request.user, table=table):
        raise PermissionDenied
    latest = (
        table.chat_messages.exclude(user=request.user)
        .select_related("user")
        .order_by("-created_at", "-pk")[:REPORT_MESSAGES]
    )
    chat = list(reversed(latest))
    people = reports.table_people(table=table).exclude(pk=request.user.pk)
    kwargs = {"messages": chat, "people": people}
    if request.method == "POST":
        form = ReportForm(request.POST, **kwargs)
        if form.is_valid():
            data = form.cleaned_data
            try:
                reports.report_create(
                    reporter=request.user,
                    table_id=table.pk,
                    reason=data["reason"],
                    note=data["note"],
                    message_id=data["message"],
                    reported=people.filter(username=data["player"]).first(),
                )
            except reports.ReportError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Thank you: the moderators will read your report."))
                return redirect(table)
    else:
        form = ReportForm(
            initial={
                "message": request.GET.get("message", ""),
                "player": request.GET.get("player", ""),
            },
            **kwargs,
        )
    status = 400 if form.errors else 200
    context = {"table": table, "form": form, "per_hour": reports.REPORTS_PER_HOUR}
    return render(request, "games/table_report.html", context, status=status)
