// Labrador's own version (package.json), for the start-up summary. The build writes it into the bundle;
// run from src/ it is read from the checkout.
import fs from 'node:fs';

declare const LABRADOR_VERSION: string | undefined;

function fromPackageJson(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return String(manifest.version);
  } catch {
    return 'unknown';
  }
}

export const version: string = typeof LABRADOR_VERSION === 'string' ? LABRADOR_VERSION : fromPackageJson();
