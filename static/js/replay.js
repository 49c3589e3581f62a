/* The replay of a finished game: the server replayed its record through the engine and sent
   every position (all hands revealed); this script only steps through them, drawn from the
   viewer's own seat when they played in the game. On a phone a swipe steps it. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const names = JSON.parse(document.getElementById("replay-names").textContent);
  const { T, SUIT_NAMES, fmt, make, face, back, label, labelled } = window.tuteCards;
  const $ = (id) => document.getElementById(id);
  const n = data.players;
  const viewer = document.getElementById("replay-viewer");
  const me = viewer ? JSON.parse(viewer.textContent) : 0;
  let deal = 0;
  let step = 0;
  let stepped = false; // the first position drawn leaves the address as it came

  $("replay").hidden = false;
  $("replay-static").hidden = true; // the script shows the same deals step by step

  function describe(action, position) {
    if (!action) return fmt(T.dealt_step, { number: data.deals[deal].number });
    const user = names[action.seat];
    if ("play" in action) return fmt(T.play_step, { user, card: label(action.play) });
    if ("sing" in action) {
      const cante = [...position.cantes].reverse().find((c) => c.seat === action.seat);
      return fmt(T.sang, { user, value: cante ? cante.value : "", suit: SUIT_NAMES[action.sing] });
    }
    if ("tute" in action) return fmt(T.sang_tute, { user });
    if ("exchange" in action) return fmt(T.exchanged, { user, card: label(action.exchange) });
    if ("capote" in action) return fmt(action.capote ? T.capote : T.capote_declined, { user });
    if ("bid" in action) return fmt(T.bid_step, { user, n: action.bid });
    return "";
  }

  function sideNames(side) {
    return data.sides.map((s, seat) => (s === side ? names[seat] : null)).filter(Boolean).join(" & ");
  }

  function draw() {
    const steps = data.deals[deal].steps;
    const p = steps[step];
    $("replay-deal").value = String(deal);
    $("replay-counter").textContent = fmt(T.step_of, { n: step + 1, total: steps.length });
    $("replay-step").textContent = describe(p.action, p);
    const mark = $("replay-analysis"); // the analysis of this step's decision, when there is one
    if (mark) {
      mark.textContent = p.analysis ? p.analysis.text : "";
      mark.className = `replay-step analysis-line-text${p.analysis ? ` mark-${p.analysis.mark}` : ""}`;
    }
    $("replay-first").disabled = $("replay-prev").disabled = deal === 0 && step === 0;
    $("replay-last").disabled = $("replay-next").disabled =
      deal === data.deals.length - 1 && step === steps.length - 1;

    const felt = $("replay-felt");
    felt.querySelectorAll(".seat-box, .scoreboard, .summary").forEach((node) => node.remove());
    for (let seat = 0; seat < n; seat++) {
      const box = make("div", `seat-box pos-${window.tuteCards.position(seat, n, me)}`);
      if (p.turn === seat) box.classList.add("turn");
      box.append(make("div", "seat-name", names[seat]));
      const meta = make("div", "seat-meta");
      if (data.deals[deal].dealer === seat) meta.append(make("span", "dealer-chip", T.dealer));
      meta.append(make("span", "", fmt(T.tricks_won, { n: p.tricks_won[seat] })));
      if (p.bids && p.bids[seat] !== null) meta.append(make("span", "", labelled(T.bids, p.bids[seat])));
      box.append(meta);
      const hand = make("div", "replay-hand");
      hand.setAttribute("role", "group");
      hand.setAttribute("aria-label", names[seat]);
      for (const code of p.hands[seat]) {
        const mini = make("span", "mini");
        mini.append(face(code));
        hand.append(mini);
      }
      box.append(hand);
      felt.append(box);
    }
    const trick = $("replay-trick");
    trick.replaceChildren();
    trick.classList.toggle("taken", p.trick_closed);
    for (const played of p.trick) {
      const slot = make("div", `played pos-${window.tuteCards.position(played.seat, n, me)}`);
      slot.append(face(played.card));
      trick.append(slot);
    }
    const trump = $("replay-trump");
    trump.replaceChildren();
    if (p.stock_size > 0) {
      const pile = make("div", "stock-pile");
      pile.append(back(), make("span", "stock-count", fmt(T.stock, { n: p.stock_size })));
      trump.append(pile);
    }
    if (p.trump_card) {
      const card = make("div", "trump-card");
      card.append(face(p.trump_card));
      trump.append(card, make("span", "trump-label", labelled(T.trump, SUIT_NAMES[p.trump_card.slice(-1)])));
    }
    const sides = [...p.score.keys()];
    const board = window.tuteCards.table("scoreboard", ["", T.points, T.score],
      sides.map((side) => [sideNames(side), p.points[side], p.score[side]]));
    felt.append(board);
    drawSummary(steps, p);
    if (stepped) keepAnchor();
  }

  function drawSummary(steps, p) {
    $("replay").querySelector(".summary")?.remove();
    if (step !== steps.length - 1) return;
    const summary = data.deals[deal].summary;
    const box = make("section", "summary");
    box.append(make("h3", "", fmt(T.deal_over, { number: data.deals[deal].number })));
    const sides = [...p.score.keys()];
    const table = window.tuteCards.table("summary-table", ["", T.points, T.cantes],
      sides.map((side) => [
        sideNames(side),
        summary.points ? summary.points[side] : "–",
        (summary.cantes[side] || []).map((c) => `${c.value} ${SUIT_NAMES[c.suit]}`).join(", ") || T.none,
      ]));
    if (summary.winner !== null) table.rows[summary.winner + 1].classList.add("winner");
    box.append(table);
    box.append(make("p", "winner-line", summary.winner === null ? T.no_winner
      : fmt(T.winner, { who: sideNames(summary.winner) })));
    $("replay-felt").after(box);
  }

  function go(delta) {
    const steps = data.deals[deal].steps;
    if (delta > 0) {
      if (step < steps.length - 1) step += 1;
      else if (deal < data.deals.length - 1) { deal += 1; step = 0; }
    } else if (step > 0) step -= 1;
    else if (deal > 0) { deal -= 1; step = data.deals[deal].steps.length - 1; }
    draw();
  }

  // A position's address, #replay-deal-D-step-S (games/analysis.py's replay_anchor): the
  // analysis links each decision to it, and stepping keeps it, so that a position can be
  // linked or reloaded.
  const ANCHOR = /^#replay-deal-(\d+)-step-(\d+)$/;
  function openAnchor() {
    const found = ANCHOR.exec(window.location.hash);
    if (!found) return false;
    const at = data.deals.findIndex((d) => d.number === Number(found[1]));
    if (at < 0) return false;
    deal = at;
    step = Math.min(Math.max(Number(found[2]) - 1, 0), data.deals[deal].steps.length - 1);
    draw();
    $("replay").scrollIntoView({ block: "start" });
    return true;
  }
  function keepAnchor() {
    const hash = `#replay-deal-${data.deals[deal].number}-step-${step + 1}`;
    if (window.location.hash !== hash && (window.location.hash === "" || ANCHOR.test(window.location.hash))) {
      history.replaceState(null, "", hash);
    }
  }
  window.addEventListener("hashchange", openAnchor);

  $("replay-next").addEventListener("click", () => go(1));
  $("replay-prev").addEventListener("click", () => go(-1));
  $("replay-first").addEventListener("click", () => { deal = 0; step = 0; draw(); });
  $("replay-last").addEventListener("click", () => {
    deal = data.deals.length - 1;
    step = data.deals[deal].steps.length - 1;
    draw();
  });
  $("replay-deal").addEventListener("change", (event) => { deal = Number(event.target.value); step = 0; draw(); });
  // A swipe across the felt: to the left for the next step, to the right for the one before.
  let touch = null;
  $("replay-felt").addEventListener("touchstart", (event) => {
    touch = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  $("replay-felt").addEventListener("touchend", (event) => {
    if (!touch) return;
    const dx = event.changedTouches[0].clientX - touch.x;
    const dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? 1 : -1);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves) { go(moves[event.key]); event.preventDefault(); }
    if (event.key === "Home") { $("replay-first").click(); event.preventDefault(); }
    if (event.key === "End") { $("replay-last").click(); event.preventDefault(); }
  });
  if (!openAnchor()) draw();
  stepped = true;
  legendsUnderCharts();
});

// Each analysis chart's legend, drawn in the SVG, shrinks with it on a phone until it cannot
// be read: its names move under the chart as text of the page's own size, in their colours.
function legendsUnderCharts() {
  for (const chart of document.querySelectorAll("figure.chart")) {
    const names = [...chart.querySelectorAll("svg text[class*='side-']")];
    if (!names.length) continue;
    const legend = document.createElement("figcaption");
    legend.className = "chart-legend";
    for (const name of names) {
      const item = document.createElement("span");
      item.className = `legend-item ${[...name.classList].find((c) => c.startsWith("side-"))}`;
      item.textContent = name.textContent;
      legend.append(item);
      name.remove();
    }
    chart.append(legend);
  }
}
