// A case run on two versions of its files (a git revision and the working copy): each cell's result on
// both, paired by file, case and model, and what the change did to its verdict. The CLI's `test --base`
// reports with it; the Cases grid's "Compare with…" is meant to pair its cells the same way.

/** What the change did to one cell. */
export type CellChange = 'same' | 'fixed' | 'broke' | 'new' | 'removed';

/** The order a report lists changes in: what a reviewer must look at first. */
export const CHANGE_ORDER: readonly CellChange[] = ['broke', 'fixed', 'new', 'removed', 'same'];

/**
 * `base` is the cell's verdict at the revision (undefined: the cell did not exist there; null: the version
 * there could not be sent, as the service would have refused it: a failure), `current` the working copy's
 * (undefined: the cell exists no more).
 */
export function changeOf(base: boolean | null | undefined, current: boolean | undefined): CellChange {
  if (current === undefined) return 'removed';
  if (base === undefined) return 'new';
  const before = base === true;
  if (before === current) return 'same';
  return current ? 'fixed' : 'broke';
}

/** A side's verdict as a comparison reads it: whether it passed, and of its samples how many passed. */
interface SideVerdict {
  pass: boolean;
  passedSamples?: number;
  samples?: readonly unknown[];
}

/**
 * What the change did to a cell, by its pass state and then its pass count: `base` null is a version that could
 * not be sent (a failure), undefined a cell that was not there. With the same pass state, fewer samples passing
 * now (`4/5 → 2/5`, as a share of the samples run) broke it, more fixed it.
 */
export function cellChange(base: SideVerdict | null | undefined, current: SideVerdict | undefined): CellChange {
  const byState = changeOf(base === null ? null : base?.pass, current?.pass);
  if (byState !== 'same' || !base || !current) return byState;
  const share = (v: SideVerdict) => (v.samples?.length ? (v.passedSamples ?? 0) / v.samples.length : v.pass ? 1 : 0);
  const before = share(base);
  const after = share(current);
  return after < before ? 'broke' : after > before ? 'fixed' : 'same';
}

/** Where a cell is in a run: its file (as shown), case and model; a dataset's row is known by its case_id. */
export interface CellAddress {
  file: string;
  caseName: string;
  model: string;
  /** a case from a dataset: paired by its id (changed content is a new id: one row removed, one new) */
  rowId?: string;
}

const addressKey = (c: CellAddress) => JSON.stringify([c.file, c.rowId ?? c.caseName, c.model]);

/**
 * The cells of both versions paired by address: every current cell in its order, each with its base cell
 * when there is one, and after them the cells only the base has (removed), in their order.
 */
export function pairCells<B extends CellAddress, C extends CellAddress>(
  base: readonly B[],
  current: readonly C[],
): { base?: B; current?: C }[] {
  const byKey = new Map(base.map(b => [addressKey(b), b]));
  const paired: { base?: B; current?: C }[] = current.map(c => {
    const b = byKey.get(addressKey(c));
    byKey.delete(addressKey(c));
    return b ? { base: b, current: c } : { current: c };
  });
  for (const b of byKey.values()) paired.push({ base: b });
  return paired;
}
