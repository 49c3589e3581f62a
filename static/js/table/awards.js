/* A finished game's awards as its summary lists them (`/games/<id>/awards.json`): the pot
   and the bank's share, what each player staked and received and their XP, why the game
   counts for no leaderboard, the rating changes and new trophies, and at an arena's table
   the points each player's game earned in the arena (doubled on a streak). A provisional rating is
   shown with a "?" (rankings/selectors.py): a line under them says what it means. */
import { T, fmt } from "./dom.js";

export function awardLines(awards, provisional = "") {
  if (!awards) return [];
  const lines = [];
  if (awards.competitive && awards.pot) {
    lines.push(["chips-pot", fmt(T.pot_line, { pot: awards.pot, bank: awards.bank, cut: T.bank_cut })]);
  }
  for (const s of awards.seats) {
    const paid = s.paid;
    if (paid && awards.competitive && paid.staked) {
      lines.push(["chips-paid", fmt(T.paid_line, { user: s.user, ...paid })]);
    } else if (paid && paid.xp) {
      lines.push(["xp-paid", fmt(T.xp_line, { user: s.user, xp: paid.xp })]);
    }
    if (s.arena) {
      const line = s.arena.doubled ? T.arena_points_doubled : T.arena_points;
      lines.push(["arena-points", fmt(line, { user: s.user, points: s.arena.points, arena: awards.arena.name })]);
    }
    if (s.rating) {
      lines.push(["rating-change", fmt(T.rating_change, { user: s.user, rating: s.rating.shown, change: s.rating.change })]);
    }
    for (const name of s.trophies) lines.push(["new-trophy", fmt(T.new_trophy, { user: s.user, trophy: name })]);
  }
  if (provisional && awards.seats.some((s) => s.rating && String(s.rating.shown).endsWith("?"))) {
    lines.push(["rating-legend", `? ${provisional}`]);
  }
  if (awards.excluded) lines.push(["excluded", awards.excluded]);
  return lines;
}
