// Who the runner says it is in `info` and its User-Agent: its own name, Labrador's version.
import { version } from '../lib/version.ts';

export const RUNNER_NAME = 'labrador-runner';
export const runnerVersion = version;
