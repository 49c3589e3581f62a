/* The table's frames (docs/protocol.md), kept in step with the table's version.

   The store holds the last snapshot: the keys of a `state` frame (table, game, chat, chances,
   may, you, version, count, event). A `state` is whole: it replaces the snapshot unless it is
   older (one of the same version still brings the chat lines a lost socket missed). An
   `update` holds only the keys that changed, each replacing the snapshot's key whole, but
   for `game`, whose parts replace the game's own (a game of another id comes whole). It is
   applied only when its version is exactly one more than the snapshot's: an older or equal
   one is dropped (a push that crossed a sync's answer), a later one means a push was lost,
   so the store asks for the whole state (`{"type": "sync"}`) and applies nothing but a
   `state` until it comes. Chat lines come in their own frames and change no version. No DOM
   here: the parts of the page watch the slice of the store they show. */

// The keys an `update` may carry, each replacing the snapshot's own.
const REPLACED = ["table", "game", "chances", "you"];
// Updates kept while a sync is awaited, in case they follow its answer.
const HELD_AT_MOST = 64;

export function createStore({ sync }) {
  let snapshot = null;
  // When each timer (`game.deadline`, `game.cancel`) came: it counts down from its `seconds`.
  const arrived = new WeakMap();
  let pending = null; // the kind of request sent and not answered yet ("act", "resume"…)
  let awaiting = true; // only a whole `state` may be applied: on connect, after a gap
  const held = new Map(); // updates that came while awaiting, by version
  const views = [];
  const frameListeners = [];

  function redraw() {
    for (const view of views) view();
  }

  function apply(frame) {
    const previous = snapshot;
    if (frame.type === "state") {
      const { type: _type, ...whole } = frame;
      snapshot = whole;
    } else {
      snapshot = { ...snapshot, version: frame.version, count: frame.count, event: frame.event };
      for (const key of REPLACED) if (key in frame) snapshot[key] = frame[key];
      if ("game" in frame) snapshot.game = gameWith(previous.game, frame.game);
      // After a move, `may` answers only the requests a move changes: the rest stand.
      if ("may" in frame) snapshot.may = { ...previous.may, ...frame.may };
    }
    for (const timer of [frame.game?.deadline, frame.game?.cancel]) {
      if (timer) arrived.set(timer, Date.now());
    }
    pending = null; // whatever was asked has been answered, or the screen moved on
    redraw();
    for (const listener of frameListeners) listener(snapshot, previous);
  }

  function askSync() {
    awaiting = true;
    sync();
  }

  // After a state: the held updates that follow it, in order; a gap left asks again.
  function applyHeld() {
    for (;;) {
      for (const version of held.keys()) if (version <= snapshot.version) held.delete(version);
      const next = held.get(snapshot.version + 1);
      if (!next) break;
      held.delete(next.version);
      apply(next);
    }
    if (held.size) askSync();
  }

  function hold(frame) {
    held.set(frame.version, frame);
    if (held.size > HELD_AT_MOST) held.delete(Math.min(...held.keys()));
  }

  function receiveState(frame) {
    if (snapshot !== null && frame.version < snapshot.version) return "old";
    awaiting = false;
    apply(frame);
    applyHeld();
    return "applied";
  }

  function receiveUpdate(frame) {
    if (snapshot !== null && frame.version <= snapshot.version) return "old";
    if (awaiting || snapshot === null) {
      hold(frame);
      return "held";
    }
    if (frame.version > snapshot.version + 1) {
      hold(frame);
      askSync();
      return "gap";
    }
    apply(frame);
    return "applied";
  }

  function receiveChat(message) {
    if (snapshot === null || snapshot.chat.some((line) => line.id === message.id)) return "old";
    snapshot = { ...snapshot, chat: [...snapshot.chat, message] };
    redraw();
    return "applied";
  }

  return {
    /* A frame from the socket; says what became of it: "applied", "old" (dropped), "held"
       (kept until the awaited state), "gap" (held, and a sync asked), "ignored". */
    receive(frame) {
      if (frame.type === "state") return receiveState(frame);
      if (frame.type === "update") return receiveUpdate(frame);
      if (frame.type === "chat") return receiveChat(frame.message);
      return "ignored";
    },
    // A new socket sends the whole state first: wait for it, forget what the old one held.
    reconnecting() {
      awaiting = true;
      held.clear();
    },
    // A request went out: the buttons that sent it wait for the answer (one click, one request).
    request(kind) {
      pending = kind;
      redraw();
    },
    // The server refused it: nothing changed at the table, the buttons work again.
    refused() {
      if (pending === null) return;
      pending = null;
      redraw();
    },
    get snapshot() { return snapshot; },
    get version() { return snapshot ? snapshot.version : null; },
    // When a timer of the snapshot came (0 for one it never held).
    arrivedAt(timer) { return arrived.get(timer) || 0; },
    /* A part of the page: `select(snapshot, {pending})` gives the plain data it shows, and
       `draw(slice)` draws it, only when it differs from the slice drawn last. Returns a
       function that runs it again, for a part that also shows something of its own (a
       toggle, a fetched answer). */
    watch(select, draw) {
      let last;
      let drawn = false;
      const run = () => {
        if (snapshot === null) return;
        const slice = select(snapshot, { pending });
        if (drawn && same(slice, last)) return;
        drawn = true;
        last = slice;
        draw(slice);
      };
      views.push(run);
      return run;
    },
    // Called after every frame applied, with the snapshot before it (null for the first).
    onFrame(listener) {
      frameListeners.push(listener);
    },
  };
}

// The game held with an update's parts of it in place; a new game (another id) is whole.
function gameWith(held, parts) {
  if (!held || !parts || held.id !== parts.id) return parts;
  return { ...held, ...parts };
}

// Whether two slices (plain JSON-like data) hold the same values.
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && same(a[key], b[key]));
}
