// A pipeline's unit test report (v4's …/test_report and …/test_report_summary): the `junit` artifacts
// of its newest jobs, two reads (the jobs, their junit artifacts), then each report file read from disk
// and parsed. A job's cases make the suite named after it (parallel instances share their job's name).
import fsp from 'node:fs/promises';
import zlib from 'node:zlib';
import type { Deps } from '../deps.ts';
import { now } from '../lib/clock.ts';
import { latestBuildsOfPipelines } from '../db/repositories/builds.ts';
import { jobArtifactsOfType } from '../db/repositories/job-artifacts.ts';
import { reportPath } from '../storage/artifacts.ts';
import { parseJunit, type TestCase } from '../ci/junit.ts';
import type { CiPipelineRow } from '../db/types.ts';

/** A report larger than this, unpacked, is the suite's error rather than read. */
const JUNIT_MAX_BYTES = 32 * 1024 * 1024;

export interface TestSuiteView {
  name: string;
  buildIds: number[];
  cases: TestCase[];
  suiteError: string | null;
}

/** `rspec 1/3` and `rspec: [ruby, 3]` are suite `rspec`, as GitLab groups parallel jobs. */
const suiteName = (jobName: string) => jobName.replace(/(?: \d+\/\d+|: \[.*\])$/, '');

async function readReport(path: string, format: string): Promise<string | { error: string }> {
  try {
    const bytes = await fsp.readFile(path);
    const text = format === 'gzip' ? zlib.gunzipSync(bytes, { maxOutputLength: JUNIT_MAX_BYTES }) : bytes;
    return text.toString('utf8');
  } catch {
    return { error: 'JUnit data parsing failed: the report could not be read' };
  }
}

export async function pipelineTestSuites(deps: Deps, pipeline: CiPipelineRow): Promise<TestSuiteView[]> {
  const db = deps.db.kysely;
  const builds = (await latestBuildsOfPipelines(db, [pipeline.id])).filter((b) => b.type === 'build');
  const byId = new Map(builds.map((build) => [build.id, build]));
  const at = now();
  const artifacts = (await jobArtifactsOfType(db, [...byId.keys()], 'junit')).filter(
    (artifact) => artifact.expire_at === null || artifact.expire_at > at,
  );
  const suites = new Map<string, TestSuiteView>();
  for (const artifact of artifacts) {
    const build = byId.get(artifact.job_id)!;
    const name = suiteName(build.name);
    const suite = suites.get(name) ?? { name, buildIds: [], cases: [], suiteError: null };
    suites.set(name, suite);
    suite.buildIds.push(build.id);
    const text = await readReport(
      reportPath(deps.config.dataDir, build, 'junit', artifact.file),
      artifact.file_format,
    );
    const parsed = typeof text === 'string' ? parseJunit(text) : text;
    if ('error' in parsed) suite.suiteError ??= parsed.error;
    else suite.cases.push(...parsed.cases);
  }
  return [...suites.values()];
}
