// The pages' only script, served as a file (the CSP allows no inline script): a Copy button beside each
// clone URL. Pages work without it; the field can be selected by hand.
export const COPY_SCRIPT = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied';
    } catch {
      field.select();
    }
  });
}
for (const select of document.querySelectorAll('select[data-autosubmit]')) {
  select.addEventListener('change', () => select.form && select.form.submit());
  const button = select.form && select.form.querySelector('button[type=submit]');
  if (button) button.hidden = true;
}
// Broadcast messages carry their colours as data (the CSP allows no style attribute); without the
// script they show in the stylesheet's default colours.
for (const banner of document.querySelectorAll('[data-broadcast-color]')) {
  banner.style.backgroundColor = banner.dataset.broadcastColor;
  if (banner.dataset.broadcastFont) banner.style.color = banner.dataset.broadcastFont;
}
`;
