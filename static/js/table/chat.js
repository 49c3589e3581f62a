/* The chat: its lines (new ones appended, never the whole log redrawn on a game move) and
   its form, shown when the frame says you may chat (`may.chat`). A muted player's box says
   until when and why, and the form comes back by itself when the mute ends (the page asks
   the server again then, the mute and the whole state: a moderator may have made it longer). */
import { $, T, fmt, labelled, make } from "./dom.js";
import { closed } from "./model.js";

export function watchChat(store, app, resync) {
  const log = $("chat-log");
  let drawn = []; // the ids of the lines on show, in order

  function line(message) {
    const item = make("li");
    item.dataset.id = message.id;
    // textContent: the text is shown as typed, never as HTML.
    item.append(make("strong", "", message.user), ": ", make("span", "", message.text));
    if (app.dataset.user && message.user !== app.dataset.user) {
      const report = make("a", "report-message", "⚑");
      report.href = `${app.dataset.report}?message=${encodeURIComponent(message.id)}`;
      report.title = T.report_message;
      report.setAttribute("aria-label", labelled(T.report_message, message.user));
      item.append(" ", report);
    }
    return item;
  }

  store.watch(
    (S) => S.chat,
    (lines) => {
      const ids = lines.map((message) => message.id);
      const more = drawn.length <= ids.length && drawn.every((id, i) => ids[i] === id);
      if (more) log.append(...lines.slice(drawn.length).map(line));
      else log.replaceChildren(...lines.map(line));
      drawn = ids;
      log.scrollTop = log.scrollHeight;
    },
  );

  const box = $("chat-muted");
  let mute = { until: box.dataset.until, reason: box.dataset.reason };
  let muteTimer = null;
  const mutedUntil = () => (mute.until && new Date(mute.until) > Date.now() ? new Date(mute.until) : null);

  const again = store.watch(
    (S) => {
      const until = mutedUntil();
      return {
        canChat: !!(S.may && S.may.chat),
        closed: closed(S),
        until: until && until.toISOString(),
        reason: mute.reason,
      };
    },
    (slice) => {
      box.hidden = !slice.until || slice.closed;
      if (slice.until) {
        box.textContent = fmt(T.muted_until, { time: localTime(new Date(slice.until)), reason: slice.reason });
      }
      $("chat-form").hidden = !slice.canChat || !!slice.until;
    },
  );

  function showMute(answer) {
    const hadMute = !!mute.until;
    mute = { until: answer && answer.until ? answer.until : "", reason: answer && answer.reason ? answer.reason : "" };
    // The mute is over: the server's `may.chat` is asked again with the whole state.
    if (hadMute && !mutedUntil()) resync();
    clearTimeout(muteTimer);
    const until = mutedUntil();
    // Once it ends, ask again and redraw.
    if (until) muteTimer = setTimeout(loadMute, Math.min(until - Date.now() + 500, 2 ** 31 - 1));
    again();
  }

  async function loadMute() {
    try {
      const response = await fetch(app.dataset.mute, { headers: { Accept: "application/json" } });
      if (response.ok) showMute(await response.json());
    } catch (_error) {
      // Offline: the socket's reconnection redraws the page; the chat box stays as it is.
    }
  }

  showMute(mute);
  return { loadMute };
}

function localTime(moment) {
  const lang = document.documentElement.lang || undefined;
  const sameDay = moment.toDateString() === new Date().toDateString();
  // The 24-hour clock, as everywhere on the site: "until 21:40".
  const clock = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  const options = sameDay ? clock : { day: "numeric", month: "short", ...clock };
  return moment.toLocaleString(lang, options);
}
