// Task boxes of a description that post as they are ticked: the form (presenters/html/discussion.tsx)
// works without script (its button posts every box's state); with script its button hides and each
// change posts `task_index`, `checked` and the version the page was drawn from. A 409 means someone
// else changed the description meanwhile: the box goes back and the reader is asked to reload.
export const TASK_LIST_SCRIPT = `
(() => {
  for (const form of document.querySelectorAll('form[data-task-form="true"]')) {
    const save = form.querySelector('.task-save');
    const status = form.querySelector('.task-status');
    const version = form.querySelector('input[name="lock_version"]');
    if (save) save.hidden = true;
    form.addEventListener('change', async (event) => {
      const box = event.target;
      if (!(box instanceof HTMLInputElement) || box.name !== 'task[]') return;
      const body = new URLSearchParams();
      body.set('authenticity_token', form.querySelector('input[name="authenticity_token"]').value);
      body.set('lock_version', version.value);
      body.set('task_index', box.value);
      body.set('checked', box.checked ? '1' : '0');
      box.disabled = true;
      try {
        const response = await fetch(form.action, {
          method: 'POST',
          body,
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        });
        if (response.ok) {
          const answer = await response.json();
          version.value = answer.lock_version;
          if (status) status.textContent = 'Saved.';
        } else {
          box.checked = !box.checked;
          if (status)
            status.textContent = response.status === 409
              ? 'Someone changed this description since the page was loaded: reload to see it.'
              : 'The task could not be saved.';
        }
      } catch {
        box.checked = !box.checked;
        if (status) status.textContent = 'The task could not be saved.';
      } finally {
        box.disabled = false;
      }
    });
  }
})();
`;
