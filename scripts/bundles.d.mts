// Types of scripts/bundles.mjs for the TypeScript that imports it (test/unit/architecture.test.ts).
import type { BuildOptions } from 'esbuild';

export interface Bundle {
  name: string;
  budget?: number;
  options: BuildOptions;
}
export function bundles(production: boolean): Bundle[];
export function sharedModules(list?: string): string[];
/** each bundle that shares modules with later ones, and the file under src/ that lists them */
export const SHARING: Record<'./extension.js' | './editor.js', string>;
export function nodeOptions(production: boolean): BuildOptions;
export const LAZY_BUNDLES: string[];
export const VSIX_BUDGET: number;
export const VSIX_GOAL: number;
