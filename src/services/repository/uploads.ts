// Storing a project upload: streamed to disk under a fresh secret; a file over the configured limit is
// refused with 413 and leaves nothing behind.
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { apiError } from '../../errors.ts';
import { storeUpload, UploadTooLargeError } from '../../storage/uploads.ts';
import type { ProjectRecord } from '../../db/types.ts';

export async function storeProjectUpload(
  deps: Deps,
  record: ProjectRecord,
  filename: string,
  file: Readable,
  truncated: () => boolean,
): Promise<{ secret: string; filename: string }> {
  try {
    return await storeUpload(
      deps.config.dataDir,
      record.namespace.path,
      record.project.path,
      filename,
      file,
      truncated,
    );
  } catch (error) {
    if (error instanceof UploadTooLargeError) {
      const limit = deps.config.uploadMaxBytes;
      throw apiError(413, `413 Request Entity Too Large - the file is larger than ${limit} bytes`);
    }
    throw error;
  }
}
