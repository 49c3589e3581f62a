"""Writes to the chips ledger and to the XP events.

Every function is keyword-only and runs in one transaction. A function that moves chips
first takes a row lock (`select_for_update`) on every account it touches, in ascending pk
order, so two transfers over the same accounts wait for each other instead of deadlocking.
Only then does it look its idempotency key up: a second call with the same key, even one
racing the first, finds the first one's transfer and returns it without moving anything.

Rounding of a pot payout: the bank keeps 25% rounded down; the winners share the rest in
equal whole chips, and a chip that cannot be split evenly goes to the bank too. So every
winner of a pair gets exactly the same.
"""

import logging
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.services import ModerationError, check_moderator_may_act, moderation_log
from rankings.models import (
    VARIANTS,
    BoardCount,
    BoardRow,
    ChipAccount,
    ChipTransfer,
    GameResult,
    GameResultSeat,
    LedgerEntry,
    XpEvent,
)
from rankings.ratings import rating_award, ratings_count_again, ratings_rerun
from rankings.trophies import trophies_award, trophies_recount
from rankings.xp import xp_for_game

logger = logging.getLogger(__name__)

SIGNUP_GRANT = 1_000
DAILY_BONUS = 100
DAILY_BONUS_BELOW = 1_000
BANK_CUT_PERCENT = 25

Reason = ChipTransfer.Reason


class ChipsError(Exception):
    """Base of every refusal by the chips services."""


class InsufficientChips(ChipsError):
    """An account would go below zero: a player cannot afford a stake or an adjustment."""

    def __init__(self, *, account: ChipAccount, balance: int, needed: int):
        self.account = account
        self.balance = balance
        self.needed = needed
        super().__init__(f"{account} holds {balance} chips, {needed} needed")


class IdempotencyKeyReused(ChipsError):
    """The key was already used for a different kind of operation."""


class PotAlreadySettled(ChipsError):
    """The pot no longer holds the stakes: it was paid out or refunded under another key."""


class DailyBonusUnavailable(ChipsError):
    """The daily bonus cannot be given now."""


class DailyBonusAlreadyClaimed(DailyBonusUnavailable):
    pass


class DailyBonusNotNeeded(DailyBonusUnavailable):
    pass


# --- Accounts ----------------------------------------------------------------------------


def _system_account(kind: str) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(kind=kind, user=None, game_id=None)
    return account


def _player_account(user: User) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        user=user, defaults={"kind": ChipAccount.Kind.PLAYER}
    )
    return account


def _pot_account(game_id: int) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        game_id=game_id, defaults={"kind": ChipAccount.Kind.POT}
    )
    return account


def _lock(*accounts: ChipAccount) -> dict[int, ChipAccount]:
    """Lock the accounts' rows in ascending pk order and return fresh copies by pk."""
    pks = sorted({account.pk for account in accounts})
    return {
        account.pk: account
        for account in ChipAccount.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    }


def _existing(key: str, reason: str) -> ChipTransfer | None:
    transfer = ChipTransfer.objects.filter(key=key).first()
    if transfer is not None and transfer.reason != reason:
        raise IdempotencyKeyReused(f"key {key!r} was used for {transfer.reason}, not {reason}")
    return transfer


def _post(
    *,
    key: str,
    reason: str,
    locked: dict[int, ChipAccount],
    movements: Sequence[tuple[ChipAccount, ChipAccount, int]],
    game_id: int | None = None,
    actor: User | None = None,
    memo: str = "",
) -> ChipTransfer:
    """Write one transfer and its entries and update the cached balances.

    The caller holds the row locks on every account in `movements` (`locked`, from `_lock`).
    Movements of zero chips are left out; a transfer may end up with no entry at all.
    """
    deltas: dict[int, int] = defaultdict(int)
    kept = []
    for source, destination, amount in movements:
        if amount < 0:
            raise ValueError(f"a movement cannot be negative: {amount}")
        if amount == 0:
            continue
        deltas[source.pk] -= amount
        deltas[destination.pk] += amount
        kept.append((source, destination, amount))
    for pk, delta in deltas.items():
        account = locked[pk]
        if account.kind != ChipAccount.Kind.GRANTS and account.balance + delta < 0:
            raise InsufficientChips(account=account, balance=account.balance, needed=-delta)
    try:
        with transaction.atomic():
            transfer = ChipTransfer.objects.create(
                key=key, reason=reason, game_id=game_id, actor=actor, memo=memo
            )
    except IntegrityError:
        # Only reachable when the same key races over other accounts than ours.
        existing = _existing(key, reason)
        if existing is None:
            raise
        return existing
    LedgerEntry.objects.bulk_create(
        LedgerEntry(transfer=transfer, source=source, destination=destination, amount=amount)
        for source, destination, amount in kept
    )
    for pk, delta in deltas.items():
        if delta:
            ChipAccount.objects.filter(pk=pk).update(balance=F("balance") + delta)
            locked[pk].balance += delta
    return transfer


# --- Grants --------------------------------------------------------------------------------


@transaction.atomic
def chips_grant(
    *,
    user: User,
    amount: int,
    key: str,
    reason: str = Reason.GRANT,
    memo: str = "",
    actor: User | None = None,
) -> ChipTransfer:
    """Create `amount` chips for a player, from the grants account.

    Locks the grants account and the player's account.
    """
    return _move_once(
        source=_system_account(ChipAccount.Kind.GRANTS),
        target=_player_account(user),
        amount=amount,
        key=key,
        reason=reason,
        what="a grant",
        actor=actor,
        memo=memo,
    )


def chips_signup_grant(*, user: User) -> ChipTransfer:
    """The starting 1,000 chips, once per player whatever calls it.

    Locks the grants account and the player's account.
    """
    return chips_grant(
        user=user, amount=SIGNUP_GRANT, key=f"signup:{user.pk}", reason=Reason.SIGNUP
    )


def utc_today() -> date:
    return datetime.now(UTC).date()


@transaction.atomic
def chips_daily_bonus(*, user: User, today: date | None = None) -> ChipTransfer:
    """Give 100 chips to a player below 1,000, once per calendar day (UTC).

    Raises `DailyBonusAlreadyClaimed` or `DailyBonusNotNeeded`. Locks the grants account and
    the player's account, so the balance it checks is the one it adds to.
    """
    today = today or utc_today()
    key = f"daily:{user.pk}:{today.isoformat()}"
    grants, player = _system_account(ChipAccount.Kind.GRANTS), _player_account(user)
    locked = _lock(grants, player)
    if _existing(key, Reason.DAILY) is not None:
        raise DailyBonusAlreadyClaimed(f"the bonus for {today} was already given")
    if locked[player.pk].balance >= DAILY_BONUS_BELOW:
        raise DailyBonusNotNeeded(f"{locked[player.pk].balance} chips is not below 1,000")
    return _post(
        key=key,
        reason=Reason.DAILY,
        locked=locked,
        movements=[(locked[grants.pk], locked[player.pk], DAILY_BONUS)],
    )


def _adjust(
    *, user: User, amount: int, memo: str, actor: User, key: str
) -> tuple[ChipTransfer, bool]:
    """(the transfer, whether this call made it). Locks before it looks the key up, so a
    racing duplicate waits here and then finds the first one's transfer."""
    if not amount:
        raise ValueError("an adjustment moves at least one chip")
    if not memo.strip():
        raise ValueError("an adjustment needs a written reason")
    grants, player = _system_account(ChipAccount.Kind.GRANTS), _player_account(user)
    locked = _lock(grants, player)
    existing = _existing(key, Reason.ADJUST)
    if existing is not None:
        return existing, False
    source, destination = (grants, player) if amount > 0 else (player, grants)
    transfer = _post(
        key=key,
        reason=Reason.ADJUST,
        locked=locked,
        movements=[(locked[source.pk], locked[destination.pk], abs(amount))],
        actor=actor,
        memo=memo.strip(),
    )
    return transfer, True


@transaction.atomic
def chips_adjust(*, user: User, amount: int, memo: str, actor: User, key: str) -> ChipTransfer:
    """A correction: positive adds chips from grants, negative returns them there.

    The written reason (`memo`) is required. Raises `InsufficientChips` when taking more
    than the player holds. Locks the grants account and the player's account.
    """
    transfer, _made = _adjust(user=user, amount=amount, memo=memo, actor=actor, key=key)
    return transfer


@transaction.atomic
def chips_adjust_by_moderator(
    *, user: User, moderator: User, amount: int, reason: str, key: str
) -> tuple[ChipTransfer, ModerationAction | None]:
    """A moderator's chips adjustment, logged once: (transfer, log entry or None).

    The same key again (a form submitted twice, even at the same instant) moves nothing and
    logs nothing: the second call waits for the first one's locks on the grants account and
    the player's account, then finds its transfer. Raises `ModerationError` or
    `InsufficientChips`.
    """
    if not reason.strip():
        raise ModerationError(_("A chips adjustment needs a reason."))
    check_moderator_may_act(moderator=moderator, user=user)
    transfer, made = _adjust(user=user, amount=amount, memo=reason, actor=moderator, key=key)
    if not made:
        return transfer, None
    action = ModerationAction.objects.create(
        moderator=moderator,
        target=user,
        kind=ModerationAction.Kind.CHIPS,
        reason=reason.strip(),
        amount=amount,
    )
    return transfer, action


# --- Stakes and pots ---------------------------------------------------------------------


def _move_once(
    *,
    source: ChipAccount,
    target: ChipAccount,
    amount: int,
    key: str,
    reason: str,
    what: str,
    **post,
) -> ChipTransfer:
    """Move ``amount`` chips from one account to another, once per key (``post``: the
    transfer's game, actor or memo). Raises `InsufficientChips`; locks both accounts."""
    if amount <= 0:
        raise ValueError(f"{what} is a positive number of chips, not {amount}")
    locked = _lock(source, target)
    existing = _existing(key, reason)
    if existing is not None:
        return existing
    return _post(
        key=key,
        reason=reason,
        locked=locked,
        movements=[(locked[source.pk], locked[target.pk], amount)],
        **post,
    )


def _pay_in(*, user: User, into: ChipAccount, **move) -> ChipTransfer:
    """A player's chips into a pot: a stake, an arena's entry."""
    return _move_once(source=_player_account(user), target=into, **move)


@transaction.atomic
def chips_stake(*, user: User, game_id: int, amount: int, key: str) -> ChipTransfer:
    """Move a player's stake into the game's pot.

    Raises `InsufficientChips` when the player holds less than the stake. Locks the player's
    account and the game's pot.
    """
    into = _pot_account(game_id)
    return _pay_in(
        user=user,
        into=into,
        amount=amount,
        key=key,
        reason=Reason.STAKE,
        what="a stake",
        game_id=game_id,
    )


def pot_split(pot: int, winners: int) -> tuple[int, int]:
    """(bank's part, each winner's share) of a pot; see the module docstring.

    >>> pot_split(100, 1)
    (25, 75)
    >>> pot_split(10, 2)
    (2, 4)
    >>> pot_split(6, 2)
    (2, 2)
    """
    cut = pot * BANK_CUT_PERCENT // 100
    share = (pot - cut) // winners
    return pot - share * winners, share


@transaction.atomic
def chips_pay_pot(*, game_id: int, winners: Sequence[User], key: str) -> ChipTransfer:
    """Pay the whole pot out: 25% to the bank, the rest shared by the winners.

    Locks the pot, the bank and every winner's account.
    """
    if not winners:
        raise ValueError("a pot is paid to at least one winner")
    return _settle_pot(game_id=game_id, winners=winners, key=key)


def _settle_pot(*, game_id: int, winners: Sequence[User], key: str) -> ChipTransfer:
    """`chips_pay_pot`, where no winner at all (robots, or who abandoned) leaves the whole
    pot to the bank."""
    if len({winner.pk for winner in winners}) != len(winners):
        raise ValueError("a winner is listed twice")
    pot, bank = _pot_account(game_id), _system_account(ChipAccount.Kind.BANK)
    players = [_player_account(winner) for winner in winners]
    locked = _lock(pot, bank, *players)
    existing = _existing(key, Reason.PAYOUT)
    if existing is not None:
        return existing
    if players:
        bank_part, share = pot_split(locked[pot.pk].balance, len(players))
    else:
        bank_part, share = locked[pot.pk].balance, 0
    movements = [(locked[pot.pk], locked[bank.pk], bank_part)]
    movements += [(locked[pot.pk], locked[player.pk], share) for player in players]
    return _post(key=key, reason=Reason.PAYOUT, locked=locked, movements=movements, game_id=game_id)


def _stakes_in(pot: ChipAccount) -> dict[int, int]:
    """Chips staked into a pot, by the staking account's pk."""
    rows = (
        LedgerEntry.objects.filter(destination=pot, transfer__reason=Reason.STAKE)
        .values("source")
        .annotate(total=Sum("amount"))
        .order_by("source")
    )
    return {row["source"]: row["total"] for row in rows}


@transaction.atomic
def chips_refund(*, game_id: int, key: str, forfeit: Collection[User] = ()) -> ChipTransfer:
    """Give each stake back to its player, for a cancelled game.

    The stakes of the players in `forfeit` (the caller says who abandoned) go to the bank
    instead. Raises `PotAlreadySettled` when the pot no longer holds the stakes.
    Locks the pot, the bank and every staking player's account.
    """
    pot, bank = _pot_account(game_id), _system_account(ChipAccount.Kind.BANK)
    forfeit_pks = {user.pk for user in forfeit}
    stakes = _stakes_in(pot)
    locked = _lock(pot, bank, *ChipAccount.objects.filter(pk__in=stakes))
    # Read again under the pot's lock: no stake can arrive any more.
    stakes = _stakes_in(pot)
    if not set(stakes) <= set(locked):
        raise ChipsError("a stake arrived while the refund was starting; try again")
    existing = _existing(key, Reason.REFUND)
    if existing is not None:
        return existing
    if locked[pot.pk].balance != sum(stakes.values()):
        raise PotAlreadySettled(
            f"the pot holds {locked[pot.pk].balance} chips, the stakes were {sum(stakes.values())}"
        )
    movements = [
        (
            locked[pot.pk],
            locked[bank.pk] if locked[account_pk].user_id in forfeit_pks else locked[account_pk],
            amount,
        )
        for account_pk, amount in stakes.items()
    ]
    return _post(key=key, reason=Reason.REFUND, locked=locked, movements=movements, game_id=game_id)


# --- XP ------------------------------------------------------------------------------------


@transaction.atomic
def xp_award(
    *, user: User, amount: int, reason: str, key: str, game_id: int | None = None
) -> XpEvent:
    """Record an XP award, once per key: the same key again returns the first event.

    Locks nothing: an award only adds a row, and the unique key settles a race.
    """
    if amount <= 0:
        raise ValueError(f"an XP award is positive, not {amount}")
    existing = XpEvent.objects.filter(key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return XpEvent.objects.create(
                user=user, amount=amount, reason=reason, key=key, game_id=game_id
            )
    except IntegrityError:
        existing = XpEvent.objects.filter(key=key).first()
        if existing is None:
            raise
        return existing


# --- Game results and their awards (RULES.md §12) -------------------------------------------


class GameResultInvalid(ValueError):
    """A finished game handed over with seats that do not add up."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int | None  # None for a robot
    side: int  # 0..sides-1; in pairs seats 0,2 are side 0
    won: bool  # the seat's side won the game
    abandoned: bool
    ip_address: str | None  # as seen when the game started
    feats: tuple[str, ...] = ()  # what the seat did that a trophy may ask for (games.feats)


def _check_seats(*, variant: str, players: int, pairs: bool, seats: Sequence[SeatResult]) -> None:
    if variant not in dict(VARIANTS):
        raise GameResultInvalid(f"unknown variant {variant!r}")
    if players not in (2, 3, 4) or (pairs and players != 4):
        raise GameResultInvalid(f"{players} players{' in pairs' if pairs else ''} is no game")
    if sorted(seat.seat for seat in seats) != list(range(players)):
        raise GameResultInvalid(f"seats {[seat.seat for seat in seats]} for {players} players")
    humans = [seat.user_id for seat in seats if seat.user_id is not None]
    if len(set(humans)) != len(humans):
        raise GameResultInvalid("a player sits twice")
    sides = 2 if pairs else players
    if any(seat.side != (seat.seat % 2 if pairs else seat.seat) for seat in seats):
        raise GameResultInvalid(f"sides {[seat.side for seat in seats]} for {sides} sides")
    if any(seat.won != seats_by_side_won(seats)[seat.side] for seat in seats):
        raise GameResultInvalid("partners who did not both win or both lose")


def seats_by_side_won(seats: Sequence[SeatResult]) -> dict[int, bool]:
    """Whether each side won, by side (a side won when any of its seats says so)."""
    won: dict[int, bool] = defaultdict(bool)
    for seat in seats:
        won[seat.side] |= seat.won
    return won


def shared_ip_note(seats: Iterable[SeatResult]) -> str:
    """Which registered players shared an address at the start, or "" if none did. For the
    moderators only (the admin): a public page says why in words, never this note
    (games.views.EXCLUDED).

    >>> shared_ip_note([SeatResult(0, 1, 0, True, False, "192.0.2.1"),
    ...                 SeatResult(1, 2, 1, False, False, "192.0.2.1")])
    '192.0.2.1: players 1, 2'
    """
    by_ip: dict[str, set[int]] = defaultdict(set)
    for seat in seats:
        if seat.user_id is not None and seat.ip_address:
            by_ip[seat.ip_address].add(seat.user_id)
    return "; ".join(
        f"{ip}: players {', '.join(str(pk) for pk in sorted(users))}"
        for ip, users in sorted(by_ip.items())
        if len(users) > 1
    )


def game_result_submit(
    *,
    game_id: int,
    variant: str,
    players: int,
    pairs: bool,
    deals_to_win: int,
    competitive: bool,
    stake: int,
    finished_at: datetime,
    seats: Sequence[SeatResult],
) -> GameResult:
    """Record a finished game for the awards, inside the caller's transaction (the one that
    finishes the game); idempotent by game_id. Queues rankings.tasks.award_game(game_id)
    with transaction.on_commit.

    A table where two registered players shared an IP address is recorded as excluded: it
    still pays, but counts toward no leaderboard. Every seat marked `won` is a winner: in a
    tie (several winning sides) they share the pot and each gets the winner's XP. Raises
    `GameResultInvalid` on seats that do not make a game. Locks nothing: the unique
    `game_id` settles a race.
    """
    _check_seats(variant=variant, players=players, pairs=pairs, seats=seats)
    if deals_to_win < 1:
        raise GameResultInvalid(f"{deals_to_win} deals to win")
    with transaction.atomic():
        existing = GameResult.objects.filter(game_id=game_id).first()
        if existing is not None:
            return existing
        note = shared_ip_note(seats)
        try:
            with transaction.atomic():
                result = GameResult.objects.create(
                    game_id=game_id,
                    variant=variant,
                    players=players,
                    pairs=pairs,
                    deals_to_win=deals_to_win,
                    competitive=competitive,
                    stake=stake,
                    finished_at=finished_at,
                    exclusion=GameResult.Exclusion.SAME_IP if note else "",
                    exclusion_note=note,
                    excluded_at=timezone.now() if note else None,
                )
        except IntegrityError:
            return GameResult.objects.get(game_id=game_id)
        GameResultSeat.objects.bulk_create(
            GameResultSeat(
                result=result,
                seat=seat.seat,
                user_id=seat.user_id,
                side=seat.side,
                won=seat.won,
                abandoned=seat.abandoned,
                ip_address=seat.ip_address or None,
                feats=list(seat.feats),
            )
            for seat in sorted(seats, key=lambda seat: seat.seat)
        )
        # Robust: a broker down at this moment must not fail the finished game; the sweep
        # awards it later.
        transaction.on_commit(lambda: _queue_award(game_id), robust=True)
    return result


def _queue_award(game_id: int) -> None:
    from kombu.exceptions import OperationalError

    from rankings.tasks import award_game

    try:
        award_game.delay(game_id)
    except OperationalError as exc:
        # The broker (Redis) is down: the award sweep pays this game once it is back.
        logger.warning("award of game %s not queued, the sweep will pay it: %r", game_id, exc)


ALL_TIME = date(1970, 1, 1)


def board_periods(when: datetime) -> list[tuple[str, date]]:
    """The leaderboard periods a moment falls in: all time, its week (from Monday, UTC) and
    its month.

    >>> thursday = datetime(2026, 11, 26, 23, 0, tzinfo=UTC)
    >>> [(period, str(start)) for period, start in board_periods(thursday)]
    [('all', '1970-01-01'), ('week', '2026-11-23'), ('month', '2026-11-01')]
    """
    day = when.astimezone(UTC).date()
    return [
        (BoardRow.Period.ALL.value, ALL_TIME),
        (BoardRow.Period.WEEK.value, day - timedelta(days=day.weekday())),
        (BoardRow.Period.MONTH.value, day.replace(day=1)),
    ]


def _board_add(result: GameResult, seats: Sequence[GameResultSeat], sign: int) -> None:
    """Add (sign 1) or take back (sign -1) a counting game's seats on every leaderboard row
    they belong to, in one statement. Rows are written in a fixed order, so two awards over
    the same players wait for each other instead of deadlocking."""
    rows = sorted(
        (seat.user_id, period, start, variant, seat)
        for seat in seats
        if seat.user_id is not None
        for period, start in board_periods(result.finished_at)
        for variant in ("", result.variant)
    )
    if not rows:
        return
    table = connection.ops.quote_name(BoardRow._meta.db_table)
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
    params: list = []
    for user_id, period, start, variant, seat in rows:
        params += [
            period,
            start,
            variant,
            user_id,
            sign * seat.xp,
            sign,
            sign * int(seat.credited_win),
            sign * seat.chips_net,
            seat.user.is_active,
        ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} "
            "(period, start, variant, user_id, xp, games, wins, chips, active) "
            f"VALUES {values} ON CONFLICT (period, start, variant, user_id) DO UPDATE SET "
            f"xp = {table}.xp + EXCLUDED.xp, games = {table}.games + EXCLUDED.games, "
            f"wins = {table}.wins + EXCLUDED.wins, chips = {table}.chips + EXCLUDED.chips "
            "RETURNING period, start, variant, user_id, games, active",
            params,
        )
        written = cursor.fetchall()
    # A row joins its board with its first game and leaves it with its last one taken back.
    counts: dict[tuple[str, date, str], int] = defaultdict(int)
    ranked = []
    for period, start, variant, user_id, games, active in written:
        if active and games == (1 if sign > 0 else 0):
            counts[(period, _as_date(start), variant)] += sign
            if period == BoardRow.Period.ALL and not variant:
                ranked.append(user_id)
    board_count_add(counts)
    if ranked:
        # The chips board's players are the all-time board's: their accounts say so.
        ChipAccount.objects.filter(kind=ChipAccount.Kind.PLAYER, user_id__in=ranked).update(
            ranked=sign > 0
        )


def _as_date(value) -> date:
    # SQLite hands a date back as its text.
    return value if isinstance(value, date) else date.fromisoformat(value)


def board_count_add(counts: dict[tuple[str, date, str], int]) -> None:
    """Add to the leaderboards' counts of players, in a fixed order (no deadlock)."""
    rows = sorted((key, delta) for key, delta in counts.items() if delta)
    if not rows:
        return
    table = connection.ops.quote_name(BoardCount._meta.db_table)
    params: list = []
    for (period, start, variant), delta in rows:
        params += [period, start, variant, delta]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (period, start, variant, players) VALUES "
            + ", ".join(["(%s, %s, %s, %s)"] * len(rows))
            + f" ON CONFLICT (period, start, variant) DO UPDATE SET "
            f"players = {table}.players + EXCLUDED.players",
            params,
        )


def _stakes_by_user(game_id: int) -> dict[int, int]:
    rows = (
        LedgerEntry.objects.filter(
            destination__game_id=game_id,
            destination__kind=ChipAccount.Kind.POT,
            transfer__reason=Reason.STAKE,
        )
        .values("source__user")
        .annotate(total=Sum("amount"))
        .order_by("source__user")
    )
    return {row["source__user"]: row["total"] for row in rows}


@transaction.atomic
def game_result_award(*, game_id: int) -> GameResult | None:
    """Pay a finished game's pot and XP and put it on the leaderboards, exactly once.

    Locks the result's row first: a second run, even at the same instant in another
    process, waits and then finds it awarded. The transfers, the XP events, the
    leaderboard rows and `awarded_at` commit together, or not at all. Every ledger key
    comes from the game id, so even a run that lost its lock cannot pay twice.
    Practice games get `awarded_at` and nothing else. A counting game also moves its
    players' ratings (rankings.ratings, which then takes the kind's lock) and may earn them
    trophies (rankings.trophies). None when no such result exists.
    """
    result = GameResult.objects.select_for_update().filter(game_id=game_id).first()
    if result is None or result.awarded_at is not None:
        return result
    seats = list(result.seats.select_related("user").order_by("seat"))
    if result.competitive:
        staked = _stakes_by_user(game_id)
        winners = [seat for seat in seats if seat.user_id and seat.credited_win]
        if staked:
            transfer = _settle_pot(
                game_id=game_id, winners=[seat.user for seat in winners], key=f"award:{game_id}:pot"
            )
            paid = {
                entry.destination.user_id: entry.amount
                for entry in transfer.entries.select_related("destination")
            }
        else:
            paid = {}
        for seat in seats:
            if seat.user_id is None:
                continue  # robots earn nothing
            seat.staked = staked.get(seat.user_id, 0)
            seat.chips = paid.get(seat.user_id, 0)
            seat.xp = xp_for_game(
                players=result.players,
                pairs=result.pairs,
                deals_to_win=result.deals_to_win,
                won=seat.credited_win,
            )
            xp_award(
                user=seat.user,
                amount=seat.xp,
                reason=XpEvent.Reason.WON if seat.credited_win else XpEvent.Reason.LOST,
                key=f"award:{game_id}:xp:{seat.user_id}",
                game_id=game_id,
            )
        GameResultSeat.objects.bulk_update(seats, ["staked", "chips", "xp"])
        if result.counts:
            _board_add(result, seats, sign=1)
            rating_award(result=result, seats=seats)
            trophies_award(result=result, seats=seats)
    result.awarded_at = timezone.now()
    result.save(update_fields=["awarded_at"])
    return result


def game_results_unawarded(*, older_than: timedelta = timedelta(0)) -> list[int]:
    """Game ids of results still waiting for their award, submitted before now - older_than."""
    return list(
        GameResult.objects.filter(
            awarded_at__isnull=True, submitted_at__lte=timezone.now() - older_than
        )
        .order_by("submitted_at")
        .values_list("game_id", flat=True)[:1000]
    )


class NotOnAnyBoard(ModerationError):
    """A practice game is on no leaderboard: there is nothing to exclude or count again."""


def _locked_board_result(result: GameResult) -> GameResult:
    """The result's row, locked; a practice game, on no board, is refused (`NotOnAnyBoard`)."""
    locked = GameResult.objects.select_for_update().get(pk=result.pk)
    if not locked.competitive:
        raise NotOnAnyBoard(
            _("Game %(game)s is a practice game: it is on no leaderboard, so nothing changed.")
            % {"game": locked.game_id}
        )
    return locked


@transaction.atomic
def game_result_exclude(*, result: GameResult, moderator: User, reason: str) -> bool:
    """A moderator takes a game off the leaderboards (collusion). Its chips and XP stay
    paid; the result and its seats stay. False when it was already excluded. Raises
    `NotOnAnyBoard` for a practice game. Logs the exclusion (who, when, the game, why).

    Locks the result's row, so an award running at the same moment either counted the game
    first (and this takes it back) or finds it excluded. The game's kind is rated again from
    this game on, without it (rankings.ratings.ratings_rerun). Trophies stay earned.
    """
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("Excluding a game needs a reason."))
    locked = _locked_board_result(result)
    if locked.exclusion:
        return False
    if locked.awarded_at is not None:
        _board_add(locked, list(locked.seats.select_related("user").order_by("seat")), sign=-1)
    locked.exclusion = GameResult.Exclusion.MODERATOR
    locked.exclusion_note = reason
    locked.excluded_by = moderator
    locked.excluded_at = timezone.now()
    locked.save(update_fields=["exclusion", "exclusion_note", "excluded_by", "excluded_at"])
    if locked.awarded_at is not None:
        ratings_rerun(result=locked)
    moderation_log(
        moderator=moderator,
        kind=ModerationAction.Kind.EXCLUDE,
        reason=reason,
        game_id=locked.game_id,
    )
    return True


@transaction.atomic
def game_result_include(*, result: GameResult, moderator: User, reason: str) -> bool:
    """A moderator counts an excluded game again ("Count it again"): it goes back on every
    leaderboard row it belongs to, as if it had never been excluded. Works on a game
    excluded by a moderator or for a shared address. False when it was counting already.
    Raises `NotOnAnyBoard` for a practice game. Logs the re-inclusion.

    Locks the result's row: an award running at the same moment either finds the game
    counting (and puts it on the boards itself) or has already been and this adds it. The
    game's kind is rated again from this game on, with it (rankings.ratings), and it earns
    the trophies it would have earned (rankings.trophies.trophies_recount).
    """
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("Counting a game again needs a reason."))
    locked = _locked_board_result(result)
    if not locked.exclusion:
        return False
    if locked.awarded_at is not None:
        _board_add(locked, list(locked.seats.select_related("user").order_by("seat")), sign=1)
    locked.exclusion = ""
    locked.exclusion_note = ""
    locked.excluded_by = None
    locked.excluded_at = None
    locked.save(update_fields=["exclusion", "exclusion_note", "excluded_by", "excluded_at"])
    if locked.awarded_at is not None:
        ratings_count_again(result=locked)
        trophies_recount(result=locked)
    moderation_log(
        moderator=moderator,
        kind=ModerationAction.Kind.INCLUDE,
        reason=reason,
        game_id=locked.game_id,
    )
    return True
