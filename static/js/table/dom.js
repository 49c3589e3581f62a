/* What every part of the table page draws with: the page's translated sentences, the card
   faces the server drew once (cards.js, a classic script that runs before the modules), and
   a tiny element builder. */
const cards = window.tuteCards;

export const { T, SUIT_NAMES, fmt, make, face, back, labelled } = cards;
export const cardLabel = cards.label;
export const sortCards = cards.sort;
export const smallTable = cards.table;
export const place = cards.position;
export const $ = (id) => document.getElementById(id);

// A robot's head, drawn inline: no emoji font needed.
const ROBOT_SVG = '<svg viewBox="0 0 24 24" width="1em" height="1em" focusable="false">'
  + '<path d="M12 2v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
  + '<circle cx="12" cy="2.5" r="1.5" fill="currentColor"/>'
  + '<rect x="3.5" y="7" width="17" height="13" rx="3.5" fill="none" stroke="currentColor" stroke-width="2"/>'
  + '<circle cx="9" cy="12.5" r="1.8" fill="currentColor"/><circle cx="15" cy="12.5" r="1.8" fill="currentColor"/>'
  + '<path d="M9 16.5h6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

export function robotIcon() {
  const icon = make("span", "robot-icon");
  icon.setAttribute("aria-hidden", "true");
  icon.innerHTML = ROBOT_SVG;
  return icon;
}

// A seat's marker (away, abandoned, robot playing) and, on the seat waited for, the place of
// its countdown, which the timers fill in.
export function appendFlagAndClock(node, { flag, clock }) {
  if (flag) node.append(make("span", `seat-flag flag-${flag[0]}`, flag[1]));
  if (clock) {
    const countdown = make("span", "countdown");
    countdown.setAttribute("role", "timer");
    node.append(countdown);
  }
}
