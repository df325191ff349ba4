// The live trace of an open build page (no inline script under the CSP, so it ships in the pages' one
// script file): while the build is not finished, it asks `trace.json?offset=N&state=S` every second for
// what the trace gained after byte N, rendered and escaped by the server, and appends it; only new bytes
// travel. It follows the end while the reader is at the bottom, asks again at once when it fell behind,
// reloads the page when the build's status changes (buttons and facts follow), and stops when the build
// has finished and its trace has been read to the end, or once a form on the page is sent (a reload then
// would cancel the form's navigation and lose its answer, e.g. "The build was canceled."). Without script
// the page shows the trace as it was and a reload shows more.
export const BUILD_TRACE_SCRIPT = `
(() => {
  const box = document.getElementById('build-trace-box');
  const pre = document.getElementById('build-trace');
  if (!box || !pre || box.dataset.complete === 'true') return;
  const pollMs = 1000;
  let offset = Number(box.dataset.offset) || 0;
  let state = box.dataset.state || '';
  const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 40;
  let leaving = false;
  document.addEventListener('submit', () => { leaving = true; });
  const poll = async () => {
    if (leaving) return;
    let next = pollMs;
    try {
      const query = 'offset=' + offset + '&state=' + encodeURIComponent(state);
      const response = await fetch(box.dataset.traceUrl + '?' + query, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (response.ok) {
        const piece = await response.json();
        const follow = atBottom();
        if (piece.start < offset) pre.innerHTML = piece.html;
        else if (piece.html) pre.insertAdjacentHTML('beforeend', piece.html);
        offset = piece.offset;
        state = piece.state;
        if (follow && piece.html) window.scrollTo(0, document.documentElement.scrollHeight);
        if (leaving) return;
        if (piece.status !== box.dataset.status) return location.reload();
        if (piece.complete) return;
        if (piece.more) next = 0;
      }
    } catch {
      // A network blip: the next round asks again from the same offset.
    }
    setTimeout(poll, next);
  };
  setTimeout(poll, pollMs);
})();
`;
