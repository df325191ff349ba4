// The CI pages' part of the stylesheet: status badges, stages, actions and the trace with its terminal
// colours (classes only: the CSP allows no inline style).
import { traceColourRules } from '../../../presenters/html/ansi.ts';

export const CI_STYLESHEET = `
.ci-status { display: inline-block; font-size: .85em; padding: 0 8px; border-radius: 10px; border: 1px solid;
  white-space: nowrap; }
.ci-success { color: #0d6b35; border-color: #5fb98a; background: #ecf8f0; }
.ci-failed { color: #a3231b; border-color: #e08a84; background: #fdeeed; }
.ci-running { color: #1b5fa8; border-color: #7aa7d9; background: #edf4fc; }
.ci-pending, .ci-created { color: #7a5200; border-color: #d9b66a; background: #fdf6e7; }
.ci-canceled, .ci-skipped { color: #555; border-color: #bbb; background: #f4f4f4; }
td a, h1 a, dd a { text-decoration: underline; }
a.ci-status { text-decoration: none; }
/* The merge request's pipeline: text in the page's colours, the status told by the badge and the edge. */
.ci-widget { border-left: 4px solid #bbb; padding-left: 10px; }
.ci-widget-success { border-left-color: #5fb98a; }
.ci-widget-failed { border-left-color: #e08a84; }
.ci-widget-running { border-left-color: #7aa7d9; }
.ci-widget-pending, .ci-widget-created { border-left-color: #d9b66a; }
ul.stages { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 10px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0 12px; }
pre.trace { background: #181818; color: #ddd; border-color: #333; white-space: pre-wrap; overflow-wrap: anywhere;
  min-height: 3em; max-width: 100%; }
${traceColourRules()}
`;
