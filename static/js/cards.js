/* Helpers shared by the table and the replay: the card faces the server drew once into
   <template data-card> elements (in the engine's order), the page's translated sentences, and
   a tiny element builder. */
"use strict";
window.tuteCards = (() => {
  const faces = new Map();
  const order = new Map();
  document.querySelectorAll("template[data-card]").forEach((t, i) => {
    faces.set(t.dataset.card, t);
    order.set(t.dataset.card, i);
  });
  const stringsNode = document.getElementById("table-strings");
  const make = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  };
  const T = stringsNode ? JSON.parse(stringsNode.textContent) : {};
  return {
    T,
    SUIT_NAMES: { O: "oros", C: "copas", E: "espadas", B: "bastos" },
    fmt: (text, values = {}) =>
      text.replace(/%\((\w+)\)s/g, (_, key) => (key in values ? String(values[key]) : "")),
    make,
    // A label and its value joined as the page's language writes them.
    labelled: (label, value) =>
      (T.labelled || "%(label)s: %(value)s").replace("%(label)s", label).replace("%(value)s", value),
    label: (code) => faces.get(code).dataset.label,
    face: (code) => faces.get(code).content.firstElementChild.cloneNode(true),
    back() {
      const node = make("span", "card-back");
      node.setAttribute("aria-hidden", "true");
      return node;
    },
    // A small table: a heading row, then one row per entry whose first cell is a heading.
    table(className, headings, rows) {
      const table = make("table", className);
      const head = make("tr");
      head.append(...headings.map((text) => make("th", "", text)));
      table.append(head);
      for (const [first, ...cells] of rows) {
        const row = make("tr");
        row.append(make("th", "", first), ...cells.map((text) => make("td", "", text)));
        table.append(row);
      }
      return table;
    },
    sort: (codes) => [...codes].sort((a, b) => order.get(a) - order.get(b)),
    // Where a seat sits on screen, seen from `me` (play passes to the right: seat+1 is there).
    position(seat, n, me) {
      const places = n === 2 ? ["bottom", "top"] : n === 3 ? ["bottom", "right", "left"]
        : ["bottom", "right", "top", "left"];
      return places[(seat - (me === null ? 0 : me) + n) % n];
    },
  };
})();
