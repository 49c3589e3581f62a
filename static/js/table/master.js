/* The master's panel (start, invite, options) and the options form, which follows the
   table's options only when they change: a master's unsaved edits survive every other frame. */
import { $, T, make } from "./dom.js";
import { same } from "./store.js";

export function watchMaster(store, app) {
  store.watch(
    (S) => {
      const may = S.may || {};
      return {
        master: !!(may.options || may.invite || may.start),
        start: !!may.start,
        between: !!may.options,
        invite: !!may.invite,
      };
    },
    ({ master, start, between, invite }) => {
      $("master-panel").hidden = !master;
      $("start-form").hidden = !start;
      $("options-details").hidden = !between;
      if ($("invite-form")) $("invite-form").hidden = !invite;
    },
  );

  watchInvited(store, app);

  const form = $("options-form");
  let first = true;
  store.watch(
    (S) => S.table.options,
    (options) => {
      // The page was drawn with these options already, unless they changed since.
      const shown = readOptions(form, options);
      const stale = !first || Object.keys(shown).some((name) => !same(shown[name], options[name]));
      first = false;
      if (!stale) return;
      setOptions(form, options);
      clearFieldErrors(form);
    },
  );
  // The sentence about the options is the server's, in this page's language: shown, not built.
  store.watch(
    (S) => S.table.options_text,
    (texts) => {
      $("table-options").textContent = texts[document.documentElement.lang] || Object.values(texts)[0];
    },
  );
  store.watch(
    (S) => S.table.options.variant,
    (variant) => {
      app.querySelector(".table-head h1").firstChild.textContent = `${T.variants[variant]} `;
    },
  );
}

function setOptions(form, options) {
  for (const [name, value] of Object.entries(options)) {
    const field = form.elements.namedItem(name);
    if (!field) continue;
    if (field.type === "checkbox") field.checked = !!value;
    else field.value = String(value);
  }
  form.dispatchEvent(new CustomEvent("tute:options-set", { bubbles: true }));
}

// The form's options, as the `options` request sends them.
export function readOptions(form, like) {
  const options = {};
  for (const name of Object.keys(like)) {
    const field = form.elements.namedItem(name);
    if (!field) continue;
    if (field.type === "checkbox") options[name] = field.checked;
    else if (field.type === "number" || name === "players") {
      const number = Number(field.value);
      options[name] = field.value !== "" && Number.isInteger(number) ? number : field.value;
    } else options[name] = field.value;
  }
  return options;
}

export function clearFieldErrors(form) {
  form.querySelectorAll("[data-errors-for]").forEach((list) => list.replaceChildren());
  form.querySelectorAll(".has-error").forEach((f) => f.classList.remove("has-error"));
}

// A refusal of the options: its message next to the field at fault.
export function showFieldError(field, message) {
  const form = $("options-form");
  clearFieldErrors(form);
  const list = form.querySelector(`[data-errors-for="${CSS.escape(field)}"]`)
    || form.querySelector('[data-errors-for="__all__"]');
  list.replaceChildren(make("li", "", message));
  list.closest(".field")?.classList.add("has-error");
  $("options-details").open = true;
}

/* The master's list of invited players, kept as it is: read again when someone is invited,
   sits or stands (a frame of this table says so) or declines (the master's own socket says
   so, from static/js/me.js). */
const INVITED_CHANGES = new Set(["invite", "sit", "stand"]);

function watchInvited(store, app) {
  const box = $("invited-box");
  if (!box) return;
  let master = false;
  const refresh = () => {
    if (!master) return;
    fetch(box.dataset.url, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : null))
      .then((html) => {
        if (html !== null) box.innerHTML = html;
      })
      .catch(() => {}); // the next change reads it again
  };
  store.onFrame((S, previous) => {
    master = !!(S.may && S.may.invite);
    if (previous && S.event && INVITED_CHANGES.has(S.event.kind)) refresh();
  });
  document.addEventListener("tute:invitation-declined", (event) => {
    if (event.detail.table_id === Number(app.dataset.tableId)) refresh();
  });
}
