// Function expression (element id): ends the pause overlay of this world (its keeper stops re-attaching it) and removes any overlay left with that id; returns whether one was showing.
(id) => {
  const end = globalThis[id + ':end'];
  if (typeof end === 'function') end('timeout');
  const left = document.getElementById(id);
  if (left) left.remove();
  return typeof end === 'function' || Boolean(left);
}
