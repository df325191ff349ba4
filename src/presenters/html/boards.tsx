// The issue board page (GitLab 8.13's projects/boards): one column per list (Backlog, the label lists by
// position, Done) with its issue cards (title, number, labels), newest first, a page at a time. Whoever
// may move issues gets a Move form on every card (it works without script); the board script lets them
// drag a card to another column instead, sending the same form. Reporters and up may also add a list.
import { Csrf, type PageContext } from './layout.tsx';
import { ProjectFrame, type ProjectHead } from './repository.tsx';

export interface BoardCardItem {
  iid: number;
  title: string;
  confidential: boolean;
  labels: string[];
}

export interface BoardColumnItem {
  id: number;
  title: string;
  /** backlog, label or done. */
  kind: 'backlog' | 'label' | 'done';
  count: number;
  page: number;
  cards: BoardCardItem[];
}

export function BoardPage(props: {
  ctx: PageContext;
  project: ProjectHead;
  board: { id: number; name: string };
  boards: Array<{ id: number; name: string }>;
  columns: BoardColumnItem[];
  countCap: number;
  perPage: number;
  canMove: boolean;
  /** Labels without a list yet, for the Add list form (reporters and up). */
  addableLabels: Array<{ id: number; title: string }> | null;
}) {
  const { project, board } = props;
  const base = `/${project.path_with_namespace}`;
  const boardUrl = `${base}/boards/${board.id}`;
  return (
    <ProjectFrame
      ctx={props.ctx}
      project={project}
      title={`Board · ${project.path_with_namespace}`}
      tab="issues"
    >
      <div class="row">
        <h1>Board</h1>
        <div class="head-links">
          <a href={`${base}/issues`}>Issues</a>
          <a href={`${base}/labels`}>Labels</a>
          <a href={`${base}/milestones`}>Milestones</a>
        </div>
      </div>
      {props.boards.length > 1 ? (
        <nav aria-label="Boards">
          <ul class="tabs">
            {props.boards.map((other) => (
              <li>
                <a
                  href={`${base}/boards/${other.id}`}
                  aria-current={other.id === board.id ? 'page' : undefined}
                >
                  {other.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {props.addableLabels && props.addableLabels.length > 0 ? (
        <form class="searchbar" method="post" action={`${boardUrl}/lists`}>
          <Csrf ctx={props.ctx} />
          <label>
            Label
            <select name="label_id">
              {props.addableLabels.map((label) => (
                <option value={String(label.id)}>{label.title}</option>
              ))}
            </select>
          </label>
          <button type="submit">Add list</button>
        </form>
      ) : null}
      <p class="muted" role="status" data-board-status=""></p>
      <div class="board" data-board={props.canMove ? 'movable' : undefined}>
        {props.columns.map((column) => (
          <section
            class="board-column"
            data-list-id={String(column.id)}
            aria-labelledby={`list-${column.id}`}
          >
            <h2 id={`list-${column.id}`}>
              {column.title}{' '}
              <span class="badge" data-board-count="">
                {column.count > props.countCap ? `${props.countCap}+` : String(column.count)}
              </span>
            </h2>
            <ul class="board-cards" aria-label={column.title}>
              {column.cards.map((card) => (
                <li class="board-card" data-iid={String(card.iid)}>
                  <a href={`${base}/issues/${card.iid}`}>{card.title}</a>
                  <div class="board-card-footer">
                    <span class="muted">#{card.iid}</span>
                    {card.confidential ? <span class="badge">Confidential</span> : null}
                    {card.labels.map((label) => (
                      <span class="badge">{label}</span>
                    ))}
                  </div>
                  {props.canMove ? (
                    <form class="board-move" method="post" action={`${boardUrl}/issues/${card.iid}`}>
                      <Csrf ctx={props.ctx} />
                      <input type="hidden" name="from_list_id" value={String(column.id)} />
                      <label>
                        Move to
                        <select name="to_list_id">
                          {props.columns
                            .filter((other) => other.id !== column.id)
                            .map((other) => (
                              <option value={String(other.id)}>{other.title}</option>
                            ))}
                        </select>
                      </label>
                      <button type="submit" aria-label={`Move #${card.iid}`}>
                        Move
                      </button>
                    </form>
                  ) : null}
                </li>
              ))}
            </ul>
            <BoardColumnPager
              boardUrl={boardUrl}
              column={column}
              perPage={props.perPage}
              cap={props.countCap}
            />
          </section>
        ))}
      </div>
    </ProjectFrame>
  );
}

function BoardColumnPager(props: {
  boardUrl: string;
  column: BoardColumnItem;
  perPage: number;
  cap: number;
}) {
  const { column, perPage } = props;
  const shown = column.cards.length;
  const hasNext = column.page * perPage < Math.min(column.count, props.cap + 1);
  if (column.page === 1 && !hasNext) return null;
  const href = (page: number) => `${props.boardUrl}?list_id=${column.id}&page=${page}`;
  return (
    <p class="muted">
      {column.page > 1 ? <a href={href(column.page - 1)}>Newer</a> : null} Showing {shown} of{' '}
      {column.count > props.cap ? `${props.cap}+` : column.count}{' '}
      {hasNext ? <a href={href(column.page + 1)}>Older</a> : null}
    </p>
  );
}
