// v4's ApplicationSetting (the settings Labrador has) and ApplicationStatistics entities.
import type { Config } from '../../config.ts';
import type { InstanceCounts } from '../../db/repositories/instance-statistics.ts';

export function presentApplicationSettings(settings: object, config: Config) {
  return {
    id: 1,
    signup_enabled: false,
    ...settings,
    // Artifacts' bound comes from the configuration (LABRADOR_ARTIFACTS_MAX_BYTES); GitLab says megabytes.
    max_artifacts_size: Math.floor(config.artifactsMaxBytes / (1024 * 1024)),
  };
}

const delimited = (count: number) => count.toLocaleString('en-US');

export function presentApplicationStatistics(counts: InstanceCounts) {
  return {
    forks: delimited(counts.forks),
    issues: delimited(counts.issues),
    merge_requests: delimited(counts.mergeRequests),
    notes: delimited(counts.notes),
    snippets: delimited(counts.snippets),
    ssh_keys: delimited(counts.sshKeys),
    milestones: delimited(counts.milestones),
    users: delimited(counts.users),
    groups: delimited(counts.groups),
    projects: delimited(counts.projects),
    active_users: delimited(counts.activeUsers),
  };
}
