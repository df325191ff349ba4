// Writing pkt-lines (gitprotocol-common): four hex digits of length (the four included), then the data.
export function pktLine(data: string | Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return Buffer.concat([Buffer.from((bytes.length + 4).toString(16).padStart(4, '0'), 'latin1'), bytes]);
}

export const FLUSH = Buffer.from('0000', 'latin1');
