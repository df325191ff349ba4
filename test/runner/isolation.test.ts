// The runner is a client of the runner protocol and nothing else: src/runner/ imports only its own
// modules, node's, its zip libraries and Labrador's version, never the server's database, services or
// routes (so it works the same against a Labrador on another machine).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const dir = path.resolve(import.meta.dirname, '../../src/runner');

it('src/runner imports nothing of the server', () => {
  const allowed = /^(node:|\.\/|\.\.\/lib\/version\.ts$|yauzl$|yazl$)/;
  for (const name of fs.readdirSync(dir)) {
    const source = fs.readFileSync(path.join(dir, name), 'utf8');
    for (const match of source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)) {
      assert.match(match[1]!, allowed, `${name} imports ${match[1]}`);
    }
  }
});
