/* The live table: draws everything from the table socket's `state` frames (docs/protocol.md)
   and sends the player's requests back. The server is the authority: this script offers only
   what `view.legal_actions` lists and never decides a rule itself. No framework, no build. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const app = document.getElementById("table-app");
  if (!app) return;
  const { T, SUIT_NAMES, fmt, make, face, back } = window.tuteCards;
  const cardLabel = window.tuteCards.label;
  const $ = (id) => document.getElementById(id);

  let S = null; // the last state frame drawn
  let received = 0; // when it arrived: countdowns run from its `seconds`
  let showLastTrick = false;
  let noticeTimer = null;

  const socket = window.tuteSocket(app.dataset.socket, {
    onMessage,
    onStatus,
    stopCodes: [4403, 4404],
  });

  function onStatus(status) {
    const line = $("connection");
    line.dataset.state = status;
    line.hidden = status === "open";
    line.textContent = { gone: T.gone, offline: T.offline, connecting: T.connecting }[status] || "";
  }

  function send(message) {
    if (!socket.send(message)) showError(T.offline);
    return true;
  }

  function onMessage(frame) {
    if (frame.type === "state") {
      const previous = S;
      // An older frame than the one drawn (a push that crossed a sync's answer): drop it.
      if (previous !== null && frame.version < previous.version) return;
      // Every push is the table's next version; a jump means a push was lost: ask for the
      // whole state (docs/protocol.md, "Resynchronising").
      const jumped =
        previous !== null && frame.event !== null && frame.version > previous.version + 1;
      S = frame;
      received = Date.now();
      draw(previous);
      announce(frame.event, previous);
      if (jumped) send({ type: "sync" });
    } else if (frame.type === "chat") {
      addChat(frame.message);
    } else if (frame.type === "mute") {
      loadMute(); // a moderator muted or unmuted this player just now
    } else if (frame.type === "error") {
      if (frame.code === "muted") {
        loadMute(); // the chat box says until when and why, in its place
        return;
      }
      showError(frame.message, frame);
      if (S) {
        drawHand();
        drawActions();
        drawCancel();
        drawGameControls();
      }
    }
  }

  // ------------------------------------------------------------------ helpers on the state
  const view = () => (S && S.game ? S.game.view : null);
  const mySeat = () => (S && S.you ? S.you.seat : null);
  const robotName = (robot) => fmt(T.robot_seat, { robot });
  const tableName = (entry) => (entry ? entry.user || robotName(entry.robot) : T.free_seat);
  // Who plays each seat of the game now (robots, away players…): `game.seats`.
  const gameOn = () => !!(S && S.game && S.game.status === "playing");
  const cancelled = () => !!(S && S.game && S.game.status === "cancelled");
  const gameSeat = (seat) =>
    (S.game && S.game.seats ? S.game.seats.find((g) => g.seat === seat) : null) || null;
  // The game's player keeps their name on the game's seat even after leaving the table.
  const seatName = (seat) => {
    const played = gameSeat(seat);
    if (played && played.user) return played.user;
    const entry = S.table.seats[seat];
    if (entry) return tableName(entry);
    return played ? robotName(played.robot) : T.free_seat;
  };
  // What everyone should know about a player's seat: away, abandoned, a robot in their place.
  const seatFlag = (seat) => {
    const played = gameSeat(seat);
    if (!played || !played.user) return null;
    if (played.abandoned) return ["abandoned", T.abandoned];
    if (!gameOn()) return null;
    if (played.away) return ["away", T.away];
    if (played.robot) return ["robot-plays", T.robot_plays];
    return null;
  };
  const isRobotSeat = (seat) => {
    const entry = S.table.seats[seat];
    const played = gameSeat(seat);
    return played ? !played.user : !!(entry && !entry.user);
  };
  const secondsLeft = (timer) =>
    Math.max(0, Math.ceil(timer.seconds - (Date.now() - received) / 1000));
  const deadline = () => (gameOn() ? S.game.deadline : null);
  // Seats follow the table's options; a finished game played with other options (the master
  // changed them since) is left out of the table's drawing but still summed up below it.
  const playersCount = () => S.table.options.players;
  const feltView = () => (view() && view().players === playersCount() ? view() : null);
  const sides = () => (view() ? view().sides : [...Array(playersCount()).keys()]);
  const sideNames = (side) =>
    sides()
      .map((s, seat) => (s === side ? seatName(seat) : null))
      .filter((name) => name !== null)
      .join(" & ");
  const running = () => S.table.status === "playing";
  const legal = () => (view() && gameOn() ? view().legal_actions : []);

  const position = (seat) => window.tuteCards.position(seat, playersCount(), mySeat());

  // ------------------------------------------------------------------ drawing
  function draw(previous) {
    app.dataset.status = S.table.status;
    app.dataset.count = String(S.count);
    drawSeatsPanel();
    drawMasterPanel(previous);
    drawFelt();
    drawHand();
    drawActions();
    drawStatus();
    drawSummary();
    drawCancel();
    drawGameControls();
    tick();
    drawLastTrick();
    drawChat();
    drawChatForm();
  }

  function drawFelt() {
    const felt = $("felt");
    felt.className = `felt players-${playersCount()}`;
    felt.querySelectorAll(".seat-box").forEach((node) => node.remove());
    const v = feltView();
    for (let seat = 0; seat < playersCount(); seat++) {
      const box = make("div", `seat-box pos-${position(seat)}`);
      if (v && v.turn === seat && !v.needs_deal && !v.game_over) box.classList.add("turn");
      if (seat === mySeat()) box.classList.add("me");
      const entry = S.table.seats[seat];
      const name = make("div", "seat-name");
      if (entry && entry.user && entry.user === S.table.master) {
        const star = make("span", "star", "★");
        star.title = T.master;
        star.setAttribute("aria-label", T.master);
        name.append(star, " ");
      }
      const robot = isRobotSeat(seat);
      if (robot) {
        // "Robot" and its level on a line of its own: the side seats are narrow on a phone.
        box.classList.add("robot");
        const level = (entry && entry.robot) || (gameSeat(seat) || {}).robot || "";
        name.append(robotIcon(), T.robot, make("span", "robot-level", level));
      } else {
        name.append(gameOn() ? seatName(seat) : tableName(entry));
      }
      if (seat === mySeat()) name.append(make("span", "you-tag", ` (${T.you})`));
      box.append(name);
      appendFlagAndClock(box, seat);
      if (v) {
        const meta = make("div", "seat-meta");
        if (v.dealer === seat) meta.append(make("span", "dealer-chip", T.dealer));
        meta.append(make("span", "tricks-won", fmt(T.tricks_won, { n: v.tricks_won[seat] })));
        for (const cante of v.cantes.filter((c) => c.seat === seat)) {
          meta.append(make("span", "cante-chip", `${cante.value} ${SUIT_NAMES[cante.suit]}`));
        }
        if (v.bids && v.bids[seat] !== null) {
          meta.append(make("span", "bid", `${T.bids}: ${v.bids[seat]}`));
        }
        box.append(meta);
        if (seat !== mySeat() && v.hand_sizes[seat] > 0) {
          const fan = make("div", "seat-cards");
          fan.title = fmt(T.hand_sizes, { n: v.hand_sizes[seat] });
          for (let i = 0; i < v.hand_sizes[seat]; i++) fan.append(back());
          box.append(fan);
        }
      }
      felt.append(box);
    }
    drawScoreboard(felt, v);
    drawCenter(v);
  }

  // A robot's head, drawn inline: no emoji font needed.
  const ROBOT_SVG = '<svg viewBox="0 0 24 24" width="1em" height="1em" focusable="false">'
    + '<path d="M12 2v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    + '<circle cx="12" cy="2.5" r="1.5" fill="currentColor"/>'
    + '<rect x="3.5" y="7" width="17" height="13" rx="3.5" fill="none" stroke="currentColor" stroke-width="2"/>'
    + '<circle cx="9" cy="12.5" r="1.8" fill="currentColor"/><circle cx="15" cy="12.5" r="1.8" fill="currentColor"/>'
    + '<path d="M9 16.5h6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
  function robotIcon() {
    const icon = make("span", "robot-icon");
    icon.setAttribute("aria-hidden", "true");
    icon.innerHTML = ROBOT_SVG;
    return icon;
  }

  // The seat's marker (away, abandoned, robot playing) and, on the seat waited for, its
  // countdown (filled in by tick()).
  function appendFlagAndClock(node, seat) {
    const flag = seatFlag(seat);
    if (flag) node.append(make("span", `seat-flag flag-${flag[0]}`, flag[1]));
    // A player's move timer only: a robot's short pause before its move is no countdown.
    const timer = deadline();
    if (timer && timer.kind === "move" && timer.seat === seat) {
      const clock = make("span", "countdown");
      clock.setAttribute("role", "timer");
      node.append(clock);
    }
  }

  function drawScoreboard(felt, v) {
    felt.querySelector(".scoreboard")?.remove();
    if (!v) return;
    const points = v.hand_scores || v.points;
    const board = window.tuteCards.table("scoreboard", ["", T.points, T.score],
      [...v.score.keys()].map((side) => [
        v.pairs ? fmt(T.team, { n: side + 1 }) : sideNames(side),
        points ? points[side] : "–",
        v.score[side],
      ]));
    felt.append(board);
  }

  function drawCenter(v) {
    const trick = $("trick");
    trick.replaceChildren();
    const trump = $("trump");
    trump.replaceChildren();
    if (!v) {
      trick.append(make("p", "felt-message", statusText()));
      return;
    }
    let played = v.trick;
    let taken = false;
    if (!played.length && v.tricks.length) {
      // A trick just ended: its cards stay on show until the next card is played.
      played = v.tricks[v.tricks.length - 1];
      taken = true;
    }
    trick.classList.toggle("taken", taken);
    for (const p of played) {
      const slot = make("div", `played pos-${position(p.seat)}`);
      slot.append(face(p.card));
      slot.setAttribute("aria-label", `${seatName(p.seat)}: ${cardLabel(p.card)}`);
      trick.append(slot);
    }
    if (v.trump_card) {
      const card = make("div", "trump-card");
      card.append(face(v.trump_card));
      if (v.stock_size > 0 || v.trump_in_stock) {
        const pile = make("div", "stock-pile");
        pile.append(back());
        pile.append(make("span", "stock-count", fmt(T.stock, { n: v.stock_size })));
        trump.append(pile);
      }
      trump.append(card);
    }
    if (v.trump_suit) {
      trump.append(make("span", "trump-label", `${T.trump}: ${SUIT_NAMES[v.trump_suit]}`));
    }
  }

  function drawHand() {
    const hand = $("hand");
    const focused = document.activeElement && hand.contains(document.activeElement)
      ? document.activeElement.dataset.card : null;
    hand.replaceChildren();
    const v = view();
    hand.hidden = !(v && v.hand && v.hand.length) || cancelled();
    if (!v || !v.hand || cancelled()) return;
    const plays = new Map();
    for (const a of legal()) if ("play" in a) plays.set(a.play, a);
    const cards = window.tuteCards.sort(v.hand);
    hand.dataset.cards = cards.join(" ");
    for (const code of cards) {
      const button = make("button", "card-btn");
      button.type = "button";
      button.dataset.card = code;
      button.setAttribute("aria-label", cardLabel(code));
      button.append(face(code));
      const action = plays.get(code);
      if (action) {
        button.classList.add("playable");
        button.addEventListener("click", () => act(action));
      } else {
        button.disabled = true;
        // On the player's turn, the cards they may not play look dimmed.
        if (plays.size) button.classList.add("illegal");
      }
      hand.append(button);
    }
    hand.classList.toggle("my-turn", plays.size > 0);
    if (focused) {
      const again = hand.querySelector(`[data-card="${focused}"]:not([disabled])`)
        || hand.querySelector("button:not([disabled])");
      if (again) again.focus();
    }
  }

  // Arrow keys move between the cards of the hand; Enter or Space plays the focused one.
  $("hand").addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    const buttons = [...$("hand").querySelectorAll("button:not([disabled])")];
    const at = buttons.indexOf(document.activeElement);
    if (!buttons.length) return;
    const step = event.key === "ArrowRight" ? 1 : -1;
    buttons[(at + step + buttons.length) % buttons.length].focus();
    event.preventDefault();
  });

  function actionLabel(a) {
    const v = view();
    if ("sing" in a) {
      return fmt(T.sing, { value: a.sing === v.trump_suit ? 40 : 20, suit: SUIT_NAMES[a.sing] });
    }
    if ("tute" in a) return a.tute === "12" ? T.tute_12 : T.tute_11;
    if ("exchange" in a) return fmt(T.exchange, { card: cardLabel(a.exchange) });
    if ("capote" in a) return a.capote ? T.capote_yes : T.capote_no;
    if ("bid" in a) return fmt(T.bid, { n: a.bid });
    return "";
  }

  function drawActions() {
    const box = $("actions");
    box.replaceChildren();
    for (const a of legal()) {
      if ("play" in a) continue;
      const kind = Object.keys(a).find((k) => k !== "seat");
      const button = make("button", `action-btn action-${kind}`, actionLabel(a));
      button.type = "button";
      button.dataset.action = JSON.stringify(a);
      button.addEventListener("click", () => act(a));
      box.append(button);
    }
    box.hidden = !box.children.length;
  }

  function act(action) {
    // One request per state drawn: the buttons wait for the answer (a double click never
    // sends twice, and `count` makes the server refuse an action on an old screen).
    $("hand").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    $("actions").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    hideError();
    send({ type: "act", action, count: S.count });
  }

  function statusText() {
    const v = view();
    const me = mySeat();
    const gameRunning = running() && v && !v.game_over;
    if (S.table.status === "closed") return closedText();
    if (!gameRunning) {
      if (cancelled()) return T.cancelled;
      if (v && v.game_over) return S.you.master ? T.ended : `${T.ended} ${T.wait_new_game}`;
      if (S.table.free_seats > 0) return fmt(T.waiting_players, { free: S.table.free_seats });
      return S.you.master ? T.ready_master : T.ready;
    }
    if (v.needs_deal) return fmt(T.deal_over, { number: v.deal_number + 1 });
    const prefix = me === null ? `${T.watching} ` : "";
    const mine = me !== null ? gameSeat(me) : null;
    if (mine && !mine.abandoned && mine.timeouts >= 3) return T.robot_holds_seat;
    if (me !== null && v.turn === me) {
      return v.phase === "bid" || legal().some((a) => "bid" in a) ? T.your_turn_bid : T.your_turn;
    }
    if (me !== null && v.cante_open.includes(me) && legal().length) return T.may_sing;
    if (v.turn !== null) return prefix + fmt(T.waiting_for, { user: seatName(v.turn) });
    return prefix;
  }

  function drawStatus() {
    const line = $("status");
    line.textContent = statusText();
    const v = view();
    line.classList.toggle("my-turn", !!(v && legal().length));
  }

  function drawSummary() {
    const box = $("summary");
    const v = view();
    box.replaceChildren();
    if (!v || !(v.needs_deal || v.game_over || cancelled())) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (cancelled()) {
      const closed = S.table.status === "closed";
      box.append(make("h2", "", T.game_cancelled),
        make("p", "", closed ? T.closed_refunded : T.cancelled_text));
      box.append(summaryButtons(v));
      return;
    }
    box.append(make("h2", "", v.game_over ? T.game_over : fmt(T.deal_over, { number: v.deal_number + 1 })));
    const points = v.hand_scores || v.points;
    const cantesOf = (side) => v.cantes.filter((c) => v.sides[c.seat] === side)
      .map((c) => `${c.value} ${SUIT_NAMES[c.suit]}`).join(", ");
    const table = window.tuteCards.table("summary-table", ["", T.points, T.cantes, T.score],
      [...v.score.keys()].map((side) => [
        sideNames(side), points ? points[side] : "–", cantesOf(side) || T.none, v.score[side],
      ]));
    if (v.deal_winner !== null) table.rows[v.deal_winner + 1].classList.add("winner");
    box.append(table);
    if (v.tute) box.append(make("p", "", fmt(T.sang_tute, { user: seatName(v.tute.seat) })));
    const deals = S.game.deal_summaries || [];
    if (v.game_over && deals.length > 1) {
      // Every deal of the game, once it is over (the hands are public then).
      const list = make("ul", "deal-list");
      deals.forEach((deal, i) => {
        const points = deal.points ? deal.points.join(" – ") : "–";
        const who = deal.winner === null ? "" : ` · ${fmt(T.winner, { who: sideNames(deal.winner) })}`;
        list.append(make("li", "", `${fmt(T.deal_n, { n: i + 1 })}: ${points}${who}`));
      });
      box.append(list);
    }
    if (v.game_over) {
      const winners = Array.isArray(v.winner) ? v.winner : [v.winner];
      box.append(make("p", "winner-line", fmt(winners.length > 1 ? T.winners : T.winner,
        { who: winners.map(sideNames).join(", ") })));
      if (S.game.status === "finished") drawAwards(box);
    } else {
      box.append(make("p", "winner-line", v.deal_winner === null ? T.no_winner
        : fmt(T.winner, { who: sideNames(v.deal_winner) })));
    }
    box.append(summaryButtons(v));
  }

  // A finished game's rating changes and new trophies: its award runs just after it ends,
  // so they are asked for (again each second, a few times) rather than pushed.
  const awards = {};
  function fetchAwards(id, tries) {
    fetch(`/games/${id}/awards.json`).then((r) => r.json()).then((data) => {
      if (!data.awarded && tries > 0) { setTimeout(() => fetchAwards(id, tries - 1), 1000); return; }
      awards[id] = data;
      if (S && S.game && S.game.id === id) drawSummary();
    }).catch(() => {});
  }
  function drawAwards(box) {
    const id = S.game.id;
    if (!(id in awards)) { awards[id] = null; fetchAwards(id, 15); }
    if (!awards[id]) return;
    const list = make("ul", "award-list");
    list.id = "summary-awards";
    awards[id].seats.forEach((s) => {
      if (s.rating) list.append(make("li", "rating-change", fmt(T.rating_change, { user: s.user, rating: s.rating.shown, change: s.rating.change })));
      s.trophies.forEach((name) => list.append(make("li", "new-trophy", fmt(T.new_trophy, { user: s.user, trophy: name }))));
    });
    if (list.children.length) box.append(list);
  }

  function summaryButtons(v) {
    const buttons = make("div", "summary-buttons");
    if (v.needs_deal && !v.game_over && gameOn() && mySeat() !== null) {
      const next = make("button", "primary", T.next_deal);
      next.type = "button";
      next.id = "next-deal";
      next.addEventListener("click", () => { next.disabled = true; send({ type: "next_deal" }); });
      buttons.append(next);
    }
    const over = v.game_over || cancelled();
    if (over && S.you.master && S.table.free_seats === 0 && S.table.status === "open") {
      const again = make("button", "primary", T.new_game);
      again.type = "button";
      again.id = "new-game";
      again.addEventListener("click", () => { again.disabled = true; send({ type: "start" }); });
      buttons.append(again);
    }
    if (over && S.game) {
      const link = make("a", "button ghost", T.see_replay);
      link.href = `/games/${S.game.id}/`;
      buttons.append(link);
    }
    return buttons;
  }

  // ------------------------------------------------------------------ timers, cancelling, leaving
  function tick() {
    if (!S) return;
    const timer = deadline();
    const left = timer ? secondsLeft(timer) : 0;
    app.querySelectorAll("#felt .countdown, #seats .countdown").forEach((clock) => {
      clock.textContent = fmt(T.seconds, { seconds: left });
      clock.classList.toggle("hurry", left <= 5);
    });
    const line = $("clock");
    let text = "";
    if (timer && timer.kind === "deal") text = fmt(T.deal_clock, { seconds: left });
    else if (timer && timer.kind === "move" && timer.seat === mySeat()) {
      text = fmt(T.your_clock, { seconds: left });
    }
    line.textContent = text;
    line.hidden = !text;
    line.classList.toggle("hurry", !!text && left <= 5);
    const cancel = gameOn() ? S.game.cancel : null;
    if (cancel) $("cancel-clock").textContent = fmt(T.time_left, { seconds: secondsLeft(cancel) });
  }
  setInterval(tick, 250);

  function drawCancel() {
    const cancel = gameOn() ? S.game.cancel : null;
    $("cancel-box").hidden = !cancel;
    if (!cancel) return;
    const me = S.you ? S.you.user : null;
    $("cancel-text").textContent = cancel.by === me ? T.cancel_yours
      : fmt(T.cancel_proposed, { user: cancel.by });
    const votes = [];
    if (cancel.accepted.length) votes.push(fmt(T.cancel_accepted_by, { users: cancel.accepted.join(", ") }));
    if (cancel.waiting.length) votes.push(fmt(T.cancel_waiting, { users: cancel.waiting.join(", ") }));
    $("cancel-votes").textContent = votes.join(" ");
    // Robots do not vote; each human who has not answered sees Accept and Refuse.
    $("cancel-answer").hidden = !(me && cancel.waiting.includes(me));
    $("cancel-answer").querySelectorAll("button").forEach((b) => { b.disabled = false; });
  }

  function drawGameControls() {
    const me = mySeat();
    const mine = me !== null && gameOn() ? gameSeat(me) : null;
    const active = !!(mine && !mine.abandoned);
    $("game-controls").hidden = !active;
    $("resume").hidden = !(active && mine.timeouts >= 3);
    $("propose-cancel").hidden = !(active && !S.game.cancel);
    $("leave-game").hidden = !active;
    $("game-controls").querySelectorAll("button").forEach((b) => { b.disabled = false; });
  }

  function request(button, message) {
    // One click, one request: the button waits for the next state.
    button.disabled = true;
    hideError();
    send(message);
  }
  $("resume").addEventListener("click", (e) => request(e.currentTarget, { type: "resume" }));
  $("propose-cancel").addEventListener("click", (e) => request(e.currentTarget, { type: "cancel" }));
  $("cancel-accept").addEventListener("click", (e) =>
    request(e.currentTarget, { type: "cancel_answer", accept: true }));
  $("cancel-refuse").addEventListener("click", (e) =>
    request(e.currentTarget, { type: "cancel_answer", accept: false }));
  // Leaving a running game is abandoning it: the player confirms in a dialog first.
  $("leave-game").addEventListener("click", () => {
    const dialog = $("leave-dialog");
    dialog.returnValue = "";
    if (typeof dialog.showModal === "function") dialog.showModal();
    else if (window.confirm($("leave-help").textContent)) request($("leave-game"), { type: "leave" });
  });
  $("leave-dialog").addEventListener("close", () => {
    if ($("leave-dialog").returnValue === "leave") request($("leave-game"), { type: "leave" });
  });

  function drawLastTrick() {
    const v = view();
    const button = $("last-trick-button");
    const box = $("last-trick");
    const tricks = v ? v.tricks : [];
    button.hidden = !tricks.length;
    button.textContent = showLastTrick ? T.hide_last_trick : T.last_trick;
    button.setAttribute("aria-expanded", String(showLastTrick && !!tricks.length));
    box.hidden = !(showLastTrick && tricks.length);
    box.replaceChildren();
    if (box.hidden) return;
    for (const p of tricks[tricks.length - 1]) {
      const item = make("figure", "last-card");
      item.append(face(p.card), make("figcaption", "", seatName(p.seat)));
      box.append(item);
    }
  }
  $("last-trick-button").addEventListener("click", () => {
    showLastTrick = !showLastTrick;
    drawLastTrick();
  });

  function drawSeatsPanel() {
    const list = $("seats");
    list.replaceChildren();
    const me = mySeat();
    const token = document.querySelector("[name=csrfmiddlewaretoken]");
    const loggedIn = !!(S.you && S.you.user);
    S.table.seats.forEach((entry, seat) => {
      const item = make("li");
      if (entry) {
        if (entry.user && entry.user === S.table.master) {
          const star = make("span", "star", "★");
          star.setAttribute("aria-label", T.master);
          item.append(star, " ");
        }
        if (!entry.user) {
          item.classList.add("robot");
          item.append(robotIcon(), " ");
        }
        item.append(tableName(entry));
        if (seat === me) item.append(make("span", "you-tag", ` (${T.you})`));
        appendFlagAndClock(item, seat);
      } else {
        item.append(make("span", "free", T.free_seat));
        if (loggedIn && me === null && !running() && S.table.status !== "closed") {
          item.append(" ", requestForm("sit", T.sit, { seat }, token));
        }
      }
      list.append(item);
    });
    const oldChances = $("chances");
    if (oldChances) oldChances.remove();
    if (S.chances) {
      // Before a competitive game: each side's chance from the ratings.
      const names = (c) => c.seats.map((seat) => S.table.seats[seat].user).join(" & ");
      const line = make("p", "chances", fmt(T.chances, { list: S.chances.map((c) => `${names(c)} ${c.percent}%`).join(" · ") }));
      line.id = "chances";
      list.after(line);
    }
    const old = $("stand-form");
    if (old) old.remove();
    if (me !== null && !running() && S.table.status !== "closed") {
      const stand = requestForm("stand", T.stand, {}, token);
      stand.id = "stand-form";
      list.after(stand);
    }
  }

  function requestForm(kind, label, fields, token) {
    // A real form: it posts to the server without the socket too.
    const form = make("form", "inline");
    form.method = "post";
    form.action = `${location.pathname}request/`;
    form.dataset.ws = kind;
    const inputs = { do: kind, ...fields };
    if (token) inputs.csrfmiddlewaretoken = token.value;
    for (const [name, value] of Object.entries(inputs)) {
      const input = make("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const button = make("button", kind === "sit" ? "small" : "ghost", label);
    button.type = "submit";
    form.append(button);
    return form;
  }

  function drawMasterPanel(previous) {
    const panel = $("master-panel");
    const master = !!(S.you && S.you.master) && S.table.status !== "closed";
    panel.hidden = !master;
    const between = !running();
    $("start-form").hidden = !(between && S.table.free_seats === 0 && !(view() && view().game_over));
    $("options-details").hidden = !between;
    const optionsForm = $("options-form");
    const changed = !previous
      || JSON.stringify(previous.table.options) !== JSON.stringify(S.table.options);
    if (changed) {
      setOptions(optionsForm, S.table.options);
      clearFieldErrors(optionsForm);
      refreshOptionsLine();
    }
  }

  function setOptions(form, options) {
    for (const [name, value] of Object.entries(options)) {
      const field = form.elements.namedItem(name);
      if (!field) continue;
      if (field.type === "checkbox") field.checked = !!value;
      else field.value = String(value);
    }
  }

  function readOptions(form) {
    const options = {};
    for (const name of Object.keys(S.table.options)) {
      const field = form.elements.namedItem(name);
      if (!field) continue;
      if (field.type === "checkbox") options[name] = field.checked;
      else if (field.type === "number" || name === "players") {
        const number = Number(field.value);
        options[name] = field.value !== "" && Number.isInteger(number) ? number : field.value;
      } else options[name] = field.value;
    }
    return options;
  }

  async function refreshOptionsLine() {
    // The sentence about the options is the server's own rendering: fetch it, don't rebuild it.
    try {
      const response = await fetch(location.pathname, { headers: { Accept: "text/html" } });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const id of ["table-options"]) {
        const fresh = page.getElementById(id);
        if (fresh) $(id).innerHTML = fresh.innerHTML;
      }
      const title = page.querySelector(".table-head h1");
      if (title) app.querySelector(".table-head h1").innerHTML = title.innerHTML;
    } catch (e) {
      /* the old sentence stays; the next change tries again */
    }
  }

  function clearFieldErrors(form) {
    form.querySelectorAll("[data-errors-for]").forEach((list) => list.replaceChildren());
    form.querySelectorAll(".has-error").forEach((f) => f.classList.remove("has-error"));
  }

  // ------------------------------------------------------------------ chat
  function chatItem(message) {
    const item = make("li");
    item.dataset.id = message.id;
    // textContent: the text is shown as typed, never as HTML.
    item.append(make("strong", "", message.user), ": ", make("span", "", message.text));
    if (app.dataset.user && message.user !== app.dataset.user) {
      const report = make("a", "report-message", "⚑");
      report.href = `${app.dataset.report}?message=${encodeURIComponent(message.id)}`;
      report.title = T.report_message;
      report.setAttribute("aria-label", `${T.report_message}: ${message.user}`);
      item.append(" ", report);
    }
    return item;
  }
  function drawChat() {
    const log = $("chat-log");
    log.replaceChildren(...S.chat.map(chatItem));
    log.scrollTop = log.scrollHeight;
  }
  function addChat(message) {
    const log = $("chat-log");
    if (log.querySelector(`[data-id="${message.id}"]`)) return;
    log.append(chatItem(message));
    log.scrollTop = log.scrollHeight;
  }

  // ------------------------------------------------------------------ closing, muting
  // A table a moderator closed says so and why; a muted player's chat box says until when
  // and why, and comes back by itself when the mute ends (the page asks the server again).
  function closedText() {
    const reason = S.table.close_reason;
    return reason ? fmt(T.closed_by_moderator, { reason }) : T.closed;
  }
  let muteTimer = null;
  const mutedUntil = () => {
    const until = $("chat-muted").dataset.until;
    return until && new Date(until) > Date.now() ? new Date(until) : null;
  };
  function localTime(moment) {
    const lang = document.documentElement.lang || undefined;
    const sameDay = moment.toDateString() === new Date().toDateString();
    // The 24-hour clock, as everywhere on the site: "until 21:40".
    const clock = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    const options = sameDay ? clock : { day: "numeric", month: "short", ...clock };
    return moment.toLocaleString(lang, options);
  }
  function drawChatForm() {
    const closed = !!(S && S.table.status === "closed");
    const until = mutedUntil();
    const box = $("chat-muted");
    box.hidden = !until || closed;
    if (until) box.textContent = fmt(T.muted_until, { time: localTime(until), reason: box.dataset.reason });
    $("chat-form").hidden = !(S && S.you && S.you.can_chat) || closed || !!until;
  }
  function showMute(mute) {
    const box = $("chat-muted");
    box.dataset.until = mute && mute.until ? mute.until : "";
    box.dataset.reason = mute && mute.reason ? mute.reason : "";
    clearTimeout(muteTimer);
    const until = mutedUntil();
    // Once it ends, ask again (a moderator may have made it longer) and redraw.
    if (until) muteTimer = setTimeout(loadMute, Math.min(until - Date.now() + 500, 2 ** 31 - 1));
    drawChatForm();
  }
  async function loadMute() {
    try {
      const response = await fetch(app.dataset.mute, { headers: { Accept: "application/json" } });
      if (response.ok) showMute(await response.json());
    } catch (_error) {
      // Offline: the socket's reconnection redraws the page; the chat box stays as it is.
    }
  }
  showMute({ until: $("chat-muted").dataset.until, reason: $("chat-muted").dataset.reason });

  // ------------------------------------------------------------------ notices and errors
  function showNotice(text) {
    const box = $("notice");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  function announce(event, previous) {
    if (!event || !previous) return;
    // At a robot's seat `by` is null: name the seat instead.
    const by = event.by
      || (event.action && event.action.seat !== undefined ? seatName(event.action.seat) : "");
    if (event.timeout && event.by) {
      showNotice(fmt(T.timed_out, { user: event.by }));
      return;
    }
    if (event.kind === "act") {
      const a = event.action;
      const v = view();
      if ("sing" in a) {
        const cante = v && [...v.cantes].reverse().find((c) => c.seat === a.seat && c.suit === a.sing);
        showNotice(fmt(T.sang, {
          user: by, suit: SUIT_NAMES[a.sing],
          value: cante ? cante.value : (v && a.sing === v.trump_suit ? 40 : 20),
        }));
      } else if ("tute" in a) showNotice(fmt(T.sang_tute, { user: by }));
      else if ("exchange" in a) showNotice(fmt(T.exchanged, { user: by, card: cardLabel(a.exchange) }));
      else if ("capote" in a && a.capote) showNotice(fmt(T.capote, { user: by }));
      return;
    }
    const texts = {
      sit: T.sat, stand: T.stood, options: T.options_changed, start: T.started, deal: T.dealt,
      end: T.ended, invite: T.invited,
      away: T.went_away, back: T.came_back, abandoned: T.has_abandoned, leave: T.has_left,
      resume: T.resumed, cancel_proposed: T.cancel_proposed, cancel_accepted: T.cancel_accepted,
      cancel_refused: T.cancel_refused, cancel_expired: T.cancel_expired, cancelled: T.cancelled,
    };
    if (texts[event.kind]) showNotice(fmt(texts[event.kind], { user: event.user || by }));
  }

  function hideError() { $("error").hidden = true; }
  function showError(message, frame = {}) {
    const form = $("options-form");
    if (frame.request === "options" && frame.field) {
      clearFieldErrors(form);
      const list = form.querySelector(`[data-errors-for="${CSS.escape(frame.field)}"]`)
        || form.querySelector('[data-errors-for="__all__"]');
      list.replaceChildren(make("li", "", message));
      list.closest(".field")?.classList.add("has-error");
      $("options-details").open = true;
      return;
    }
    const box = $("error");
    box.textContent = message;
    box.hidden = false;
  }

  // ------------------------------------------------------------------ forms over the socket
  app.addEventListener("submit", (event) => {
    const form = event.target;
    const kind = form.dataset.ws;
    if (!kind || !S) return;
    event.preventDefault();
    const message = { type: kind };
    if (kind === "sit" && form.elements.namedItem("seat")) {
      message.seat = Number(form.elements.namedItem("seat").value);
    } else if (kind === "invite") {
      message.username = form.elements.namedItem("username").value.trim();
    } else if (kind === "chat") {
      message.text = form.elements.namedItem("text").value;
      if (!message.text.trim()) return;
    } else if (kind === "options") {
      message.options = readOptions(form);
    }
    hideError();
    if (socket.send(message)) {
      if (kind === "chat" || kind === "invite") form.reset();
    } else if (kind !== "chat") {
      form.submit(); // no socket now: post the form the plain way
    } else {
      showError(T.offline);
    }
  });
});
