/* The line under the felt: whose turn it is, or what the table waits for; and the page's own
   marks of the table's status, the action count and the table's version drawn (`data-status`,
   `data-count`, `data-version`: a new deal counts no action but is a new version). */
import { $ } from "./dom.js";
import { feltView, legal, statusText, view } from "./model.js";

export function watchStatus(store, app) {
  store.watch(
    (S) => ({ status: S.table.status, count: S.count, version: S.version }),
    ({ status, count, version }) => {
      app.dataset.status = status;
      app.dataset.count = String(count);
      app.dataset.version = String(version);
    },
  );
  store.watch(
    // Before a game the felt itself says what the table waits for: the line says it once.
    (S) => ({ text: feltView(S) ? statusText(S) : "", myTurn: !!(view(S) && legal(S).length) }),
    ({ text, myTurn }) => {
      const line = $("status");
      line.textContent = text;
      line.classList.toggle("my-turn", myTurn);
    },
  );
}
