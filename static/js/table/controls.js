/* A seated player's controls during a game, each shown when the frame says it may be asked
   (`may`): "Take my seat back" while the robot holds their seat, "Propose to cancel" while
   no proposal is open, and "Leave the game", which asks to confirm first: leaving a running
   game is abandoning it. */
import { $ } from "./dom.js";

const OWN = ["resume", "cancel", "leave"];

export function watchControls(store, request) {
  store.watch(
    (S, { pending }) => {
      const may = S.may || {};
      return {
        active: !!may.leave,
        resume: !!may.resume,
        cancel: !!may.cancel,
        busy: OWN.includes(pending) ? pending : null,
      };
    },
    ({ active, resume, cancel, busy }) => {
      $("resume").hidden = !resume;
      $("propose-cancel").hidden = !cancel;
      $("leave-game").hidden = !active;
      $("resume").disabled = busy === "resume";
      $("propose-cancel").disabled = busy === "cancel";
      $("leave-game").disabled = busy === "leave";
    },
  );

  $("resume").addEventListener("click", () => request({ type: "resume" }));
  $("propose-cancel").addEventListener("click", () => request({ type: "cancel" }));
  $("leave-game").addEventListener("click", () => {
    const dialog = $("leave-dialog");
    dialog.returnValue = "";
    if (typeof dialog.showModal === "function") dialog.showModal();
    else if (window.confirm($("leave-help").textContent)) request({ type: "leave" });
  });
  $("leave-dialog").addEventListener("close", () => {
    if ($("leave-dialog").returnValue === "leave") request({ type: "leave" });
  });
}
