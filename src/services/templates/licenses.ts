// The licence templates: each licence's text (standard, shipped verbatim) and the facts GitLab's licence
// entity carries about it (key, title, nickname, featured, where it comes from, and the rules it sets,
// named as today's choosealicense names them). The descriptions are our own words. Sorted by key, the
// order the list answers in.
import { APACHE_2_0 } from './license-texts/apache-2.0.ts';
import { CC0_1_0 } from './license-texts/cc0-1.0.ts';
import { GPL_2_0 } from './license-texts/gpl-2.0.ts';
import { GPL_3_0 } from './license-texts/gpl-3.0.ts';
import { LGPL_2_1 } from './license-texts/lgpl-2.1.ts';
import { LGPL_3_0 } from './license-texts/lgpl-3.0.ts';
import { MPL_2_0 } from './license-texts/mpl-2.0.ts';
import { BSD_2_CLAUSE, BSD_3_CLAUSE, ISC, MIT, UNLICENSE } from './license-texts/permissive.ts';

export interface LicenseTemplate {
  key: string;
  name: string;
  nickname: string | null;
  /** choosealicense's "featured": the licences `popular` picks. */
  featured: boolean;
  sourceUrl: string;
  description: string;
  conditions: string[];
  permissions: string[];
  limitations: string[];
  content: string;
}

const FREEDOMS = ['commercial-use', 'modifications', 'distribution', 'private-use'];
const WITH_PATENTS = ['commercial-use', 'modifications', 'distribution', 'patent-use', 'private-use'];

export const LICENSE_TEMPLATES: readonly LicenseTemplate[] = [
  {
    key: 'apache-2.0',
    name: 'Apache License 2.0',
    nickname: null,
    featured: true,
    sourceUrl: 'http://www.apache.org/licenses/LICENSE-2.0.html',
    description:
      'Permissive, with an explicit patent grant from every contributor and a notice of changes made to the files.',
    conditions: ['include-copyright', 'document-changes'],
    permissions: WITH_PATENTS,
    limitations: ['trademark-use', 'liability', 'warranty'],
    content: APACHE_2_0,
  },
  {
    key: 'bsd-2-clause',
    name: 'BSD 2-clause "Simplified" License',
    nickname: null,
    featured: false,
    sourceUrl: 'http://opensource.org/licenses/BSD-2-Clause',
    description:
      'Permissive and short: keep the copyright notice and the disclaimer, in source and binaries.',
    conditions: ['include-copyright'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: BSD_2_CLAUSE,
  },
  {
    key: 'bsd-3-clause',
    name: 'BSD 3-clause "New" or "Revised" License',
    nickname: null,
    featured: false,
    sourceUrl: 'http://opensource.org/licenses/BSD-3-Clause',
    description:
      'The two-clause BSD licence plus a third clause: the authors’ names may not be used to promote derived works.',
    conditions: ['include-copyright'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: BSD_3_CLAUSE,
  },
  {
    key: 'cc0-1.0',
    name: 'Creative Commons Zero v1.0 Universal',
    nickname: null,
    featured: false,
    sourceUrl: 'http://creativecommons.org/publicdomain/zero/1.0/legalcode',
    description:
      'Gives up every right the law allows, as near the public domain as possible, with a fallback licence where it is not.',
    conditions: [],
    permissions: FREEDOMS,
    limitations: ['liability', 'trademark-use', 'patent-use', 'warranty'],
    content: CC0_1_0,
  },
  {
    key: 'gpl-2.0',
    name: 'GNU General Public License v2.0',
    nickname: 'GNU GPLv2',
    featured: false,
    sourceUrl: 'http://www.gnu.org/licenses/gpl-2.0.txt',
    description:
      'Strong copyleft: whoever distributes the work or a derived one must do so under this licence, with its source.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: GPL_2_0,
  },
  {
    key: 'gpl-3.0',
    name: 'GNU General Public License v3.0',
    nickname: 'GNU GPLv3',
    featured: true,
    sourceUrl: 'http://www.gnu.org/licenses/gpl-3.0.txt',
    description:
      'Strong copyleft with a patent grant: derived works are distributed under the same licence, with their source.',
    conditions: ['include-copyright', 'document-changes', 'disclose-source', 'same-license'],
    permissions: WITH_PATENTS,
    limitations: ['liability', 'warranty'],
    content: GPL_3_0,
  },
  {
    key: 'isc',
    name: 'ISC License',
    nickname: null,
    featured: false,
    sourceUrl: 'http://opensource.org/licenses/isc-license',
    description: 'Permissive, in the fewest words: the MIT licence’s terms with the redundant ones left out.',
    conditions: ['include-copyright'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: ISC,
  },
  {
    key: 'lgpl-2.1',
    name: 'GNU Lesser General Public License v2.1',
    nickname: 'GNU LGPLv2.1',
    featured: false,
    sourceUrl: 'http://www.gnu.org/licenses/lgpl-2.1.txt',
    description:
      'Copyleft for a library itself; programs that only link to it may be distributed under other terms.',
    conditions: ['include-copyright', 'disclose-source', 'document-changes', 'same-license--library'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: LGPL_2_1,
  },
  {
    key: 'lgpl-3.0',
    name: 'GNU Lesser General Public License v3.0',
    nickname: 'GNU LGPLv3',
    featured: false,
    sourceUrl: 'http://www.gnu.org/licenses/lgpl-3.0.txt',
    description:
      'Extra permissions on top of the GPL v3: a larger work that only uses the library may carry other terms.',
    conditions: ['include-copyright', 'disclose-source', 'document-changes', 'same-license--library'],
    permissions: WITH_PATENTS,
    limitations: ['liability', 'warranty'],
    content: LGPL_3_0,
  },
  {
    key: 'mit',
    name: 'MIT License',
    nickname: null,
    featured: true,
    sourceUrl: 'http://opensource.org/licenses/MIT',
    description:
      'Short and permissive: do anything with the code, keep the copyright notice, expect no warranty.',
    conditions: ['include-copyright'],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: MIT,
  },
  {
    key: 'mpl-2.0',
    name: 'Mozilla Public License 2.0',
    nickname: null,
    featured: false,
    sourceUrl: 'https://www.mozilla.org/media/MPL/2.0/index.txt',
    description:
      'Weak copyleft by file: changed files stay under this licence, while a larger work may combine them with others.',
    conditions: ['disclose-source', 'include-copyright', 'same-license--file'],
    permissions: WITH_PATENTS,
    limitations: ['liability', 'trademark-use', 'warranty'],
    content: MPL_2_0,
  },
  {
    key: 'unlicense',
    name: 'The Unlicense',
    nickname: null,
    featured: false,
    sourceUrl: 'http://unlicense.org/UNLICENSE',
    description: 'Dedicates the work to the public domain, with a disclaimer of warranty.',
    conditions: [],
    permissions: FREEDOMS,
    limitations: ['liability', 'warranty'],
    content: UNLICENSE,
  },
];
