// Fields outside the other families: metadata, stop sequences, and the schema of structured outputs.
import type { FixData, Path, PathProblem } from '../types';
import { isObj, type Obj } from './common';
import { outputSchemaRules, type SchemaTrees } from './schemas';

/**
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` (text, one `@`, a dot inside what follows it, no space), without the regular
 * expression: it backtracks quadratically on a long value (a 40 KB user_id took 6 s).
 */
function looksLikeEmail(s: string): boolean {
  const at = s.indexOf('@');
  return at > 0 && s.indexOf('@', at + 1) < 0 && !/\s/.test(s) && s.slice(at + 2, -1).includes('.');
}

/** doc1 §2.1 says user_id should be opaque; reports show the service refusing an e-mail address. */
export function metadataRules(body: Obj, out: PathProblem[]): void {
  const md = body.metadata;
  if (isObj(md) && typeof md.user_id === 'string' && looksLikeEmail(md.user_id.trim())) {
    out.push({
      path: ['metadata', 'user_id'],
      anchor: 'value',
      severity: 'error',
      code: 'user-id-email',
      message:
        'metadata.user_id looks like an e-mail address, which the service refuses: send an opaque value such as ' +
        'a uuid or a hash.',
    });
  }
}

/**
 * A stop sequence must hold text: an empty one is refused, and so is one of whitespace only (the reports quote
 * ["\n"] refused; no accepted recording shows one).
 */
export function stopSequenceRules(body: Obj, out: PathProblem[]): void {
  if (!Array.isArray(body.stop_sequences)) return;
  body.stop_sequences.forEach((s, k) => {
    if (typeof s !== 'string' || (s !== '' && s.trim() !== '')) return;
    const at: Path = ['stop_sequences', k];
    const fixes: FixData[] = [{ kind: 'remove-property', title: 'Remove this stop sequence', path: at }];
    out.push(
      s === ''
        ? {
            path: at,
            anchor: 'value',
            severity: 'error',
            code: 'stop-sequence-empty',
            message: 'A stop sequence cannot be empty.',
            fixes,
          }
        : {
            path: at,
            anchor: 'value',
            severity: 'error',
            code: 'stop-sequence-whitespace',
            message:
              'A stop sequence must contain a character other than whitespace: the service refuses this one. ' +
              'Use one with visible text, such as "\\nObservation:", or remove it.',
            fixes,
          },
    );
  });
}

/** The schema of a structured output: `output_config.format`, or the older beta field `output_format`. */
export function structuredOutputRules(body: Obj, trees: SchemaTrees, out: PathProblem[]): void {
  const oc = body.output_config;
  const formats: [unknown, Path][] = [
    [isObj(oc) ? oc.format : undefined, ['output_config', 'format']],
    [body.output_format, ['output_format']],
  ];
  for (const [format, at] of formats)
    if (isObj(format) && isObj(format.schema)) outputSchemaRules(trees.of(format.schema, [...at, 'schema']), out);
}
