/* A WebSocket that reconnects by itself, waiting longer after each failure (0.5 s … 10 s,
   with jitter so that a restarted server is not hit by every client at once). */
"use strict";
window.tuteSocket = function (path, { onMessage, onStatus, stopCodes = [] }) {
  let socket = null;
  let failures = 0;
  let stopped = false;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    onStatus && onStatus("connecting");
    socket.addEventListener("open", () => { failures = 0; onStatus && onStatus("open"); });
    socket.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      onMessage(frame);
    });
    socket.addEventListener("close", (event) => {
      if (stopCodes.includes(event.code)) { stopped = true; onStatus && onStatus("gone"); return; }
      onStatus && onStatus("offline");
      const delay = Math.min(10000, 500 * 2 ** failures++) * (0.75 + Math.random() / 2);
      setTimeout(connect, delay);
    });
  }
  connect();
  return {
    send(message) {
      if (!stopped && socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
        return true;
      }
      return false;
    },
  };
};
