// v4's template entities: TemplatesList (`key`, `name`), Template (`name`, `content`, v3's) and License
// (LicenseBasic's key, name, nickname, html_url, source_url, then popular, the rules and the text).
import type { LicenseTemplate, TemplateEntry } from '../../services/templates/file-templates.ts';
import { licenseHtmlUrl } from '../api-v3/template.ts';

export { presentTemplate } from '../api-v3/template.ts';

export function presentTemplateEntry(entry: TemplateEntry) {
  return { key: entry.key, name: entry.name };
}

export function presentLicense(license: LicenseTemplate) {
  return {
    key: license.key,
    name: license.name,
    nickname: license.nickname,
    html_url: licenseHtmlUrl(license),
    source_url: license.sourceUrl,
    popular: license.featured,
    description: license.description,
    conditions: license.conditions,
    permissions: license.permissions,
    limitations: license.limitations,
    content: license.content,
  };
}
