// fontverter ships no types: the one call icons.test.ts makes.
declare module 'fontverter' {
  const fontverter: {
    /** The font (TrueType, WOFF or WOFF2) in `format`. */
    convert(font: Buffer, format: 'truetype' | 'woff' | 'woff2'): Promise<Buffer>;
  };
  export default fontverter;
}
