from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render

from games.models import Game


def game_detail(request, pk: int):
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    return render(request, "games/game_detail.html", {"game": game, "seats": game.seats.all()})


def game_record(request, pk: int):
    """The game record as JSON, for finished games only: a live one would show hidden cards."""
    game = get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED)
    response = JsonResponse(game.record, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="tute-game-{game.pk}.json"'
    return response
