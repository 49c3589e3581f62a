"""Pages for finding a game: practice (for guests too), "Play now", the invitations and the
friends list. Each parses what it receives and calls one service of the live-play wing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import selectors as account_selectors
from accounts.ip import client_ip
from accounts.services import guest_create
from games.forms import PlayNowForm, PracticeForm
from games.options import OPTION
from games.table import matchmaking, people, seating
from games.table.refusals import TableError


def finding_context(request) -> dict:
    """What the home page and the lobby offer first: practice, and "Play now" with how many
    wait for a table of each variant."""
    waiting = matchmaking.waiting_by_variant()
    return {
        "practice_form": PracticeForm(),
        "play_now_form": PlayNowForm(),
        "play_now_waiting": [
            (label, waiting[code])
            for code, label in OPTION["variant"].value_labels.items()
            if waiting.get(code)
        ],
    }


@require_POST
def practice(request):
    """Practice against robots at once. A visitor without an account plays as a guest: no
    account, nothing staked or ranked (games/table/guests.py)."""
    form = PracticeForm(request.POST)
    if not form.is_valid():
        context = {**finding_context(request), "practice_form": form}
        return render(request, "games/practice.html", context, status=400)
    user = request.user
    if not user.is_authenticated:
        user = guest_create()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    try:
        table = seating.table_practice(
            master=user, options=form.cleaned_data, ip_address=client_ip(request)
        )
    except TableError as error:
        form.add_error(None, str(error.message))
        context = {**finding_context(request), "practice_form": form}
        return render(request, "games/practice.html", context, status=400)
    return redirect(table)


@login_required
@require_POST
def play_now(request):
    """ "Play now" without the lobby's socket: seated at a fitting table, or at a new one."""
    form = PlayNowForm(request.POST)
    if form.is_valid():
        try:
            table = matchmaking.play_now(
                user=request.user,
                variant=form.cleaned_data["variant"],
                stake=form.cleaned_data["stake"],
                robots=form.cleaned_data["robots"],
                ip_address=client_ip(request),
            )
        except TableError as error:
            messages.error(request, str(error.message))
        else:
            return redirect(table)
    else:
        messages.error(request, str(form.errors.as_text()))
    return redirect("table_list")


def _player(request):
    if not request.user.is_authenticated:
        return None
    if request.user.is_guest:
        raise PermissionDenied
    return request.user


@login_required
def invitations(request):
    """The player's invitations, each with Accept (sit down) and Decline."""
    user = _player(request)
    if request.method == "POST":
        invitation = request.POST.get("invitation", "")
        answer = request.POST.get("answer")
        try:
            if not invitation.isdigit():
                raise TableError("invalid", "")
            if answer == "decline":
                people.invitation_decline(user=user, invitation_id=int(invitation))
            else:
                table = people.pending_invitations(user=user).get(pk=int(invitation)).table
                seating.table_sit(table_id=table.pk, user=user, ip_address=client_ip(request))
                return redirect(table)
        except TableError as error:
            if error.message:
                messages.error(request, str(error.message))
        except people.Invitation.DoesNotExist:
            pass
        return redirect("invitations")
    rows = people.pending_invitations(user=user)
    return render(request, "games/invitations.html", {"invitations": rows})


@login_required
def friends(request):
    """The player's friends: who is online, at which table, with "Invite" and "Watch"; and
    first the requests waiting for their answer, with Accept and Decline."""
    user = _player(request)
    mine = (
        seating.Table.objects.filter(master=user, status=seating.Table.Status.OPEN)
        .order_by("-created_at")
        .first()
    )
    context = {
        "friends": people.friends_status(user=user),
        "my_table": mine,
        "requests_received": account_selectors.friend_requests_received(user=user),
    }
    return render(request, "games/friends.html", context)


@require_POST
def guest_signup(request):
    """A guest who signs up (or logs in, `to=login`): the visit's guest is left behind (it
    is swept once idle) and a new account starts as any new player's."""
    if request.user.is_authenticated and request.user.is_guest:
        logout(request)
    return redirect("account_login" if request.POST.get("to") == "login" else "account_signup")
