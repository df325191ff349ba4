// The board page's script (served as a file: the CSP allows no inline script): with it a person who may
// move cards drags one to another column. The drop sends the card's own Move form (its form token and
// from_list_id, to_list_id set to the column) with `Accept: application/json`; when the server says 204
// the card moves into the column and both counts change, otherwise the status line says it failed and
// the card stays. Without script the Move forms do the same by a page load.
export const BOARD_SCRIPT = `
(() => {
  const board = document.querySelector('.board[data-board="movable"]');
  if (!board) return;
  const status = document.querySelector('[data-board-status]');
  const say = (text) => { if (status) status.textContent = text; };
  let dragged = null;
  for (const card of board.querySelectorAll('.board-card')) {
    card.draggable = true;
    card.addEventListener('dragstart', (event) => {
      dragged = card;
      card.classList.add('dragging');
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', card.dataset.iid || '');
    });
    card.addEventListener('dragend', () => {
      card.classList.remove('dragging');
      dragged = null;
    });
  }
  const count = (column, delta) => {
    const badge = column.querySelector('[data-board-count]');
    if (!badge || /\\+$/.test(badge.textContent)) return;
    badge.textContent = String(Number(badge.textContent) + delta);
  };
  const move = async (card, column) => {
    const form = card.querySelector('form.board-move');
    const from = card.closest('.board-column');
    if (!form || !from || from === column) return;
    const to = column.dataset.listId;
    const select = form.querySelector('select[name="to_list_id"]');
    const body = new FormData(form);
    body.set('to_list_id', to);
    say('Moving #' + card.dataset.iid + '…');
    let response;
    try {
      response = await fetch(form.action, {
        method: 'POST',
        body: new URLSearchParams(body),
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
    } catch {
      say('#' + card.dataset.iid + ' could not be moved: the server did not answer.');
      return;
    }
    if (response.status !== 204) {
      say('#' + card.dataset.iid + ' could not be moved.');
      return;
    }
    column.querySelector('.board-cards').prepend(card);
    form.querySelector('input[name="from_list_id"]').value = to;
    if (select) {
      const fromOption = document.createElement('option');
      fromOption.value = from.dataset.listId;
      fromOption.textContent = from.querySelector('h2').firstChild.textContent.trim();
      select.append(fromOption);
      const toOption = select.querySelector('option[value="' + to + '"]');
      if (toOption) toOption.remove();
    }
    count(from, -1);
    count(column, 1);
    say('#' + card.dataset.iid + ' moved to ' + column.querySelector('h2').firstChild.textContent.trim() + '.');
  };
  for (const column of board.querySelectorAll('.board-column')) {
    column.addEventListener('dragover', (event) => {
      if (!dragged) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      column.classList.add('drop-target');
    });
    column.addEventListener('dragleave', () => column.classList.remove('drop-target'));
    column.addEventListener('drop', (event) => {
      event.preventDefault();
      column.classList.remove('drop-target');
      if (dragged) move(dragged, column);
    });
  }
})();
`;

export const BOARD_STYLESHEET = `
.board { display: flex; gap: 12px; overflow-x: auto; align-items: flex-start; padding-bottom: 8px; }
.board-column { flex: 0 0 260px; background: #f4f5f7; border: 1px solid #dde; border-radius: 6px; padding: 8px; }
.board-column h2 { font-size: 1rem; margin: 0 0 8px; display: flex; justify-content: space-between; }
.board-column.drop-target { outline: 2px dashed var(--link); }
.board-cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; min-height: 40px; }
.board-card { background: #fff; border: 1px solid #dde; border-radius: 4px; padding: 8px; }
.board-card.dragging { opacity: 0.5; }
.board[data-board="movable"] .board-card { cursor: grab; }
.board-card-footer { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; align-items: baseline; }
.board-move { display: flex; gap: 4px; align-items: end; margin-top: 6px; font-size: 0.85rem; }
.board-move label { display: grid; gap: 2px; }
`;
