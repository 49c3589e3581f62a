"""Waiting in a page for what it draws, without polling it.

Playwright's `wait_for_function` runs its predicate at every animation frame (60 a second)
while it waits, and so keeps headless Chromium drawing frames: a whole game on a phone spent
most of its CPU there while robots played. `until` runs the predicate once at once, then
at the animation frame after each change to the page's DOM (as the polling did, after the
page's own script has drawn), and never while nothing changes. A bound, not a measure: the
timeout only turns a page that never draws it into a failure.
"""

from __future__ import annotations

from typing import Any

# The predicate's source is put in the page's function (no `eval`: the site's CSP forbids it).
UNTIL = """([arg, timeout]) => new Promise((resolve, reject) => {
  const predicate = PREDICATE;
  let frame = 0;
  let timer = 0;
  let observer = null;
  const finish = () => {
    if (observer) observer.disconnect();
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
  };
  const check = () => {
    frame = 0;
    let value;
    try {
      value = predicate(arg);
    } catch (error) {
      finish();
      reject(error);
      return;
    }
    if (value) {
      finish();
      resolve(value);
    }
  };
  observer = new MutationObserver(() => {
    if (!frame) frame = requestAnimationFrame(check);
  });
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  timer = setTimeout(() => {
    finish();
    reject(new Error(`nothing drawn in ${timeout} ms made the predicate true`));
  }, timeout);
  check();
})"""


def until(page, predicate: str, *, arg: Any = None, timeout: float = 30_000) -> Any:
    """The first truthy value of the JavaScript function `predicate(arg)` in `page`, checked
    now and after each change to its DOM; an error after `timeout` milliseconds."""
    try:
        return page.evaluate(UNTIL.replace("PREDICATE", f"({predicate})", 1), [arg, timeout])
    except Exception as error:
        raise AssertionError(f"{error}: {predicate}") from None
