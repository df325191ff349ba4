// A part of a page that follows what it shows while that is still going (the pipeline page while its
// pipeline runs): every two seconds the page is fetched again and the element with the same id is
// replaced by its new version, until the new version says it is no longer live or a form on the page is
// sent (replacing the form under a submission would cancel it). The HTML is our own
// page, rendered and escaped by the server, parsed inert (DOMParser runs no script). Without script the
// page shows what was true when it was loaded.
export const LIVE_REGION_SCRIPT = `
(() => {
  const first = document.querySelector('[data-live="true"][id]');
  if (!first) return;
  const id = first.id;
  let leaving = false;
  document.addEventListener('submit', () => { leaving = true; });
  const refresh = async () => {
    if (leaving) return;
    try {
      const response = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById(id);
        const current = document.getElementById(id);
        if (fresh && current && !leaving) {
          current.replaceWith(fresh);
          if (fresh.dataset.live !== 'true') return;
        }
      }
    } catch {
      // A network blip: try again at the next round.
    }
    setTimeout(refresh, 2000);
  };
  setTimeout(refresh, 2000);
})();
`;
