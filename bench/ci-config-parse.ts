// Parsing a large .gitlab-ci.yml: 500 jobs in about 2,000 lines, split over a main file and 4 local
// includes, with hidden templates, extends, anchors, rules, needs and default. Target: < 100 ms a parse.
// Usage: node --import tsx bench/ci-config-parse.ts [rounds=20]
import { parseCiConfigWithIncludes } from '../src/ci/config.ts';

const rounds = Number(process.argv[2] ?? 50);
const JOBS = 500;
const FILES = 4;

function jobText(i: number): string {
  const stage = ['build', 'test', 'deploy'][i % 3]!;
  const lines = [`job-${i}:`, `  extends: .tpl-${i % 3}`, `  script: [echo ${i}]`];
  if (i % 2 === 0) lines.push(`  rules: [{if: '$CI_COMMIT_BRANCH == "main" || $N == "${i}"'}]`);
  else lines.push(`  variables: {N: "${i}"}`);
  if (stage !== 'build') lines.push(`  needs: [job-${i - (i % 3)}]`);
  return lines.join('\n');
}

const files = new Map<string, string>();
for (let f = 0; f < FILES; f++) {
  const jobs: string[] = [];
  for (let i = f; i < JOBS; i += FILES) jobs.push(jobText(i));
  files.set(`ci/part-${f}.yml`, jobs.join('\n') + '\n');
}
const templates = Array.from(
  { length: 3 },
  (_, t) =>
    `.tpl-${t}:\n  <<: *common\n  stage: ${['build', 'test', 'deploy'][t]}\n  tags: [t${t}]\n  artifacts: {paths: [out-${t}/]}`,
).join('\n');
const main = [
  'stages: [build, test, deploy]',
  'default:\n  before_script: [echo default]\n  retry: 1',
  'variables: {GLOBAL: "1"}',
  `include:\n${[...files.keys()].map((p) => `  - local: ${p}`).join('\n')}`,
  '.common: &common\n  image: alpine\n  interruptible: true',
  templates,
].join('\n');
const lines = [main, ...files.values()].join('\n').split('\n').length;
const read = (path: string) => Promise.resolve(files.get(path));

const first = await parseCiConfigWithIncludes(main, read);
if (first.error !== undefined) throw new Error(first.error);
if (first.config.jobs.length !== JOBS)
  throw new Error(`expected ${JOBS} jobs, got ${first.config.jobs.length}`);
// Wall time, and CPU time (user + system): on a shared, busy machine the CPU figure is the steady one.
const times: number[] = [];
const cpu: number[] = [];
for (let r = 0; r < rounds; r++) {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await parseCiConfigWithIncludes(main, read);
  const used = process.cpuUsage(cpuStart);
  cpu.push((used.user + used.system) / 1000);
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
cpu.sort((a, b) => a - b);
times.sort((a, b) => a - b);
console.log(
  `${lines} lines, ${JOBS} jobs, ${FILES} includes: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, ` +
    `min ${times[0]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms over ${rounds} parses; ` +
    `CPU median ${cpu[Math.floor(cpu.length / 2)]!.toFixed(1)} ms`,
);
