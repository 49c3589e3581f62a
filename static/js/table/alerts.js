/* The player's turn, even in another tab: the tab's title and icon change, a short sound
   and a vibration on phones, each a setting the player may turn off (kept in this browser);
   and the hand gets the keyboard focus. */
import { $, T } from "./dom.js";
import { legal } from "./model.js";

const SETTINGS = ["title", "sound", "vibrate"];
const stored = (name) => localStorage.getItem(`tute-alert-${name}`) !== "off";

export function watchAlerts(store) {
  const title = document.title;
  const icon = document.querySelector("link[rel=icon]");
  const plainIcon = icon ? icon.href : null;
  const turnIcon = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#d4a017"/>'
    + '<text x="16" y="23" font-size="20" text-anchor="middle" font-family="sans-serif" font-weight="700" fill="#7a1f1f">!</text></svg>',
  );
  drawSettings();

  store.watch(
    (S) => ({ turn: legal(S).length > 0, count: S.count }),
    ({ turn }) => {
      const on = turn && stored("title");
      document.title = on ? `${T.title_your_turn} ${title}` : title;
      if (icon) icon.href = on ? turnIcon : plainIcon;
    },
  );
  // A new turn (not each redraw of the same one): sound, vibration and the focus.
  let was = false;
  store.onFrame((S) => {
    const turn = legal(S).length > 0;
    if (turn && !was) {
      if (document.hidden && stored("sound")) beep();
      if (stored("vibrate") && navigator.vibrate) navigator.vibrate(120);
      const active = document.activeElement;
      if (!active || active === document.body) {
        const card = document.querySelector("#hand button.playable:not([disabled])");
        if (card) card.focus({ preventScroll: true });
      }
    }
    was = turn;
  });
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // No sound where the browser allows none: the title still changes.
  }
}

function drawSettings() {
  const box = $("turn-alerts");
  if (!box) return;
  for (const name of SETTINGS) {
    const input = box.querySelector(`[name=${name}]`);
    input.checked = stored(name);
    input.addEventListener("change", () => {
      localStorage.setItem(`tute-alert-${name}`, input.checked ? "on" : "off");
    });
  }
}
