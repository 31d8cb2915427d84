// Prompt-caching breakpoints (`cache_control`).
import type { Path, PathProblem } from '../types';
import { given, isObj, type Obj } from './common';

const BLOCK_ARRAYS_WITH_PARENT_CACHE = new Set(['tool_result', 'document-content']);

/** doc1 §2.3: nested cache_control only on the last block of tool_result.content or document.source.content. */
export function nestedCacheControl(block: Obj, at: Path, out: PathProblem[]): void {
  const check = (arr: unknown, arrPath: Path, parentKind: string) => {
    if (!Array.isArray(arr)) return;
    arr.forEach((child, k) => {
      if (!isObj(child)) return;
      const parentTakesIt = BLOCK_ARRAYS_WITH_PARENT_CACHE.has(parentKind);
      if (given(child.cache_control) && !(parentTakesIt && k === arr.length - 1)) {
        out.push({
          path: [...arrPath, k, 'cache_control'],
          anchor: 'key',
          severity: 'error',
          code: 'nested-cache-control',
          message: parentTakesIt
            ? 'cache_control on a nested block is only allowed on the last block (it then applies to the parent). ' +
              'Move it to the parent block.'
            : 'cache_control is not allowed on this nested block; put it on the parent block.',
          fixes: [
            { kind: 'remove-property', title: 'Remove this cache_control', path: [...arrPath, k, 'cache_control'] },
          ],
        });
      }
      if (child.type === 'document') checkDocument(child, [...arrPath, k]);
    });
  };
  const checkDocument = (doc: Obj, p: Path) => {
    const src = doc.source;
    if (isObj(src) && src.type === 'content') check(src.content, [...p, 'source', 'content'], 'document-content');
  };
  if (block.type === 'tool_result') check(block.content, [...at, 'content'], 'tool_result');
  if (block.type === 'document') checkDocument(block, at);
  if (block.type === 'search_result') check(block.content, [...at, 'content'], 'search_result');
}
