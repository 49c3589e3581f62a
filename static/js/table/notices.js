/* What just happened, said for a few seconds on the felt (a cante, a player away, a
   proposal…), from the `event` of each frame, to the reader in the second person when it is
   theirs; and the server's refusal of the player's last request. What the line under the
   felt says already (the game is over, cancelled) is not said again. A cante's value is the
   event's (`value`), else the frame's. */
import { $, SUIT_NAMES, T, cardLabel, fmt } from "./dom.js";
import { mySeat, seatName, singValue, view } from "./model.js";
import { showFieldError } from "./master.js";

const SAID = {
  sit: "sat", stand: "stood", options: "options_changed", start: "started", deal: "dealt",
  invite: "invited", away: "went_away", back: "came_back",
  abandoned: "has_abandoned", leave: "has_left", resume: "resumed",
  cancel_proposed: "cancel_proposed", cancel_accepted: "cancel_accepted",
  cancel_refused: "cancel_refused", cancel_expired: "cancel_expired",
};

export function watchNotices(store) {
  let timer = null;
  function show(text) {
    const box = $("notice");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  store.onFrame((S, previous) => {
    const event = S.event;
    if (!event || !previous) return;
    const text = say(S, event);
    if (text) show(text);
  });
}

function say(S, event) {
  // At a robot's seat `by` is null: name the seat instead.
  const by = event.by
    || (event.action && event.action.seat !== undefined ? seatName(S, event.action.seat) : "");
  const mine = !!(event.action && event.action.seat !== undefined && event.action.seat === mySeat(S));
  if (event.timeout && event.by) return mine ? T.timed_out_you : fmt(T.timed_out, { user: event.by });
  if (event.kind === "act") {
    const a = event.action;
    if ("sing" in a) {
      return fmt(mine ? T.sang_you : T.sang, { user: by, suit: SUIT_NAMES[a.sing], value: canteValue(S, event) });
    }
    if ("tute" in a) return fmt(mine ? T.sang_tute_you : T.sang_tute, { user: by });
    if ("exchange" in a) return fmt(mine ? T.exchanged_you : T.exchanged, { user: by, card: cardLabel(a.exchange) });
    if ("capote" in a && a.capote) return fmt(mine ? T.capote_you : T.capote, { user: by });
    return null;
  }
  return SAID[event.kind] ? fmt(T[SAID[event.kind]], { user: event.user || by }) : null;
}

function canteValue(S, event) {
  if (event.value !== undefined) return event.value;
  const a = event.action;
  const v = view(S);
  const cante = v && [...v.cantes].reverse().find((c) => c.seat === a.seat && c.suit === a.sing);
  return cante ? cante.value : singValue(S, a.sing) ?? "";
}

export function hideError() {
  $("error").hidden = true;
}

// A refusal: next to the option at fault, or on the error line.
export function showError(message, frame = {}) {
  if (frame.request === "options" && frame.field) {
    showFieldError(frame.field, message);
    return;
  }
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}
