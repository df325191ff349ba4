// The bash scripts of the shell executor, written as gitlab-runner 1.x wrote them: `set -eo pipefail`
// so the first failing line ends the script, each line echoed as `$ line` (green) before it runs. The
// build's variables reach the script through its environment, never through the script text, so no
// value (secret or not) is ever echoed.

/** One word for bash, whatever it holds. */
function bashQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function bashScript(projectDir: string, lines: string[]): string {
  const out = ['set -eo pipefail', 'set +o noclobber', `cd ${bashQuote(projectDir)}`];
  for (const line of lines) {
    out.push(`printf '\\033[32;1m%s\\033[0;m\\n' ${bashQuote(`$ ${line}`)}`);
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}

/** The environment of a build's processes: the runner's own minus Labrador's settings, plus the build's. */
export function buildEnvironment(
  base: NodeJS.ProcessEnv,
  variables: Array<{ key: string; value: string }>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    // The server's settings (database URL, root token) and the registration token stay with us.
    if (key.startsWith('LABRADOR_') || key === 'REGISTRATION_TOKEN' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  for (const variable of variables) env[variable.key] = variable.value;
  return env;
}
