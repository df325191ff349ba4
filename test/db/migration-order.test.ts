// A new migration is added at the end of src/db/migrations/index.ts with a name that sorts after every
// existing one, so every data dir runs the migrations in one order. Two entries from before this rule
// sort out of place (005-groups landed before 004-hooks); they are the only ones allowed to.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { migrationNames } from '../../src/db/migrations/index.ts';

const GRANDFATHERED = new Set(['004-hooks']);
const dir = path.resolve(import.meta.dirname, '../../src/db/migrations');

describe('migration list', () => {
  it('keeps each new migration after every earlier one in name order', () => {
    const names = migrationNames();
    names.forEach((name, index) => {
      if (GRANDFATHERED.has(name)) return;
      const later = names.slice(0, index).filter((earlier) => earlier >= name);
      assert.deepEqual(later, [], `${name} must sort after every migration listed before it`);
    });
    assert.equal(new Set(names).size, names.length, 'names are unique');
  });

  it('lists every migration file exactly once', () => {
    const files = fs
      .readdirSync(dir)
      .filter((file) => /^\d{3}-.*\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    assert.deepEqual([...migrationNames()].sort(), files);
  });
});
