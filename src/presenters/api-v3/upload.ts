// The answer to an upload: the file's alt text, its URL relative to the project, and the Markdown that
// shows it (an image or video inline, anything else as a link).
import path from 'node:path';
import { isImageOrVideo } from '../../storage/uploads.ts';

export function presentUploadLink(secret: string, filename: string) {
  const url = `/uploads/${secret}/${filename}`;
  const image = isImageOrVideo(filename);
  const alt = image ? filename.slice(0, filename.length - path.extname(filename).length) : filename;
  const text = (image ? alt : filename).replace(/]/g, '\\]');
  return { alt, url, markdown: `${image ? '!' : ''}[${text}](${url})` };
}
