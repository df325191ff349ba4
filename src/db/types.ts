// Row types and the query shapes that several layers name. Repositories produce them; services, views,
// policies and presenters receive them (type-only imports, so nothing outside db/ runs SQL).
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type * as S from './schema.ts';

export type { Database } from './schema.ts';

export type UserRow = Selectable<S.UsersTable>;
/** A user as other entities embed it (UserBasic, and a project owner's created_at). */
export type UserBasicRow = Pick<
  UserRow,
  'id' | 'username' | 'name' | 'email' | 'avatar' | 'state' | 'created_at'
>;

export type Executor = Kysely<S.Database>;

export type NewUserRow = Insertable<S.UsersTable>;

export type UserChanges = Updateable<S.UsersTable>;

export type EmailRow = Selectable<S.EmailsTable>;

export type WebSessionRow = Selectable<S.WebSessionsTable>;

export type PersonalAccessTokenRow = Selectable<S.PersonalAccessTokensTable>;
export type DeployTokenRow = Selectable<S.DeployTokensTable>;
export type AccessRequestRow = Selectable<S.AccessRequestsTable>;
export type BroadcastMessageRow = Selectable<S.BroadcastMessagesTable>;

/** An external sign-in of a user (LDAP, OAuth provider) as the user entity lists it. */
export interface Identity {
  provider: string;
  extern_uid: string;
}

/** What the administrator form of a user shows beyond its row. */
export interface UserFullExtras {
  identities: Identity[];
  /** Projects in the user's personal namespace, for can_create_project. */
  personalProjectCount: number;
}

export type ProjectRow = Selectable<S.ProjectsTable>;

export type NamespaceRow = Selectable<S.NamespacesTable>;
export type NewNamespaceRow = Insertable<S.NamespacesTable>;

export type NewProject = Insertable<S.ProjectsTable>;

export type ProjectChanges = Updateable<S.ProjectsTable>;

/** A project and its namespace: what every project route works with. */
export interface ProjectRecord {
  project: ProjectRow;
  namespace: NamespaceRow;
}

export interface SharedGroupRow {
  project_id: number;
  group_id: number;
  group_name: string;
  group_path: string;
  group_access: number;
  expires_at: string | null;
}

export type ProjectHookRow = Selectable<S.ProjectHooksTable>;

export type SystemHookRow = Selectable<S.SystemHooksTable>;

export type HookDeliveryRow = Selectable<S.HookDeliveriesTable>;
export type MailRow = Selectable<S.MailsTable>;
export type MailEventRow = Selectable<S.MailEventsTable>;

export type HookDeliveryAttemptRow = Selectable<S.HookDeliveryAttemptsTable>;

/** The event switches of a project hook, which are also its delivery scopes. */
export type ProjectHookScope =
  | 'push_events'
  | 'tag_push_events'
  | 'issues_events'
  | 'confidential_issues_events'
  | 'merge_requests_events'
  | 'note_events'
  | 'build_events'
  | 'pipeline_events'
  | 'wiki_page_events'
  | 'deployment_events';

export type PushRow = Selectable<S.PushesTable>;

export type MemberRow = Selectable<S.MembersTable>;

export type SourceType = 'Project' | 'Namespace';

export interface AccessRow {
  kind: 'Project' | 'Namespace' | 'Share';
  /** projects.id for Project and Share rows, the group's namespace id for Namespace rows. */
  source_id: number;
  access_level: number;
  notification_level: number | null;
}

export type GroupRow = NamespaceRow;

export type KeyRow = Selectable<S.KeysTable>;
export type DeployKeyProjectRow = Selectable<S.DeployKeysProjectsTable>;

export type ProtectedBranchRow = Selectable<S.ProtectedBranchesTable>;

export type EventRow = Selectable<S.EventsTable>;

export type NewEvent = Insertable<S.EventsTable>;

export type ForkLinkRow = Selectable<S.ForkedProjectLinksTable>;

export interface MemberWithUser {
  member: MemberRow;
  user: Selectable<S.UsersTable>;
}

export type ProjectScope = 'member' | 'visible' | 'owned' | 'starred' | 'all';

export type ProjectOrder = 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';

export interface ProjectListQuery {
  scope: ProjectScope;
  viewerId: number;
  /** External users see only public projects beyond their memberships. */
  external: boolean;
  archived?: boolean;
  visibility?: number;
  search?: string;
  /** Only the projects of this namespace (a user's or group's page). */
  namespaceId?: number;
  /** Lists search description too; GET /projects/search matches name or path only. */
  searchDescription: boolean;
  /** The search also matches the namespace's path or name (v4's search_namespaces). */
  searchNamespaces?: boolean;
  /** Only projects the caller reaches through a membership at this level or above (v4). */
  minAccessLevel?: number;
  /** Only projects with issues (merge requests) switched on (v4's with_issues_enabled…). */
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  /** Only the forks of this project (GET /projects/:id/forks). */
  forkedFromId?: number;
  /** Only projects carrying every one of these topics (v4's `topic`; at most MAX_LIST_TOPICS). */
  topicIds?: number[];
  /** Only projects whose id is above (below) this one (v4's id_after, id_before; keyset pages). */
  idAfter?: number;
  idBefore?: number;
  orderBy: ProjectOrder;
  sort: 'asc' | 'desc';
}

/** A project create's claim on a repository directory (services/repository-placement.ts). */
export type RepositoryCreationRow = Selectable<S.RepositoryCreationsTable>;

/** Where a project's repository belongs: its id, namespace path and path. */
export interface ProjectLocation {
  id: number;
  namespacePath: string;
  path: string;
}

export type CiRunnerRow = Selectable<S.CiRunnersTable>;

export type NewCiRunner = Insertable<S.CiRunnersTable>;

export type CiRunnerChanges = Updateable<S.CiRunnersTable>;

export type CiPipelineRow = Selectable<S.CiPipelinesTable>;

export type NewCiPipeline = Insertable<S.CiPipelinesTable>;

export type CiBuildRow = Selectable<S.CiBuildsTable>;

export type NewCiBuild = Insertable<S.CiBuildsTable>;

export type CiVariableRow = Selectable<S.CiVariablesTable>;
export type CiSharedVariableRow = Selectable<S.CiSharedVariablesTable>;

export type CiTriggerRequestRow = Selectable<S.CiTriggerRequestsTable>;
export type CiPipelineVariableRow = Selectable<S.CiPipelineVariablesTable>;
export type CiJobArtifactRow = Selectable<S.CiJobArtifactsTable>;

export type NewCiTriggerRequest = Insertable<S.CiTriggerRequestsTable>;

export type CiTriggerRow = Selectable<S.CiTriggersTable>;

export type NewCiTrigger = Insertable<S.CiTriggersTable>;

export type EnvironmentRow = Selectable<S.EnvironmentsTable>;
export type NewEnvironment = Insertable<S.EnvironmentsTable>;
export type EnvironmentChanges = Updateable<S.EnvironmentsTable>;
export type DeploymentRow = Selectable<S.DeploymentsTable>;
export type NewDeployment = Insertable<S.DeploymentsTable>;

export type SnippetRow = Selectable<S.SnippetsTable>;
export type NewSnippet = Insertable<S.SnippetsTable>;
export type SnippetChanges = Updateable<S.SnippetsTable>;
export type CiPipelineScheduleRow = Selectable<S.CiPipelineSchedulesTable>;

export type NewCiPipelineSchedule = Insertable<S.CiPipelineSchedulesTable>;

export type CiPipelineScheduleChanges = Updateable<S.CiPipelineSchedulesTable>;

export type CiPipelineScheduleVariableRow = Selectable<S.CiPipelineScheduleVariablesTable>;

export type { CiBuildType } from './schema.ts';

export type ReleaseRow = Selectable<S.ReleasesTable>;

export type RepositoryMoveRow = Selectable<S.RepositoryMovesTable>;

export type IssueRow = Selectable<S.IssuesTable>;
export type NewIssue = Insertable<S.IssuesTable>;
export type IssueChanges = Updateable<S.IssuesTable>;
export type MilestoneRow = Selectable<S.MilestonesTable>;
export type LabelRow = Selectable<S.LabelsTable>;
export type BoardRow = Selectable<S.BoardsTable>;
export type ListRow = Selectable<S.ListsTable>;
export type IssueLinkRow = Selectable<S.IssueLinksTable>;
export type NoteRow = Selectable<S.NotesTable>;
export type NewNote = Insertable<S.NotesTable>;
export type AwardEmojiRow = Selectable<S.AwardEmojiTable>;
export type TodoRow = Selectable<S.TodosTable>;
export type MergeRequestRow = Selectable<S.MergeRequestsTable>;
export type NewMergeRequest = Insertable<S.MergeRequestsTable>;
export type MergeRequestChanges = Updateable<S.MergeRequestsTable>;
export type { MergeRequestState, MergeStatus } from './schema.ts';
export type MergeRequestAutoMergeRow = Selectable<S.MergeRequestAutoMergesTable>;
export type MergeRequestDiffRow = Selectable<S.MergeRequestDiffsTable>;
export type NewMergeRequestDiffRow = Insertable<S.MergeRequestDiffsTable>;
