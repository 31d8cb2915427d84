// The one way a class of the extension owns its listeners (src/vscode/platform/lifecycle.ts): it imports only
// vscode's types, so it runs here in plain node.
import * as assert from 'node:assert/strict';
import { Disposable, DisposableStore } from '../../src/vscode/platform/lifecycle';

function recorder(log: string[], name: string) {
  return { dispose: () => log.push(name) };
}

describe('lifecycle', () => {
  it('a store releases what it holds in the order it was added, once, and returns the first it was given', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    const a = recorder(log, 'a');
    assert.equal(store.add(a, recorder(log, 'b')), a);
    store.add(recorder(log, 'c'));
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['a', 'b', 'c']);
  });

  it('a cleared store releases what it held and holds what is added next', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(recorder(log, 'first panel'));
    store.clear();
    store.add(recorder(log, 'second panel'));
    assert.deepEqual(log, ['first panel']);
    store.dispose();
    assert.deepEqual(log, ['first panel', 'second panel']);
  });

  it('a class releases what it registered (fields first, then the constructor’s) after its own dispose work', () => {
    const log: string[] = [];
    class Owner extends Disposable {
      readonly emitter = this.register(recorder(log, 'field'));
      constructor() {
        super();
        this.register(recorder(log, 'listener 1'), recorder(log, 'listener 2'));
      }
      override dispose(): void {
        log.push('own work');
        super.dispose();
      }
    }
    const owner = new Owner();
    assert.deepEqual(log, []);
    owner.dispose();
    assert.deepEqual(log, ['own work', 'field', 'listener 1', 'listener 2']);
  });
});
