/* The live table page: the table socket's frames go into the store, and each part of the page
   redraws from the slice of it that it shows. The server is the authority: the page offers
   what `view.legal_actions` lists, shows the values and flags the frames carry, and decides no
   rule itself (docs/protocol.md). No framework, no build: ES modules as they are. */
import { $, T } from "./dom.js";
import { createStore } from "./store.js";
import { watchFelt } from "./felt.js";
import { startTimers } from "./timers.js";
import { watchHand } from "./hand.js";
import { watchActions } from "./actions.js";
import { watchStatus } from "./status.js";
import { watchSeats } from "./seats.js";
import { readOptions, watchMaster } from "./master.js";
import { watchSummary } from "./summary.js";
import { watchCancel } from "./cancel.js";
import { watchControls } from "./controls.js";
import { watchLastTrick } from "./last-trick.js";
import { watchChat } from "./chat.js";
import { hideError, showError, watchNotices } from "./notices.js";
import { watchScoreSheet } from "./sheet.js";
import { watchAlerts } from "./alerts.js";
import { watchAway } from "./away.js";
import { watchRematch } from "./rematch.js";
import { watchHint } from "./hint.js";

const app = $("table-app");
if (app) start(app);

function start(app) {
  const store = createStore({ sync: () => socket.send({ type: "sync" }) });
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
    if (status === "connecting") store.reconnecting();
  }

  function send(message) {
    if (!socket.send(message)) showError(T.offline);
  }

  // One click, one request: the buttons that sent it wait for the answer (and `count` makes
  // the server refuse an action taken on an old screen).
  function request(message) {
    hideError();
    store.request(message.type);
    send(message);
  }
  const act = (action) => request({ type: "act", action, count: store.snapshot.count });

  watchStatus(store, app);
  watchFelt(store);
  watchHand(store, act);
  watchActions(store, act);
  watchSeats(store);
  watchMaster(store, app);
  watchSummary(store, request);
  watchCancel(store, request);
  watchControls(store, request);
  watchLastTrick(store);
  const chat = watchChat(store, app, () => socket.send({ type: "sync" }));
  watchNotices(store);
  watchScoreSheet(store);
  watchAlerts(store);
  watchAway(store);
  startTimers(store, app);
  watchRematch(store, request);
  const hint = watchHint(store, request);

  function onMessage(frame) {
    if (frame.type === "mute") {
      chat.loadMute(); // a moderator muted or unmuted this player just now
    } else if (frame.type === "error") {
      store.refused();
      // The chat box says until when and why, in its place.
      if (frame.code === "muted") chat.loadMute();
      else showError(frame.message, frame);
    } else if (frame.type === "hint") {
      hint.show(frame);
    } else {
      store.receive(frame);
    }
  }

  // The page's forms go over the socket; without one, they post the plain way.
  app.addEventListener("submit", (event) => {
    const form = event.target;
    const kind = form.dataset.ws;
    if (!kind || !store.snapshot) return;
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
      message.options = readOptions(form, store.snapshot.table.options);
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
}
