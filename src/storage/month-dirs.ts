// CI files are filed as GitLab filed them: under the month of the build's creation, then the project id.
import fsp from 'node:fs/promises';
import path from 'node:path';

/** `2016-10-22T…` → `2016_10`. */
export function monthDir(createdAt: string): string {
  return `${createdAt.slice(0, 4)}_${createdAt.slice(5, 7)}`;
}

/** Removes a project's folder under every month of `root` (the project is being deleted). */
export async function removeProjectFromMonths(root: string, projectId: number): Promise<void> {
  let months: string[] = [];
  try {
    months = await fsp.readdir(root);
  } catch {
    return;
  }
  for (const month of months) {
    await fsp.rm(path.join(root, month, String(projectId)), { recursive: true, force: true });
  }
}
