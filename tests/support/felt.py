"""What the felt tests watch in the page: every change to the felt checked for boxes that
overlap or leave it, and names a line break cut in two."""

# Installed before the page's own script: from its first frame, each change to the felt is
# checked at the next animation frame; what overlaps is kept (once per pair of texts).
WATCH = """(() => {
  const PARTS = ['#felt .seat-box', '#notice', '#trick-taken', '#felt .cante-chip',
    '#felt .dealer-chip', '#felt .seat-flag', '#felt .team-tag', '#felt .scoreboard',
    '#trump .trump-suit', '#trump .stock-count', '#trump .trump-card', '#trump .stock-pile',
    '#trick .played'];
  const owner = (el) => el.closest('.seat-box') || el.closest('#trump')
    || (el.closest('#trick') || el.id === 'trick-taken' ? 'trick' : el);
  const shown = (el) => !el.closest('[hidden]') && el.getClientRects().length > 0;
  const found = window.__overlaps = [];
  window.__checks = 0;
  const said = new Set();
  const name = (el) => {
    const r = el.getBoundingClientRect();
    const at = [r.left, r.top, r.right, r.bottom].map(Math.round);
    return `${el.className || el.id}: ${el.textContent.trim().slice(0, 40)} [${at}]`;
  };
  const check = () => {
    frame = 0;
    const felt = document.getElementById('felt');
    const summary = document.getElementById('summary');
    if (!felt || (summary && !summary.hidden)) return; // the summary lies over all of it
    window.__checks++;
    const edge = felt.getBoundingClientRect();
    const boxes = [...document.querySelectorAll(PARTS.join(','))].filter(shown)
      .map((el) => ({ el, r: el.getBoundingClientRect(), owner: owner(el) }));
    const keep = (key, text) => {
      if (!said.has(key)) { said.add(key); found.push(text); }
    };
    const kind = (el) => String(el.className || el.id).split(' ')[0];
    for (const a of boxes) {
      const r = a.r;
      if (r.left < edge.left - .5 || r.right > edge.right + .5 || r.top < edge.top - .5
          || r.bottom > edge.bottom + .5) keep(kind(a.el), `${name(a.el)} leaves the felt`);
    }
    for (const th of felt.querySelectorAll('.scoreboard th')) {
      const text = th.textContent;
      if (th.scrollWidth > th.clientWidth + 1) keep(`cut ${text}`, `cut: ${text}`);
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        if (a.owner === b.owner || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        const pair = `${name(a.el)} | ${name(b.el)} (${w.toFixed(0)}x${h.toFixed(0)})`;
        if (w > .5 && h > .5) keep(`${kind(a.el)}|${kind(b.el)}`, pair);
      }
    }
  };
  let frame = 0;
  new MutationObserver(() => { if (!frame) frame = requestAnimationFrame(check); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})()"""

# The words of each name in the summary and the score box that a line break cut in two.
BROKEN = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('#summary tr + tr th, #felt .scoreboard th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""
