import * as assert from 'node:assert/strict';
import {
  chooseModelFix,
  modelCompletions,
  modelHover,
  modelsSource,
  modelValueAt,
  type LoadedModels,
} from '../../../src/core/language/modelAssist';
import { builtinEntries, ModelCatalog } from '../../../src/core/models/catalog';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import { parseRequest } from '../../../src/core/request/parse';
import type { Format } from '../../../src/core/request/types';

/** The `model` value at `|`, with the file's parse as the editors have it. */
function at(text: string, format: Format = 'json') {
  const offset = text.indexOf('|');
  const clean = text.replace('|', '');
  const found = modelValueAt(clean, offset, format, parseRequest(clean, format));
  return found && { ...found, written: clean.slice(found.start, found.end) };
}

const builtin: LoadedModels = { source: 'builtin' };

describe('the model of a request file: where it is, what completes it, its hover, choosing one', () => {
  it('finds the value where it is written, and where it is being typed', () => {
    assert.deepEqual(at('{ "model": "model-op|us-4-7", "max_tokens": 1 }'), {
      start: 11,
      end: 27,
      quote: '"',
      id: 'model-opus-4-7',
      written: '"model-opus-4-7"',
    });
    assert.equal(at('{\n  "model": "mod|\n}')?.written, '"mod');
    assert.equal(at('model: mod|el-x\nmax_tokens: 1\n', 'yaml')?.written, 'model-x');
    assert.equal(at("model: 'mo|\n", 'yaml')?.quote, "'");
    assert.equal(at('{ "system": "mod|el" }'), undefined);
    assert.equal(at('messages:\n  - model: x|\n', 'yaml'), undefined);
  });

  it('offers every model of the list with its limits and facts, written as the file writes a string', () => {
    const value = at('{ "model": "mo|" }')!;
    const items = modelCompletions(value, builtinEntries(), builtin, 'json');
    const opus = items.find(i => i.label === 'model-opus-4-7')!;
    assert.equal(opus.insertText, '"model-opus-4-7"');
    // the editor filters on what is typed: the opening quote and the id
    assert.equal(opus.filterText, '"model-opus-4-7');
    assert.match(opus.detail!, /^200,000 context · /);
    assert.match(opus.documentation!, /Context window: \*\*200,000\*\* tokens/);
    // set in as text: Markdown's punctuation escaped
    assert.match(opus.documentation!, /From the built\\-in table\\\./);
    assert.deepEqual(
      items.map(i => i.sortText),
      items.map((_, i) => String(i).padStart(4, '0')),
    );
    const yaml = modelCompletions(at('model: mo|\n', 'yaml')!, builtinEntries(), builtin, 'yaml');
    assert.equal(yaml.find(i => i.label === 'model-opus-4-7')?.insertText, 'model-opus-4-7');
  });

  it('hovers a model with its facts, and says when neither list knows it', () => {
    const known = modelHover(at('{ "model": "model-opus|-4-7" }')!, builtin);
    assert.match(known!.markdown, /^`model-opus-4-7`/);
    const unknown = modelHover(at('{ "model": "model-nope|" }')!, builtin);
    assert.match(unknown!.markdown, /is in neither the service's model list nor the built-in table/);
    assert.equal(modelHover(at('{ "model": |}')!, builtin), undefined);
  });

  it('says where the facts come from: the service, a kept list, a saved file, the table', () => {
    const catalog = new ModelCatalog([]);
    assert.match(
      modelsSource({ catalog, source: 'file', file: 'models.json' }),
      /^From the saved model list models\.json\.$/,
    );
    assert.match(modelsSource({ source: 'builtin', problem: 'no key' }), /no model list from the service: no key/);
    assert.match(
      modelsSource({ catalog, source: 'kept', fetchedAt: 0, problem: 'offline' }),
      /cannot be reached \(offline\)/,
    );
  });

  it('chooses a model with one edit: replacing the one there, or adding the field', () => {
    const json = '{\n  "model": "model-opus-4-7",\n  "max_tokens": 5\n}\n';
    const fix = chooseModelFix('model-opus-4-7', 'model-sonnet-4-6');
    const parsed = parseRequest(json, 'json');
    assert.equal(
      applyEdits(json, fixEdits(json, 'json', parsed, fix)),
      json.replace('model-opus-4-7', 'model-sonnet-4-6'),
    );
    const yaml = 'max_tokens: 5\nmessages: []\n';
    const added = fixEdits(yaml, 'yaml', parseRequest(yaml, 'yaml'), chooseModelFix(undefined, 'model-sonnet-4-6'));
    assert.equal(applyEdits(yaml, added), `${yaml}model: model-sonnet-4-6\n`);
  });
});
