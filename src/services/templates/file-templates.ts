// The file templates, one place for the APIs (v3's /gitignores, /gitlab_ci_ymls, /licenses and their
// /templates/… spellings; v4's /templates/… and /projects/:id/templates/…) and the new-file page's
// picker. Four kinds: .gitignore, .gitlab-ci.yml and Dockerfile templates (our own texts, looked up by
// name, exactly as spelt) and licences (looked up by key, their placeholders filled on request).
import { notFound } from '../../errors.ts';
import { CI_TEMPLATES } from '../../ci/templates.ts';
import { DOCKERFILE_TEMPLATES } from './dockerfile-templates.ts';
import { GITIGNORE_TEMPLATES } from './gitignore-templates.ts';
import { LICENSE_TEMPLATES, type LicenseTemplate } from './licenses.ts';

export type { LicenseTemplate } from './licenses.ts';

export interface FileTemplate {
  name: string;
  content: string;
}

/** Templates under a heading (8.13's picker showed the headings). */
export interface TemplateGroup {
  label: string;
  templates: readonly FileTemplate[];
}

/** The kinds with a name and a text only, by their API path segment. */
export type FileTemplateType = 'gitignores' | 'gitlab_ci_ymls' | 'dockerfiles';
/** Every kind, as the picker and the per-project API name them. */
export type TemplateType = FileTemplateType | 'licenses';

interface TemplateKind {
  /** The word GitLab's 404 names: `404 gitignore Not Found`. */
  resource: string;
  /** The file a template of this kind usually becomes. */
  fileName: string;
  /** File names the new-file page offers this kind for (8.13's picker watched the name field the same way). */
  fileNames: RegExp;
  /** Groups, in the order the list answers them; the first group holding a name wins a lookup. */
  groups: readonly TemplateGroup[];
}

const FILE_KINDS: Record<FileTemplateType, TemplateKind> = {
  gitignores: {
    resource: 'gitignore',
    fileName: '.gitignore',
    fileNames: /(^|\/)\.gitignore$/,
    groups: GITIGNORE_TEMPLATES,
  },
  gitlab_ci_ymls: {
    resource: 'gitlab_ci_yml',
    fileName: '.gitlab-ci.yml',
    fileNames: /(^|\/)\.gitlab-ci\.yml$/,
    groups: CI_TEMPLATES,
  },
  dockerfiles: {
    resource: 'dockerfile',
    fileName: 'Dockerfile',
    fileNames: /(^|\/)Dockerfile$/,
    groups: DOCKERFILE_TEMPLATES,
  },
};

const LICENSE_FILE_NAMES = /(^|\/)(licen[sc]e|copying)($|\.)/i;

const TEMPLATE_TYPES: readonly TemplateType[] = ['gitignores', 'gitlab_ci_ymls', 'dockerfiles', 'licenses'];

export function isTemplateType(value: unknown): value is TemplateType {
  return typeof value === 'string' && (TEMPLATE_TYPES as readonly string[]).includes(value);
}

const BY_NAME = new Map<FileTemplateType, Map<string, FileTemplate>>(
  Object.entries(FILE_KINDS).map(([type, kind]) => {
    const names = new Map<string, FileTemplate>();
    for (const group of kind.groups)
      for (const template of group.templates)
        if (!names.has(template.name)) names.set(template.name, template);
    return [type as FileTemplateType, names];
  }),
);

const LICENSES_BY_KEY = new Map(LICENSE_TEMPLATES.map((license) => [license.key, license]));

/** Every template of a kind, group by group. */
export function listFileTemplates(type: FileTemplateType): FileTemplate[] {
  return FILE_KINDS[type].groups.flatMap((group) => group.templates);
}

/** One template by its exact name; unknown → GitLab's `404 <kind> Not Found` (or the resource given). */
export function fileTemplateOr404(
  type: FileTemplateType,
  name: string,
  resource = FILE_KINDS[type].resource,
): FileTemplate {
  const found = BY_NAME.get(type)!.get(name);
  if (!found) throw notFound(resource);
  return found;
}

/**
 * The licences, by key. `popular` true keeps the featured ones, false all the others (today's GitLab);
 * undefined keeps every one.
 */
export function listLicenseTemplates(popular?: boolean): LicenseTemplate[] {
  return popular === undefined
    ? [...LICENSE_TEMPLATES]
    : LICENSE_TEMPLATES.filter((license) => license.featured === popular);
}

export interface LicenseFill {
  /** Replaces `[project]`, `<description>`, `<one line … what it does.>`, when given. */
  project?: string;
  /** Replaces `[fullname]`, `<name of author>`, `[name of copyright owner]`, when given. */
  fullname?: string;
  /** Replaces `[year]`, `<year>`, `[yyyy]`. */
  year: number;
}

// The placeholders GitLab fills, in any of the three bracket pairs the licence texts use.
const PROJECT_PLACEHOLDER = /[<{[](project|description|one\sline\s.+\swhat\sit\sdoes\.)[>}\]]/gi;
const YEAR_PLACEHOLDER = /[<{[](year|yyyy)[>}\]]/gi;
const FULLNAME_PLACEHOLDER = /[<{[](fullname|name\sof\s(author|copyright\sowner))[>}\]]/gi;

/** One licence by key with its placeholders filled; unknown → `404 License Not Found`. */
export function licenseTemplateOr404(key: string, fill: LicenseFill, resource = 'License'): LicenseTemplate {
  const license = LICENSES_BY_KEY.get(key);
  if (!license) throw notFound(resource);
  // A function replacement, so `$` in a name is taken as it is.
  let content = license.content.replace(YEAR_PLACEHOLDER, () => String(fill.year));
  const { project, fullname } = fill;
  if (project) content = content.replace(PROJECT_PLACEHOLDER, () => project);
  if (fullname) content = content.replace(FULLNAME_PLACEHOLDER, () => fullname);
  return { ...license, content };
}

/** An entry of a list of any kind: `key` looks it up, `name` is what people read. */
export interface TemplateEntry {
  key: string;
  name: string;
}

/** Every template of a kind as key and name (licences: their key and title). */
export function listTemplateEntries(type: TemplateType): TemplateEntry[] {
  if (type === 'licenses')
    return LICENSE_TEMPLATES.map((license) => ({ key: license.key, name: license.name }));
  return listFileTemplates(type).map((template) => ({ key: template.name, name: template.name }));
}

/** The picker's headings and entries for a kind: licences under Popular and Other, as 8.13 showed them. */
export function templatePickerGroups(type: TemplateType): { label: string; entries: TemplateEntry[] }[] {
  if (type === 'licenses') {
    const entries = (featured: boolean) =>
      LICENSE_TEMPLATES.filter((license) => license.featured === featured).map((license) => ({
        key: license.key,
        name: license.name,
      }));
    return [
      { label: 'Popular', entries: entries(true) },
      { label: 'Other', entries: entries(false) },
    ];
  }
  return FILE_KINDS[type].groups.map((group) => ({
    label: group.label,
    entries: group.templates.map((template) => ({ key: template.name, name: template.name })),
  }));
}

/** The kind the new-file page offers for a file name, if any. */
export function templateTypeForFileName(fileName: string): TemplateType | undefined {
  const name = fileName.trim();
  if (name === '') return undefined;
  for (const [type, kind] of Object.entries(FILE_KINDS))
    if (kind.fileNames.test(name)) return type as TemplateType;
  return LICENSE_FILE_NAMES.test(name) ? 'licenses' : undefined;
}

/** The file name a template of this kind is usually saved as. */
export function templateFileName(type: TemplateType): string {
  return type === 'licenses' ? 'LICENSE' : FILE_KINDS[type].fileName;
}

/** A template's text for the picker, licences filled; undefined when the kind holds no such key. */
export function templateText(type: TemplateType, key: string, fill: LicenseFill): string | undefined {
  if (type === 'licenses') {
    return LICENSES_BY_KEY.has(key) ? licenseTemplateOr404(key, fill).content : undefined;
  }
  return BY_NAME.get(type)!.get(key)?.content;
}
