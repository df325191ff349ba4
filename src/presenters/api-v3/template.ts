// GitLab 8.13's template entities: TemplatesList (`name` only), Template (`name`, `content`) and
// RepoLicense, whose `featured` went out as `popular` and whose rules carried choosealicense's names of
// 2016 (`no-liability`, one `same-license`, no `warranty`).
import type { FileTemplate, LicenseTemplate } from '../../services/templates/file-templates.ts';

export function presentTemplateName(template: FileTemplate) {
  return { name: template.name };
}

export function presentTemplate(template: FileTemplate) {
  return { name: template.name, content: template.content };
}

/** choosealicense's names as Licensee 8 carried them. */
function ruleNames2016(rules: string[]): string[] {
  const names: string[] = [];
  for (const rule of rules) {
    if (rule === 'warranty') continue;
    const name = rule === 'liability' ? 'no-liability' : rule.replace(/--.*$/, '');
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

export function licenseHtmlUrl(license: LicenseTemplate): string {
  return `http://choosealicense.com/licenses/${license.key}/`;
}

export function presentLicense(license: LicenseTemplate) {
  return {
    key: license.key,
    name: license.name,
    nickname: license.nickname,
    popular: license.featured,
    html_url: licenseHtmlUrl(license),
    source_url: license.sourceUrl,
    description: license.description,
    conditions: ruleNames2016(license.conditions),
    permissions: ruleNames2016(license.permissions),
    limitations: ruleNames2016(license.limitations),
    content: license.content,
  };
}
