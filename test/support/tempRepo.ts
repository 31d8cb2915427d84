// Git repositories for tests and benchmarks, made with the git executable as a user's are, with a fixed author
// (and no signing) so commits are made without a global git configuration.
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

/** The environment of every git command here: the fixed author and committer, no system configuration. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Promptwright Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Promptwright Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Runs git in `dir` as the tests' author; throws (with git's message) when git fails. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) => execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** A new repository (branch `main`) in `dir`, which exists. */
export function gitRepo(dir: string): TempRepo {
  const git = gitIn(dir);
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

/** A new repository in a new temporary folder (its real path: macOS's /var is a link). */
export function tempRepo(prefix = 'pw-compare-'): TempRepo {
  return gitRepo(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix))));
}
