// What a start says about itself, in plain words: version, database, data dir, every surface it serves
// (a list, so each server that listens adds its own line), and what happened to root.
import type { Logger } from 'pino';
import type { RootUserOutcome } from '../services/users/root-user.ts';

/** Something clients connect to: the HTTP API, git over HTTP, SSH … */
export interface Surface {
  name: string;
  url: string;
  /** Further facts worth a glance (a host key fingerprint …). */
  details?: string[];
}

export interface StartupSummary {
  version: string;
  database: string;
  dataDir: string;
  surfaces: Surface[];
  root: RootUserOutcome;
  startedInMs: number;
}

function rootLine(root: RootUserOutcome, withSecrets = true): string {
  if (!root.created) return 'exists already';
  if (!withSecrets) return 'created on this start';
  const secrets = [
    root.generatedPassword && `password ${root.generatedPassword}`,
    root.generatedToken && `private token ${root.generatedToken}`,
  ].filter(Boolean);
  if (secrets.length === 0) return 'created on this start (password and token from the environment)';
  return `created on this start: ${secrets.join(', ')} (shown only now)`;
}

function summaryLines(summary: StartupSummary): string[] {
  const rows: Array<[string, string]> = [
    ['database', summary.database],
    ['data dir', summary.dataDir],
    ...summary.surfaces.flatMap((surface): Array<[string, string]> => [
      [surface.name, surface.url],
      ...(surface.details ?? []).map((detail): [string, string] => ['', detail]),
    ]),
    ['root', rootLine(summary.root)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `Labrador ${summary.version} (GitLab 8.13 API v3) started in ${summary.startedInMs} ms`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ];
}

/** On a terminal a block of text; for log collectors one record with the same facts as fields. */
export function reportStartup(log: Logger, summary: StartupSummary, terminal: boolean): void {
  if (terminal) {
    process.stdout.write(`${summaryLines(summary).join('\n')}\n`);
  } else {
    const { root, ...facts } = summary;
    const http = summary.surfaces[0]?.url ?? '';
    log.info(
      {
        ...facts,
        rootCreated: root.created,
        ...(root.generatedPassword ? { rootPassword: root.generatedPassword } : {}),
        ...(root.generatedToken ? { rootToken: root.generatedToken } : {}),
      },
      `Labrador ${summary.version} started in ${summary.startedInMs} ms on ${http} (${summary.database}, data dir ${summary.dataDir}); root ${rootLine(root, false)}`,
    );
  }
  if (summary.root.ignoredSettings.length > 0) {
    const names = summary.root.ignoredSettings;
    log.warn(
      `${names.join(' and ')} ${names.length > 1 ? 'were' : 'was'} ignored: root exists already and only the first start uses ${names.length > 1 ? 'them' : 'it'} (npm run admin -- reset-password root / create-token root change them)`,
    );
  }
}
