// Types of push-rules.mjs (plain JavaScript, with no imports).

export declare const BLANK_SHA: string;

export declare const PUSH_REFUSALS: {
  pushCode: string;
  changeTag: string;
  forcePush: string;
  deleteProtected: string;
  pushProtected: string;
};

/** What the rules need to know about the pusher and the project. */
export interface PushRules {
  /** The pusher's access level; administrators count as masters. */
  accessLevel: number;
  archived: boolean;
  protectedBranches: Array<{ name: string; developersCanPush: boolean }>;
}

/** Facts about the repository, asked for only when a decision needs them. */
export interface RepositoryFacts {
  repositoryIsEmpty(): boolean | Promise<boolean>;
  isAncestor(ancestor: string, descendant: string): boolean | Promise<boolean>;
}

export interface RefChange {
  before: string;
  after: string;
  ref: string;
}

export declare function ruleMatches(pattern: string, branch: string): boolean;
export declare function canPushToBranch(
  rules: PushRules,
  branch: string,
  facts: Pick<RepositoryFacts, 'repositoryIsEmpty'>,
): Promise<boolean>;
export declare function refUpdateRefusal(
  change: RefChange,
  rules: PushRules,
  facts: RepositoryFacts,
): Promise<string | null>;
