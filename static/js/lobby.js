/* The lobby stays live: /ws/lobby/ pushes each table that opened or changed (`table`) and each
   that closed (`table_closed`), and the row is drawn in its place (inserted newest first,
   replaced, or removed), as the page draws its own rows (table_list.html) and with the page's
   words (#lobby-strings). Rows the filters on show leave out are left out. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const lobby = document.querySelector("[data-lobby-socket]");
  if (!lobby) return;
  const S = JSON.parse(document.getElementById("lobby-strings").textContent);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  const make = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // The filters on show (LobbyFilterForm): a variant, at least so many free seats, a stake
  // up to so much; an empty field filters nothing.
  function shown(row) {
    const form = lobby.querySelector(".lobby-filters");
    if (!form) return true;
    const data = new FormData(form);
    const variant = data.get("variant");
    const free = Number(data.get("free") || 0);
    const maxStake = data.get("max_stake");
    if (variant && row.options.variant !== variant) return false;
    if (free && row.free_seats < free) return false;
    if (maxStake && row.options.stake > Number(maxStake)) return false;
    return true;
  }

  // The sentence about the table's options comes written by the server, in each language.
  const optionsLine = (row) => row.options_text[document.documentElement.lang] || Object.values(row.options_text)[0];

  function tile(row) {
    const item = make("li", `table-tile status-${row.status}`);
    item.dataset.tableId = row.id;
    const head = make("div", "tile-head");
    const title = make("a", "tile-title", `${S.variants[row.options.variant]} `);
    title.href = row.url;
    title.append(make("span", "muted", `#${row.id}`));
    const playing = row.status === "playing";
    head.append(title);
    if (row.invited) head.append(make("span", "badge badge-invited", S.invited));
    if (row.same_address) {
      const badge = make("span", "badge badge-unranked", S.same_address_badge);
      badge.title = S.same_address;
      head.append(badge);
    }
    head.append(make("span", `badge ${playing ? "badge-live" : "badge-open"}`, playing ? S.running : S.waiting));
    const seats = make("ul", "tile-seats");
    for (const seat of row.seats) {
      const li = make("li", seat ? "taken" : "free");
      if (!seat) li.textContent = S.free_seat;
      else if (!seat.user) {
        const name = S.robot_names[seat.seat % S.robot_names.length];
        li.textContent = fmt(S.robot_label, { name, level: S.levels[seat.robot] || seat.robot });
      }
      else {
        if (seat.user === row.master) {
          const star = make("span", "star", "★");
          star.title = S.master;
          star.setAttribute("aria-label", S.master);
          li.append(star);
        }
        li.append(seat.user);
      }
      seats.append(li);
    }
    const foot = make("p", "tile-foot", `${S.free_seats[row.free_seats]} · `);
    // Counted up to a limit (views.WATCHERS_COUNTED): beyond it, the last word's number.
    const most = Math.max(...Object.keys(S.watchers).map(Number));
    const watchers = S.watchers[row.watchers] || S.watchers[most].replace(String(most), row.watchers);
    foot.append(make("span", "watchers", watchers), " ");
    const link = make("a", "button small", row.free_seats && !playing ? S.join : S.watch);
    link.href = row.url;
    foot.append(link);
    item.append(head, make("p", "tile-options", optionsLine(row)), seats, foot);
    return item;
  }

  // The list of rows, made when the first row comes to an empty lobby.
  function tiles() {
    const section = document.getElementById("lobby-tables");
    if (!section) return null;
    let list = section.querySelector(".table-tiles");
    if (!list) {
      section.replaceChildren((list = make("ul", "table-tiles")));
    }
    return list;
  }

  function emptied(all = false) {
    const section = document.getElementById("lobby-tables");
    if (section && (all || !section.querySelector(".table-tile"))) {
      section.replaceChildren(make("p", "empty", S.empty));
    }
  }

  function remove(id) {
    document.querySelector(`#lobby-tables .table-tile[data-table-id="${id}"]`)?.remove();
    emptied();
  }

  function put(row) {
    if (!shown(row)) {
      remove(row.id);
      return;
    }
    const list = tiles();
    if (!list) return;
    const fresh = tile(row);
    const old = list.querySelector(`.table-tile[data-table-id="${row.id}"]`);
    if (old) {
      old.replaceWith(fresh);
      return;
    }
    // Newest first: before the first row of an older table.
    const older = [...list.children].find((node) => Number(node.dataset.tableId) < row.id);
    list.insertBefore(fresh, older || null);
  }

  // The whole list on connect (a table may have opened since the page was drawn) and after
  // each reconnect, then one row per change.
  window.tuteSocket(lobby.dataset.lobbySocket, {
    onMessage(frame) {
      if (frame.type === "table") put(frame.table);
      else if (frame.type === "table_closed") remove(frame.table_id);
      else if (frame.type === "tables") {
        const rows = frame.tables.filter(shown);
        if (rows.length) tiles()?.replaceChildren(...rows.map(tile));
        else emptied(true);
      }
    },
  });
});
