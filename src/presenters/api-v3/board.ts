// GitLab 8.13's Board and List entities: a board's id and its label lists (Backlog and Done are not
// shown), each list with its id, its label as LabelBasic (name, color, description) and its position.
import type { BoardListView, BoardView } from '../../views/board-views.ts';

export function presentList(view: BoardListView) {
  const { label } = view;
  return {
    id: view.list.id,
    label: label ? { name: label.title, color: label.color, description: label.description } : null,
    position: view.list.position,
  };
}

export function presentBoard(view: BoardView) {
  return {
    id: view.board.id,
    lists: view.lists.filter((list) => list.list.list_type === 1).map(presentList),
  };
}
