// A `dotenv` report as GitLab reads it: at most 5 KiB and 20 variables, one `KEY=VALUE` a line (keys of
// ASCII letters, digits and `_`; blanks around key and value dropped; quotes kept as written; blank
// lines skipped). Its variables reach the later jobs that need or depend on the job.
export const DOTENV_MAX_BYTES = 5 * 1024;
const DOTENV_MAX_VARIABLES = 20;
const KEY = /^[a-zA-Z0-9_]+$/;

/** The report's variables in order (a later duplicate wins), or the error that refuses the file. */
export function parseDotenv(text: string): { variables: Array<[string, string]> } | { error: string } {
  if (Buffer.byteLength(text) > DOTENV_MAX_BYTES)
    return { error: `Dotenv Artifact Too Big. Maximum Allowable Size: ${DOTENV_MAX_BYTES}` };
  const found = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const equals = line.indexOf('=');
    if (equals < 0) return { error: 'Invalid Format' };
    const key = line.slice(0, equals).trim();
    if (!KEY.test(key)) return { error: "Validation failed: Key can contain only letters, digits and '_'." };
    found.set(key, line.slice(equals + 1).trim());
  }
  if (found.size > DOTENV_MAX_VARIABLES)
    return { error: `Dotenv files cannot have more than ${DOTENV_MAX_VARIABLES} variables` };
  return { variables: [...found] };
}
