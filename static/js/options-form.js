/* An options form (a new table, practice, the master's panel) shows only the options that
   apply to the game chosen. Which apply is the server's answer, sent with the form as data
   (`data-option-facts`, games/table/options.py `option_facts`): for each game, who plays it
   and, for each number of players, the options that change nothing there. Without this
   script every field shows and the server keeps only what applies. */
"use strict";
(() => {
  function fit(form) {
    const facts = JSON.parse(form.dataset.optionFacts);
    const variant = form.elements.namedItem("variant");
    const game = variant && facts[variant.value];
    if (!game) return;
    const players = form.elements.namedItem("players");
    if (players && players.tagName === "SELECT") {
      for (const option of players.options) {
        const allowed = game.players.includes(Number(option.value));
        option.hidden = option.disabled = !allowed;
      }
      if (!game.players.includes(Number(players.value))) players.value = String(game.default);
    }
    const idle = game.idle[players ? players.value : game.default] || [];
    for (const field of form.querySelectorAll("[data-field]")) {
      field.hidden = idle.includes(field.dataset.field);
    }
  }

  const fitAll = () => document.querySelectorAll("form[data-option-facts]").forEach(fit);
  // The game or its size chosen, or the form filled in by a script (the master's panel
  // follows the table's options: it sends `tute:options-set`).
  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (form && form.dataset.optionFacts && ["variant", "players"].includes(event.target.name)) fit(form);
  });
  document.addEventListener("tute:options-set", (event) => fit(event.target));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fitAll);
  else fitAll();
})();
