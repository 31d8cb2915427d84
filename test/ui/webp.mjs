// WebP pictures as the walkthrough ships them (media/walkthrough/, in the .vsix).

/**
 * A WebP without the sRGB colour profile Chromium's encoder writes into it (an ICCP chunk, and the VP8X header that
 * announces it): 474 bytes of a 3 KB picture, and sRGB is what every viewer assumes without one. Kept as it is when
 * it holds more than one image chunk (alpha, animation), which only the extended format can carry.
 */
export function withoutColorProfile(webp) {
  const chunks = [];
  for (let at = 12; at + 8 <= webp.length;) {
    const size = webp.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1);
    chunks.push({ id: webp.toString('latin1', at, at + 4), bytes: webp.subarray(at, end) });
    at = end;
  }
  const image = chunks.filter(c => c.id !== 'VP8X' && c.id !== 'ICCP');
  if (image.length !== 1 || (image[0].id !== 'VP8 ' && image[0].id !== 'VP8L')) return webp;
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + image[0].bytes.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, image[0].bytes]);
}
