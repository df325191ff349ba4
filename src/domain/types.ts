// Shared value types in GitLab's words (lib/gitlab/access.rb, visibility_level.rb).

export const AccessLevel = {
  NoAccess: 0,
  Guest: 10,
  Reporter: 20,
  Developer: 30,
  Master: 40,
  Owner: 50,
} as const;
export type AccessLevel = (typeof AccessLevel)[keyof typeof AccessLevel];

export const Visibility = { Private: 0, Internal: 10, Public: 20 } as const;
export type Visibility = (typeof Visibility)[keyof typeof Visibility];

export type UserState = 'active' | 'blocked' | 'ldap_blocked';
