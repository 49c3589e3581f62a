/* The seats panel: who sits where (the master's star, robots, away or abandoned players and
   the countdown of the seat waited for), "Sit here" on a free seat, "Stand up", and each
   side's chance of winning before a competitive game. */
import { $, T, appendFlagAndClock, fmt, make, robotIcon } from "./dom.js";
import { hasClock, mySeat, seatFlag, tableName } from "./model.js";

export function watchSeats(store) {
  store.watch(
    (S) => {
      const me = mySeat(S);
      const may = S.may || {};
      return {
        seats: S.table.seats.map((entry, seat) => (entry ? {
          master: !!(entry.user && entry.user === S.table.master),
          robot: !entry.user,
          name: tableName(entry),
          me: seat === me,
          flag: seatFlag(S, seat),
          clock: hasClock(S, seat),
        } : { free: true, sit: may.sit ? seat : null })),
        // Before a competitive game: each side's chance from the ratings.
        chances: S.chances && fmt(T.chances, {
          list: S.chances
            .map((c) => `${c.seats.map((seat) => S.table.seats[seat].user).join(" & ")} ${c.percent}%`)
            .join(" · "),
        }),
        // Two players sit from one address: the game counts for no ranking.
        sameAddress: !!S.table.same_address,
        stand: !!may.stand,
      };
    },
    draw,
  );
}

function draw({ seats, chances, sameAddress, stand }) {
  const list = $("seats");
  const token = document.querySelector("[name=csrfmiddlewaretoken]");
  list.replaceChildren(...seats.map((seat) => {
    const item = make("li");
    if (seat.free) {
      item.append(make("span", "free", T.free_seat));
      if (seat.sit !== null) item.append(" ", requestForm("sit", T.sit, { seat: seat.sit }, token));
      return item;
    }
    if (seat.master) {
      const star = make("span", "star", "★");
      star.setAttribute("aria-label", T.master);
      item.append(star, " ");
    }
    if (seat.robot) {
      item.classList.add("robot");
      item.append(robotIcon(), " ");
    }
    item.append(seat.name);
    if (seat.me) item.append(make("span", "you-tag", ` (${T.you})`));
    appendFlagAndClock(item, seat);
    return item;
  }));
  $("chances")?.remove();
  $("same-address")?.remove();
  $("stand-form")?.remove();
  // Under the list: "Stand up", then the chances or why there are none.
  if (sameAddress) {
    const line = make("p", "same-address", T.same_address);
    line.id = "same-address";
    line.setAttribute("role", "note");
    list.after(line);
  }
  if (chances) {
    const line = make("p", "chances", chances);
    line.id = "chances";
    list.after(line);
  }
  if (stand) {
    const form = requestForm("stand", T.stand, {}, token);
    form.id = "stand-form";
    list.after(form);
  }
}

// A real form: it posts to the server without the socket too.
function requestForm(kind, label, fields, token) {
  const form = make("form", "inline");
  form.method = "post";
  form.action = `${location.pathname}request/`;
  form.dataset.ws = kind;
  const inputs = { do: kind, ...fields };
  if (token) inputs.csrfmiddlewaretoken = token.value;
  for (const [name, value] of Object.entries(inputs)) {
    const input = make("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const button = make("button", kind === "sit" ? "small" : "ghost", label);
  button.type = "submit";
  form.append(button);
  return form;
}
