// Zip archives for artifact tests, made with yazl as a runner's archiver would.
import yazl from 'yazl';

export function makeZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(Buffer.from(content), name, {
      mtime: new Date(Date.UTC(2016, 9, 22, 10, 0, 0)),
      mode: 0o100644,
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
