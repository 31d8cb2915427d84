// Offsets to lines and columns in a text that may not be open in an editor: a case file's problems land in
// the request file it names, which is often closed, and a closed file has no TextDocument to ask.

export class LineIndex {
  /** the offset at which each line starts */
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // \r\n ends one line, as VS Code counts them
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.starts.push(i + 1);
    }
  }

  /** The zero-based line and character (UTF-16 code units, as VS Code counts) of an offset. */
  position(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo]! };
  }
}
