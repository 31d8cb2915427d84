// Temporary git repositories for the compare tests: made with the git executable, as a user's are, with a
// fixed author so commits are made without a global git configuration.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempRepo {
  dir: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  remove(file: string): void;
  /** adds everything and commits; returns the commit's sha */
  commit(message: string): string;
  dispose(): void;
}

export function tempRepo(prefix = 'pw-compare-'): TempRepo {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Promptwright Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Promptwright Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgsign', 'false');
  return {
    dir,
    git,
    write(file, text) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    },
    remove(file) {
      fs.rmSync(path.join(dir, file));
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
    dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A request file's text (JSON) whose last user message says `content`. */
export function request(content: string, extra: Record<string, unknown> = {}): string {
  const body = { model: 'model-opus-4-7', max_tokens: 100, ...extra, messages: [{ role: 'user', content }] };
  return `${JSON.stringify(body, null, 2)}\n`;
}
