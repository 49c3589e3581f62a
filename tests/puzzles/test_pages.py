"""The puzzle pages as a player gets them: a right card answered with the solver's reply, a
wrong one with its refutation, a hint, the solution; bad input refused with nothing changed;
the first try rated by openskill as documented, the next ones not; puzzles served near the
player's rating without repeats, by theme; the day's puzzle; the profile's history."""

import pytest
from django.test import Client

from games.puzzles.mining import action_key
from games.puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleRating
from games.puzzles.services import rate
from rankings.rating_math import MODEL, shown_value
from tests.support.factories import UserFactory
from tests.support.mined import mine_games
from tests.support.stored_games import stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzles():
    return mine_games(seeds=range(1, 25), variants=("habanero",))


def wrong_of(puzzle, step=0):
    return next(iter(puzzle.steps[step]["wrong"]))


def move(client, puzzle, step, action, **extra):
    return client.post(f"/puzzles/{puzzle.pk}/move/", {"step": step, "action": action}, **extra)


def solve(client, puzzle):
    client.get(f"/puzzles/{puzzle.pk}/")
    for step, data in enumerate(puzzle.steps):
        response = move(client, puzzle, step, action_key(data["best"]))
        assert response.status_code == 200
    return response


def test_a_right_card_gets_the_solvers_reply_and_solves_it_rated_as_documented(puzzles):
    puzzle = puzzles[0]
    player = UserFactory(username="lola")
    client = Client()
    client.force_login(player)
    page = client.get(f"/puzzles/{puzzle.pk}/").content.decode()
    assert "Find the best move" in page and "Puzzle rated 1000" in page
    html = solve(client, puzzle).content.decode()
    assert "Solved!" in html
    # The rating moved as openskill rates a game won against the puzzle (docs/puzzles.md).
    (mu, sigma), (pmu, psigma) = rate((MODEL.mu, MODEL.sigma), (MODEL.mu, MODEL.sigma), True)
    rating = PuzzleRating.objects.get(user=player)
    assert (rating.mu, rating.sigma, rating.tries, rating.solved) == (mu, sigma, 1, 1)
    after = shown_value(mu, sigma)
    assert after > 1000
    assert f"Your puzzle rating: 1000 → {after} (+{after - 1000})." in html
    puzzle.refresh_from_db()
    assert (puzzle.mu, puzzle.sigma, puzzle.tries, puzzle.solved) == (pmu, psigma, 1, 1)
    assert pmu < MODEL.mu
    attempt = PuzzleAttempt.objects.get(user=player, puzzle=puzzle)
    assert attempt.solved and attempt.rating_after == after
    # Again: practice, not rated a second time.
    html = solve(client, puzzle).content.decode()
    assert "this one is practice" in html
    assert PuzzleAttempt.objects.filter(user=player).count() == 1
    assert PuzzleRating.objects.get(user=player).tries == 1


def test_a_wrong_card_gets_the_refutation_and_counts_as_a_miss(puzzles):
    puzzle = puzzles[0]
    player = UserFactory()
    client = Client()
    client.force_login(player)
    client.get(f"/puzzles/{puzzle.pk}/")
    wrong = wrong_of(puzzle)
    html = move(client, puzzle, 0, wrong).content.decode()
    assert "Not the best" in html and "Best play on both sides from there" in html
    assert 'class="outcome"' in html
    (mu, sigma), _puzzle = rate((MODEL.mu, MODEL.sigma), (MODEL.mu, MODEL.sigma), False)
    after = shown_value(mu, sigma)
    assert after < 1000
    assert f"Your puzzle rating: 1000 → {after} ({after - 1000})." in html
    # Then the right card: the puzzle goes on but the try stays a miss.
    solve(client, puzzle)
    attempt = PuzzleAttempt.objects.get(user=player, puzzle=puzzle)
    assert not attempt.solved
    assert PuzzleRating.objects.get(user=player).solved == 0


def test_a_hint_names_the_suit_and_counts_as_a_miss(puzzles):
    puzzle = next(p for p in puzzles if "play" in p.steps[0]["best"])
    player = UserFactory()
    client = Client()
    client.force_login(player)
    client.get(f"/puzzles/{puzzle.pk}/")
    html = client.post(f"/puzzles/{puzzle.pk}/hint/", HTTP_HX_REQUEST="true").content.decode()
    suit = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}[
        puzzle.steps[0]["best"]["play"][-1]
    ]
    assert f"The right card is of {suit}." in html
    assert not html.lstrip().startswith("<!DOCTYPE")  # htmx gets the board alone
    solve(client, puzzle)
    attempt = PuzzleAttempt.objects.get(user=player, puzzle=puzzle)
    assert attempt.hint and not attempt.solved


def test_the_solution_shows_the_line_and_counts_as_a_miss(puzzles):
    puzzle = puzzles[0]
    player = UserFactory()
    client = Client()
    client.force_login(player)
    client.get(f"/puzzles/{puzzle.pk}/")
    html = client.post(f"/puzzles/{puzzle.pk}/solution/").content.decode()
    assert "The solution" in html and "Puzzle over." in html
    assert not PuzzleAttempt.objects.get(user=player).solved


@pytest.mark.parametrize(
    ("action", "status", "message"),
    [
        ("play:9X", 400, "That is not a move."),
        ("nonsense", 400, "That is not a move."),
        ("bid:3", 400, "That is not a move."),
        ("tute:12", 400, "That move is not allowed now."),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(puzzles, action, status, message):
    puzzle = puzzles[0]
    player = UserFactory()
    client = Client()
    client.force_login(player)
    client.get(f"/puzzles/{puzzle.pk}/")
    response = move(client, puzzle, 0, action)
    assert response.status_code == status
    assert message in response.content.decode()
    assert not PuzzleAttempt.objects.exists() and not PuzzleRating.objects.exists()
    assert "Solved!" in solve(client, puzzle).content.decode()


def test_a_card_not_in_hand_and_a_move_out_of_turn_are_refused(puzzles):
    puzzle = next(p for p in puzzles if "play" in p.steps[0]["best"])
    client = Client()
    client.get(f"/puzzles/{puzzle.pk}/")
    held = set(puzzle.record["deals"][-1]["hands"][1 - puzzle.seat])
    theirs = sorted(held)[0]
    response = move(client, puzzle, 0, f"play:{theirs}")
    assert response.status_code == 400
    assert "That card cannot be played now." in response.content.decode(), (
        response.content.decode()[-3000:]
    )
    response = move(client, puzzle, 3, action_key(puzzle.steps[0]["best"]))
    assert response.status_code == 409
    assert "The puzzle has moved on" in response.content.decode()
    # A visitor without an account plays too, and nothing is rated.
    assert "Solved!" in solve(client, puzzle).content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_puzzles_are_served_near_the_rating_by_theme_without_repeats(puzzles):
    player = UserFactory()
    client = Client()
    client.force_login(player)
    far = puzzles[0]
    Puzzle.objects.filter(pk=far.pk).update(mu=40.0)
    served = []
    for _ in range(len(puzzles)):
        response = client.get("/puzzles/")
        assert response.status_code == 302
        pk = int(response["Location"].strip("/").split("/")[-1])
        assert pk not in served
        served.append(pk)
        solve(client, Puzzle.objects.get(pk=pk))
    assert served[-1] == far.pk  # the one rated far from the player comes last
    page = client.get("/puzzles/", follow=True).content.decode()
    assert "No puzzle is waiting for you" in page
    theme = puzzles[0].themes.values_list("code", flat=True).first()
    other = Client()
    response = other.get(f"/puzzles/?theme={theme}")
    pk = int(response["Location"].split("?")[0].strip("/").split("/")[-1])
    assert Puzzle.objects.get(pk=pk).themes.filter(code=theme).exists()


def test_the_home_page_shows_the_days_puzzle_and_how_many_solved_it(puzzles):
    client = Client()
    html = client.get("/").content.decode()
    daily = DailyPuzzle.objects.get()
    assert "Puzzle of the day" in html and f'href="/puzzles/{daily.puzzle_id}/"' in html
    assert "0 players solved it." in html
    for name in ("ana", "bea"):
        solver = Client()
        solver.force_login(UserFactory(username=name))
        solve(solver, daily.puzzle)
    assert "2 players solved it." in client.get("/").content.decode()
    assert DailyPuzzle.objects.count() == 1  # the same for everyone that day
    assert client.get("/puzzles/daily/")["Location"] == f"/puzzles/{daily.puzzle_id}/"


def test_the_profile_shows_the_puzzle_history(puzzles):
    player = UserFactory(username="marta")
    client = Client()
    client.force_login(player)
    solve(client, puzzles[0])
    client.get(f"/puzzles/{puzzles[1].pk}/")
    move(client, puzzles[1], 0, wrong_of(puzzles[1]))
    html = Client().get("/players/marta/").content.decode()
    assert 'id="puzzles-solved">1<' in html and 'id="puzzles-failed">1<' in html
    rating = PuzzleRating.objects.get(user=player)
    assert f'id="puzzle-rating">{shown_value(rating.mu, rating.sigma)}<' in html
    assert 'class="rating-chart"' in html
    missed = puzzles[1].themes.values_list("code", flat=True)
    if missed:
        assert "Themes missed most:" in html


def test_a_game_without_puzzles_leaves_the_puzzles_page_saying_so():
    stored_game(2, "tute")
    html = Client().get("/puzzles/", follow=True).content.decode()
    assert "No puzzle is waiting for you" in html
