// The modules dist/features.js takes from dist/editor.js (src/editor.ts) instead of carrying a copy of its own,
// as src/shared.ts lists those it takes from the activation bundle: the HTTP client and what comes with it, the
// cache breakpoints and the model table.
// The editor bundle is loaded before the features bundle (extension.ts), in the same extension host. The
// build (scripts/bundles.mjs) reads the list below; test/unit/architecture.test.ts checks it.
import * as adminRules from './core/admin/rules';
import * as accumulator from './core/api/accumulator';
import * as errors from './core/api/errors';
import * as http from './core/api/http';
import * as paging from './core/api/paging';
import * as retry from './core/api/retry';
import * as minimums from './core/cache/minimums';
import * as prefix from './core/cache/prefix';
import * as models from './core/models/table';
import * as breakpoints from './core/request/breakpoints';
import * as hash from './core/request/hash';
import * as text from './core/text';
import * as deltas from './core/tokens/deltas';
import * as estimate from './core/tokens/estimate';
import * as scheduler from './core/tokens/scheduler';

/** Each shared module by its path under src/, without the extension. */
export const shared: Record<string, unknown> = {
  'core/admin/rules': adminRules,
  'core/api/accumulator': accumulator,
  'core/api/errors': errors,
  'core/api/http': http,
  'core/api/paging': paging,
  'core/api/retry': retry,
  'core/cache/minimums': minimums,
  'core/cache/prefix': prefix,
  'core/models/table': models,
  'core/request/breakpoints': breakpoints,
  'core/request/hash': hash,
  'core/text': text,
  'core/tokens/deltas': deltas,
  'core/tokens/estimate': estimate,
  'core/tokens/scheduler': scheduler,
};
