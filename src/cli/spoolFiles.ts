// The files a run too large to hold keeps on disk (its spool, a report's body and its asides): written a line at a
// time and read back by place; and what a killed run left behind, found by its process id and removed by the next.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A file written a line at a time (64 KB at once), then read back by place. */
export class Appender {
  private fd: number | undefined;
  private pending = '';
  size = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w+');
  }

  /** Appends a line; its place. */
  append(line: string): number {
    const at = this.size;
    this.write(`${line}\n`);
    return at;
  }

  write(text: string): void {
    this.pending += text;
    this.size += Buffer.byteLength(text);
    if (this.pending.length >= 65_536) this.flush();
  }

  read(from: number, to: number): string {
    return this.bytes(from, to).toString('utf8');
  }

  /** What is written from one place to another (a piece may end inside a character). */
  bytes(from: number, to: number): Buffer {
    this.flush();
    const buf = Buffer.allocUnsafe(to - from);
    fs.readSync(this.fd!, buf, 0, buf.length, from);
    return buf;
  }

  flush(): void {
    if (!this.pending || this.fd === undefined) return;
    fs.writeSync(this.fd, this.pending);
    this.pending = '';
  }

  close(): void {
    this.flush();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Removes the spools (`PID-TIME`, each as large as its suite) of runs that were killed: no process has their pid
 * (ESRCH), and they were made over a minute ago. A live run's is left alone, another user's too (its pid says
 * EPERM); one whose pid a later process took is left until that one ends.
 */
export function removeStaleSpools(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // no spool yet
  }
  for (const name of names) {
    const m = /^(\d+)-(\d+)$/.exec(name);
    if (!m || now - Number(m[2]) < 60_000 || alive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Whether a process has this pid (another user's too). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
