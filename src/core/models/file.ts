// A saved model list: the output of `promptwright models --format json` in a file, which `promptwright check
// --models FILE`, PROMPTWRIGHT_MODELS and the language server's `modelsFile` setting check against, offline.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../api/errors';
import { ModelCatalog, parseModelList } from './catalog';

/**
 * A saved catalog (`--models FILE`, PROMPTWRIGHT_MODELS, `modelsFile`), read from `file` relative to `cwd`.
 * Throws a ConfigError that says what is wrong with the file (the CLI exits 2), never a crash.
 */
export function loadModelsFile(file: string, cwd: string): ModelCatalog {
  const at = `--models ${file}`;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new ConfigError(`${at}: cannot be read (${(e as Error).message})`, 'none');
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ConfigError(`${at}: not JSON (${(e as Error).message})`, 'none');
  }
  const list = parseModelList(value);
  if ('error' in list) throw new ConfigError(`${at}: ${list.error}`, 'none');
  return new ModelCatalog(list.models);
}
