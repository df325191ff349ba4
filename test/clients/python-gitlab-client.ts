// What the python-gitlab client tests share: Debian's interpreter with its python3-gitlab 3.x, and the
// skip their describe() takes where it is missing (the scripts beside this file are run with it).
import { execFileSync } from 'node:child_process';
import { requirement } from '../helpers/requirements.ts';

export const PYTHON = '/usr/bin/python3';

function pythonGitlabProblem(): string | undefined {
  try {
    const version = execFileSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return version.startsWith('3.') ? undefined : `${PYTHON} has python-gitlab ${version}, not 3.x`;
  } catch {
    return `${PYTHON} cannot import gitlab (apt-get install python3-gitlab)`;
  }
}

/** The skip of a describe() that needs python-gitlab 3.x (undefined where it is installed). */
export const pythonGitlabSkip = requirement('python-gitlab', pythonGitlabProblem());
