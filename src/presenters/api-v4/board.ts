// Today's Board and List entities (lib/api/entities/board.rb, list.rb, CE): a board's id, name, the two
// hide flags, its project as BasicProjectDetails and its label lists; a list's id, its label as
// LabelBasic and its position.
import type { BoardListView, BoardView } from '../../views/board-views.ts';
import { presentLabelBasicV4 } from './label.ts';

export function presentListV4(view: BoardListView) {
  return {
    id: view.list.id,
    label: view.label ? presentLabelBasicV4(view.label) : null,
    position: view.list.position,
  };
}

export function presentBoardV4(view: BoardView, project: unknown) {
  return {
    id: view.board.id,
    name: view.board.name,
    hide_backlog_list: view.board.hide_backlog_list === 1,
    hide_closed_list: view.board.hide_closed_list === 1,
    project,
    lists: view.lists.filter((list) => list.list.list_type === 1).map(presentListV4),
  };
}
