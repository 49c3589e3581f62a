"""What the felt tests watch in the page: every change to the felt checked for boxes that
overlap or leave it, and names a line break cut in two; and, at a turn, what of it is off
the screen."""

# Installed before the page's own script: from its first frame, each change to the felt is
# checked at the next animation frame; what overlaps is kept (once per pair of texts).
WATCH = """(() => {
  const PARTS = ['#felt .seat-box', '#notice', '#trick-taken', '#felt .cante-chip',
    '#felt .dealer-chip', '#felt .seat-flag', '#felt .team-tag', '#felt .scoreboard',
    '#trump .trump-suit', '#trump .stock-count', '#trump .trump-card', '#trump .stock-pile',
    '#trick .played'];
  const owner = (el) => el.closest('.seat-box') || el.closest('#trump')
    || (el.closest('#trick') ? 'trick' : el);
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


# What the player may do now, and what of a turn is off screen, read in one call. A part is
# on screen when its whole box is inside the viewport; the page must not have scrolled.
TURN = """() => {
  const shown = (el) => el && !el.hidden && !el.closest('[hidden]') && el.getClientRects().length;
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
      && r.right <= innerWidth + 0.5;
  };
  const heading = document.querySelector('#summary h2');
  const over = shown(heading) && document.getElementById('summary').dataset.over === 'game';
  let step = null;
  if (over) step = 'over';
  else if (document.querySelector('#actions button:not([disabled])')) step = 'action';
  else if (document.querySelector('#hand button.playable:not([disabled])')) step = 'card';
  else if (shown(document.getElementById('next-deal'))
           && !document.getElementById('next-deal').disabled) step = 'deal';
  if (step === null) return null;
  const off = [];
  const wide = document.documentElement.scrollWidth - innerWidth;
  if (wide > 0) off.push(`page ${wide}px too wide`);
  if (scrollY !== 0) off.push(`scrolled by ${scrollY}px`);
  if (step === 'card' || step === 'action') {
    const parts = ['#hand', '#trick', '#trump', '#status'];
    if (step === 'action') parts.push('#actions');
    if (shown(document.getElementById('clock'))) parts.push('#clock');
    for (const sel of parts) if (!inside(document.querySelector(sel))) off.push(sel);
    for (const b of document.querySelectorAll('#hand button')) {
      const r = b.getBoundingClientRect();
      if (r.width < 40 || r.height < 56) off.push(`card ${b.dataset.card} ${r.width}x${r.height}`);
      if (!inside(b)) off.push(`card ${b.dataset.card} off screen`);
    }
    if (!document.querySelector('#status').textContent.trim()) off.push('no turn line');
  }
  // What the felt explains now: who took the trick and which card is marked as winning it.
  const taken = document.getElementById('trick-taken');
  const winning = document.querySelector('#trick .played.winning');
  const seatAt = (pos) => {
    const box = document.querySelector(`#felt .seat-box.pos-${pos}`);
    return box ? box.dataset.name : null;
  };
  const pos = winning ? [...winning.classList].find((c) => c.startsWith('pos-')).slice(4) : null;
  return {
    step, off,
    taken: shown(taken) ? taken.textContent : null,
    winner: pos && seatAt(pos),
    illegal: document.querySelectorAll('#hand button.illegal').length,
    summary: shown(document.getElementById('summary'))
      ? document.getElementById('summary').innerText : null,
  };
}"""
