"""The table page's words for its script (templates/games/table.html, static/js/table/):
the sentences it shows, the 40 cards' names and the order a hand is sorted in. Apart from
the views because they are most of a page's text and none of its decisions.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.cards import CARDS
from games.engine.options import VARIANT_NAMES
from games.engine.rulebook import HABANERO_OVER
from games.robot_names import LEVEL_WORDS
from games.table.explain import PLAY_DUTIES
from games.table.refusals import MESSAGES
from games.templatetags.cards import card_label
from rankings.services import BANK_CUT_PERCENT

# The 40 cards in the engine's order (suits O, C, E, B, strongest first): the order a hand
# is sorted in, and the <template> elements the table page's script clones cards from.
ALL_CARDS = [str(card) for card in sorted(set(CARDS), key=lambda c: c.index)]

# Sentences the table page's script shows; %(name)s is filled in by the script.
TABLE_STRINGS = {
    # The page's title names the game: proper names, the same in every language.
    "variants": VARIANT_NAMES,
    # A label and its value, as the language joins them (a no-break space before the colon
    # in French).
    "labelled": _("%(label)s: %(value)s"),
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
    "same_address": _(
        "Two players here sit from the same address: the game will count for no ranking "
        "(the stakes are still played)."
    ),
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
    "cancelled_refunded": _(
        "The game was cancelled: nobody wins or loses it, and every stake went back to its player."
    ),
    "cancelled_refunded_but": _(
        "The game was cancelled: nobody wins or loses it, and every stake went back to its "
        "player but the stake of who abandoned it."
    ),
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
    "while_away": _("While you were away, a robot made %(count)s of your decisions: %(moves)s."),
    "robot_decisions": _("Decisions a robot made for %(who)s: %(count)s."),
    "robot_decisions_you": _("Decisions a robot made for you: %(count)s."),
    "ahead_on_cards": _(
        "On the cards %(who)s was ahead, but a player who abandons loses the game."
    ),
    "nobody_won": _("Nobody won the game: every side abandoned it."),
    "close": _("Close"),
    "abandoned_by": _("%(who)s abandoned the game: it counts as lost for them."),
    "pot_line": _(
        "Pot: %(pot)s chips. The bank keeps %(bank)s (%(cut)s); the winners share the rest."
    ),
    "bank_cut": f"{BANK_CUT_PERCENT}%",
    "paid_line": _("%(user)s: staked %(staked)s, received %(chips)s chips, +%(xp)s XP."),
    "xp_line": _("%(user)s: +%(xp)s XP."),
    # An arena's game (games/arenas/scoring.py): 2 for a win, 4 on a streak, 0 for a loss.
    "arena_points": _("%(user)s: +%(points)s points in the arena %(arena)s."),
    "arena_points_doubled": _(
        "%(user)s: +%(points)s points in the arena %(arena)s, doubled by a winning streak."
    ),
}


def all_cards() -> list[tuple[str, str]]:
    """Each card's code and name, in the order a hand is sorted in."""
    return [(code, card_label(code)) for code in ALL_CARDS]
