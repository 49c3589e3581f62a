/* Minimal live play on the table page (docs/protocol.md): draws each `state` frame, offers
   the seat's legal actions as buttons, the move countdown, away and robot markers, the
   friendly cancel vote and leaving with a confirmation. The server decides everything. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("live");
  if (!root) return;
  const T = JSON.parse(document.getElementById("live-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (_m, key) => String(values[key]));
  let S = null;
  let received = 0;
  let socket = null;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.socket);
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "state") {
        S = frame;
        received = Date.now();
        $("live-error").textContent = "";
        draw();
      } else if (frame.type === "error") {
        $("live-error").textContent = frame.message;
      }
    };
    socket.onclose = (event) => {
      if (event.code !== 4403 && event.code !== 4404) setTimeout(connect, 1000);
    };
  }
  const send = (message) => socket && socket.readyState === 1 && socket.send(JSON.stringify(message));

  function label(action) {
    if ("play" in action) return action.play;
    if ("sing" in action) return fill(T.sing, { suit: action.sing });
    if ("tute" in action) return fill(T.tute, { rank: action.tute });
    if ("exchange" in action) return fill(T.exchange, { card: action.exchange });
    if ("capote" in action) return action.capote ? T.capote_yes : T.capote_no;
    return fill(T.bid, { tricks: action.bid });
  }

  function seatName(entry) {
    if (!entry) return T.free;
    return entry.user === null ? fill(T.robot_seat, { robot: entry.robot }) : entry.user;
  }

  function draw() {
    const game = S.game;
    const live = game && game.status === "playing" ? game : null;
    const mine = S.you.seat;
    root.dataset.count = String(S.count);
    root.dataset.status = game ? game.status : "none";
    const seats = $("live-seats");
    seats.replaceChildren();
    S.table.seats.forEach((entry, seat) => {
      const item = document.createElement("li");
      const info = live ? live.seats[seat] : null;
      let text = seatName(entry);
      if (info && info.abandoned) text += " · " + T.abandoned;
      else if (info && info.away) text += " · " + T.away;
      else if (info && info.robot && info.user) text += " · " + T.robot_plays;
      item.textContent = text;
      if (live && live.deadline && live.deadline.seat === seat) {
        const clock = document.createElement("span");
        clock.className = "countdown";
        item.append(" · ", clock);
      }
      seats.append(item);
    });
    const view = game ? game.view : null;
    $("live-hand").textContent = view && view.hand ? view.hand.join(" ") : "";
    const actions = $("live-actions");
    actions.replaceChildren();
    if (live && view) {
      view.legal_actions.forEach((action) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label(action);
        button.addEventListener("click", () => send({ type: "act", action, count: S.count }));
        actions.append(button);
      });
    }
    const info = live && mine !== null ? live.seats[mine] : null;
    $("live-start").hidden = !(S.you.master && S.table.status !== "playing");
    $("live-next-deal").hidden = !(live && view && view.needs_deal && mine !== null);
    $("live-resume").hidden = !(info && !info.abandoned && info.timeouts >= 3);
    $("live-propose").hidden = !(info && !info.abandoned && !live.cancel);
    $("live-leave").hidden = !(info && !info.abandoned);
    const cancel = live ? live.cancel : null;
    $("live-cancel").hidden = !cancel;
    if (cancel) {
      $("live-cancel-text").textContent = fill(T.proposal, { player: cancel.by });
      const voting = cancel.waiting.includes(S.you.user);
      $("live-accept").hidden = $("live-refuse").hidden = !voting;
    }
    const over = game && game.status !== "playing";
    $("live-over").hidden = !over;
    if (over) $("live-over").textContent = game.status === "cancelled" ? T.cancelled : T.over;
    tick();
  }

  function tick() {
    const clock = root.querySelector(".countdown");
    const deadline = S && S.game && S.game.deadline;
    if (!clock || !deadline) return;
    const left = Math.max(0, deadline.seconds - (Date.now() - received) / 1000);
    clock.textContent = fill(T.seconds, { seconds: Math.ceil(left) });
  }
  setInterval(tick, 250);

  $("live-start").addEventListener("click", () => send({ type: "start" }));
  $("live-next-deal").addEventListener("click", () => send({ type: "next_deal" }));
  $("live-resume").addEventListener("click", () => send({ type: "resume" }));
  $("live-propose").addEventListener("click", () => send({ type: "cancel" }));
  $("live-accept").addEventListener("click", () => send({ type: "cancel_answer", accept: true }));
  $("live-refuse").addEventListener("click", () => send({ type: "cancel_answer", accept: false }));
  $("live-leave").addEventListener("click", () => {
    if (window.confirm(T.leave_confirm)) send({ type: "leave" });
  });
  connect();
});
