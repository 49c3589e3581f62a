/* The felt's timers: the seat waited for counts down (on the felt and in the seats list), the
   player's own clock and the next deal's under the felt, the cancel proposal's in its box.
   Each counts down from the `seconds` its frame carried, from when that frame came: only
   their text changes, four times a second; the parts that hold them draw their places. */
import { $, T, fmt } from "./dom.js";
import { deadline, gameOn, mySeat } from "./model.js";

export function startTimers(store, app) {
  const left = (timer) =>
    Math.max(0, Math.ceil(timer.seconds - (Date.now() - store.arrivedAt(timer)) / 1000));

  function tick() {
    const S = store.snapshot;
    if (!S) return;
    const timer = deadline(S);
    const seconds = timer ? left(timer) : 0;
    app.querySelectorAll("#felt .countdown, #seats .countdown").forEach((clock) => {
      clock.textContent = fmt(T.seconds, { seconds });
      clock.classList.toggle("hurry", seconds <= 5);
    });
    const line = $("clock");
    let text = "";
    if (timer && timer.kind === "deal") text = fmt(T.deal_clock, { seconds });
    else if (timer && timer.kind === "move" && timer.seat === mySeat(S)) {
      text = fmt(T.your_clock, { seconds });
    }
    line.textContent = text;
    line.hidden = !text;
    line.classList.toggle("hurry", !!text && seconds <= 5);
    const cancel = gameOn(S) ? S.game.cancel : null;
    if (cancel) $("cancel-clock").textContent = fmt(T.time_left, { seconds: left(cancel) });
  }

  // Right after each frame's redraw too: a countdown just drawn is never empty a moment.
  store.onFrame(tick);
  setInterval(tick, 250);
}
