// v4's Label entity (lib/api/entities/label.rb, LabelBasic and Label): the label by id and name, its
// colour, its description as HTML (the pages' safe renderer) and the text colour GitLab draws on it, the counts when `with_counts` asked for them, the
// caller's subscription, its priority, and is_project_label (false for a group's label; GroupLabel is the
// same entity).
import type { LabelView } from '../api-v3/issue.ts';
import type { LabelRow } from '../../db/types.ts';
import { renderCommentMarkdown } from '../html/markdown.ts';

/** GitLab's text_color_for_bg: dark text on light colours (perceived brightness above 186 of 255). */
function textColorFor(color: string): string {
  const hex = color.slice(1);
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16));
  return r! * 0.299 + g! * 0.587 + b! * 0.114 > 186 ? '#1F1E24' : '#FFFFFF';
}

/** LabelBasic: what a board list shows of its label. */
export function presentLabelBasicV4(label: LabelRow) {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: label.description ? renderCommentMarkdown(label.description).value.trim() : '',
    text_color: textColorFor(label.color),
    remove_on_close: false,
  };
}

export function presentLabelV4(view: LabelView, withCounts: boolean) {
  const { label } = view;
  const { remove_on_close: _removeOnClose, ...basic } = presentLabelBasicV4(label);
  return {
    ...basic,
    ...(withCounts
      ? {
          open_issues_count: view.openIssues,
          closed_issues_count: view.closedIssues,
          open_merge_requests_count: view.openMergeRequests,
        }
      : {}),
    subscribed: view.subscribed,
    priority: label.priority,
    is_project_label: label.project_id !== null,
  };
}
